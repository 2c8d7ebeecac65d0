// A sign-up form view model written as Combine apps write it (only `import Combine` became `import Streams`
// plus `import StreamsFoundation`): @Published fields validated with combineLatest / CombineLatest3, debounced
// on a run loop (`RunLoop.main` in the app), `assign(to: &$isValid)`, and `objectWillChange` observed by a
// sink. Compiled in Swift 6 mode here and in Swift 5 mode through a symbolic link in
// CombineVocabularySwift5Tests.
import Dispatch
import Foundation
import Streams
import StreamsFoundation
import Testing

final class SignUpFormViewModel: ObservableObject {
    // Input
    @Published var username = ""
    @Published var password = ""
    @Published var passwordConfirmation = ""

    // Output
    @Published private(set) var isValid = false
    @Published private(set) var usernameMessage = ""
    @Published private(set) var passwordMessage = ""

    private var cancellables = Set<AnyCancellable>()

    /// `runLoop` is `.main` in the app; the tests pass their own thread's loop (see `turn(_:for:until:)`).
    init(
        runLoop: RunLoop = .main,
        checkAvailability: @escaping (String) -> AnyPublisher<Bool, Never> = { _ in Just(true).eraseToAnyPublisher() }
    ) {
        let isUsernameAvailable: AnyPublisher<Bool, Never> = $username
            .debounce(for: 0.5, scheduler: runLoop)
            .removeDuplicates()
            .map { username -> AnyPublisher<Bool, Never> in
                guard username.count >= 3 else { return Just(false).eraseToAnyPublisher() }
                return checkAvailability(username)
            }
            .switchToLatest()
            .share()
            .eraseToAnyPublisher()

        let isPasswordStrong: AnyPublisher<Bool, Never> = $password
            .debounce(for: 0.5, scheduler: runLoop)
            .removeDuplicates()
            .map { $0.count >= 8 }
            .eraseToAnyPublisher()

        let doPasswordsMatch: AnyPublisher<Bool, Never> = $password
            .combineLatest($passwordConfirmation)
            .debounce(for: 0.5, scheduler: runLoop)
            .map { password, confirmation in password == confirmation }
            .removeDuplicates()
            .eraseToAnyPublisher()

        Publishers.CombineLatest3(isUsernameAvailable, isPasswordStrong, doPasswordsMatch)
            .map { $0 && $1 && $2 }
            .removeDuplicates()
            .assign(to: &$isValid)

        isUsernameAvailable
            .map { $0 ? "" : "User name is too short or already taken" }
            .receive(on: runLoop)
            .sink { [weak self] in self?.usernameMessage = $0 }
            .store(in: &cancellables)

        isPasswordStrong.combineLatest(doPasswordsMatch) { strong, match -> String in
            if !strong { return "Password must be at least 8 characters" }
            return match ? "" : "Passwords don't match"
        }
        .sink { [weak self] message in self?.passwordMessage = message }
        .store(in: &cancellables)
    }
}

// MARK: - Bounded real-time waits (shared by the files of this target)

/// Turns `runLoop` (the current thread's) until `condition` holds or `limit` seconds pass; returns whether it
/// held. What a test of code scheduled on a run loop does instead of a fixed sleep.
///
/// The models take the run loop as a parameter whose default is `RunLoop.main`, as the app uses them, because
/// `RunLoop.main` cannot be turned under `swift test` on Linux: the main thread is parked in `dispatch_main()`
/// (the main queue is drained by a worker thread), and `RunLoop.main.run(mode:before:)` from any other
/// thread returns `false` at once without running anything.
func turn(_ runLoop: RunLoop, for limit: TimeInterval = 4, until condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(limit)
    while !condition() && Date() < deadline {
        _ = runLoop.run(mode: .default, before: Date().addingTimeInterval(0.005))
    }
    return condition()
}

/// Suspends the main actor in 5 ms steps (the test runner drains the main queue meanwhile) until `condition`
/// holds or `limit` passes; returns whether it held. For code delivering on `DispatchQueue.main`.
@MainActor func waitOnMainQueue(for limit: Duration = .seconds(4), until condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while !condition() && ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

@Suite struct SignUpFormViewModelTests {
    @Test func aValidFormIsReportedOnceTypingSettles() {
        let runLoop = RunLoop.current
        var checked: [String] = []
        let viewModel = SignUpFormViewModel(runLoop: runLoop) { name in
            checked.append(name)
            return Just(name != "taken").eraseToAnyPublisher()
        }
        var changes = 0
        let watch = viewModel.objectWillChange.sink { changes += 1 }

        viewModel.username = "j"
        viewModel.username = "jo"
        viewModel.username = "joh"
        viewModel.password = "password1"
        viewModel.passwordConfirmation = "password1"
        #expect(!viewModel.isValid)  // nothing before the debounce interval has passed on the run loop
        #expect(turn(runLoop) { viewModel.isValid })
        #expect(checked == ["joh"])  // debounce + removeDuplicates: one check for the settled name
        #expect(turn(runLoop) { viewModel.passwordMessage.isEmpty && viewModel.usernameMessage.isEmpty })
        #expect(changes >= 1)

        // A pause of 0.1 s between keystrokes is shorter than the 0.5 s debounce: only the final name is checked
        // (a run-loop scheduler waits for its deadline).
        viewModel.username = "mari"
        _ = turn(runLoop, for: 0.1) { false }
        viewModel.username = "marie"
        #expect(turn(runLoop) { checked.last == "marie" })
        #expect(checked == ["joh", "marie"])

        let changesBefore = changes
        viewModel.passwordConfirmation = "password2"
        #expect(changes == changesBefore + 1)  // objectWillChange fires synchronously, before the value changes
        // `isValid` and `passwordMessage` each subscribe their own debounce (the publishers are not shared, as in
        // the app), so their timers fire separately: wait for both.
        #expect(turn(runLoop) { !viewModel.isValid && viewModel.passwordMessage == "Passwords don't match" })
        watch.cancel()
    }

    @Test func aTakenOrShortNameKeepsTheFormInvalid() {
        let runLoop = RunLoop.current
        let viewModel = SignUpFormViewModel(runLoop: runLoop) { name in Just(name != "taken").eraseToAnyPublisher() }
        viewModel.username = "taken"
        viewModel.password = "short"
        viewModel.passwordConfirmation = "short"
        #expect(turn(runLoop) { viewModel.usernameMessage == "User name is too short or already taken" })
        #expect(turn(runLoop) { viewModel.passwordMessage == "Password must be at least 8 characters" })
        #expect(!viewModel.isValid)
        viewModel.username = "ok"
        viewModel.password = "long enough"
        viewModel.passwordConfirmation = "long enough"
        #expect(turn(runLoop) { viewModel.passwordMessage.isEmpty })
        #expect(!viewModel.isValid)  // "ok" is too short
        viewModel.username = "okay"
        #expect(turn(runLoop) { viewModel.isValid })
    }
}
