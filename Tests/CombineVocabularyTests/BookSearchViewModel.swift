// A search view model written as Combine apps write it (only `import Combine` became `import Streams`):
// `$query.debounce.removeDuplicates.filter.map { service.search($0) }.switchToLatest()`, `handleEvents` for a
// loading flag, `sink(receiveCompletion:receiveValue:)` stored with `.store(in:)`, `[weak self]` captures, a
// submit button through `flatMap(maxPublishers: .max(1))`, and the scheduler injected generically, so the
// app runs it on `DispatchQueue.main` and the tests also on `TestScheduler` (virtual time).
import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

struct Book: Codable, Equatable, Identifiable {
    let id: String
    let title: String
}

struct BookSearchFailure: Error, Equatable {
    let message: String
}

protocol BookSearching {
    func search(_ query: String) -> AnyPublisher<[Book], Error>
}

final class BookSearchViewModel<S: Scheduler>: ObservableObject {
    @Published var query = ""
    @Published private(set) var books: [Book] = []
    @Published private(set) var isLoading = false
    @Published private(set) var errorMessage: String?
    @Published private(set) var submittedResults: [[Book]] = []

    let submit = PassthroughSubject<String, Never>()

    private let service: BookSearching
    private var cancellables = Set<AnyCancellable>()

    init(service: BookSearching, scheduler: S, debounceInterval: S.SchedulerTimeType.Stride = .milliseconds(300)) {
        self.service = service

        $query
            .debounce(for: debounceInterval, scheduler: scheduler)
            .removeDuplicates()
            .filter { !$0.isEmpty }
            .map { [weak self] query -> AnyPublisher<[Book], Never> in
                guard let self = self else { return Empty().eraseToAnyPublisher() }
                return self.service.search(query)
                    .handleEvents(
                        receiveSubscription: { [weak self] _ in
                            self?.errorMessage = nil
                            self?.isLoading = true
                        },
                        receiveCompletion: { [weak self] _ in self?.isLoading = false },
                        receiveCancel: { [weak self] in self?.isLoading = false }
                    )
                    .catch { [weak self] error -> Just<[Book]> in
                        self?.errorMessage = (error as? BookSearchFailure)?.message ?? "\(error)"
                        return Just([])
                    }
                    .eraseToAnyPublisher()
            }
            .switchToLatest()
            .receive(on: scheduler)
            .sink(
                receiveCompletion: { completion in
                    if case .failure = completion { assertionFailure("a Never-failing pipeline failed") }
                },
                receiveValue: { [weak self] books in self?.books = books }
            )
            .store(in: &cancellables)

        // The search button: one search at a time; taps while one runs are dropped.
        submit
            .flatMap(maxPublishers: .max(1)) { [service] query in
                service.search(query).replaceError(with: [])
            }
            .receive(on: scheduler)
            .sink { [weak self] books in self?.submittedResults.append(books) }
            .store(in: &cancellables)
    }
}

extension BookSearchViewModel where S == DispatchQueue {
    convenience init(service: BookSearching) {
        self.init(service: service, scheduler: DispatchQueue.main)
    }
}

/// A service whose answers the test sends when it likes.
final class ControlledBookService: BookSearching {
    private(set) var queries: [String] = []
    private(set) var cancelledQueries: [String] = []
    private var pending: [String: PassthroughSubject<[Book], Error>] = [:]

    func search(_ query: String) -> AnyPublisher<[Book], Error> {
        let subject = PassthroughSubject<[Book], Error>()
        pending[query] = subject
        return subject
            .handleEvents(
                receiveSubscription: { [weak self] _ in self?.queries.append(query) },
                receiveCancel: { [weak self] in self?.cancelledQueries.append(query) }
            )
            .eraseToAnyPublisher()
    }

    func answer(_ query: String, with books: [Book]) {
        pending[query]?.send(books)
        pending[query]?.send(completion: .finished)
    }

    func fail(_ query: String, _ message: String) {
        pending[query]?.send(completion: .failure(BookSearchFailure(message: message)))
    }
}

@Suite struct BookSearchViewModelTests {
    static let swiftBook = Book(id: "1", title: "The Swift Programming Language")
    static let combineBook = Book(id: "2", title: "Practical Combine")

    @Test func typingIsDebouncedAndOnlyTheLatestSearchIsKept() {
        let scheduler = TestScheduler()
        let service = ControlledBookService()
        let viewModel = BookSearchViewModel(service: service, scheduler: scheduler)
        var changes = 0
        let watch = viewModel.objectWillChange.sink { changes += 1 }

        viewModel.query = "s"
        scheduler.advance(by: .milliseconds(100))
        viewModel.query = "sw"
        scheduler.advance(by: .milliseconds(299))
        #expect(service.queries.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(service.queries == ["sw"])
        #expect(viewModel.isLoading)

        viewModel.query = "swift"
        scheduler.advance(by: .milliseconds(300))
        #expect(service.queries == ["sw", "swift"])
        #expect(service.cancelledQueries == ["sw"])  // switchToLatest cancels the stale search
        service.answer("sw", with: [Self.combineBook])  // too late: nobody listens
        service.answer("swift", with: [Self.swiftBook])
        #expect(viewModel.books.isEmpty)  // receive(on:) hops through the scheduler
        scheduler.advance(by: .zero)
        #expect(viewModel.books == [Self.swiftBook])
        #expect(!viewModel.isLoading)
        #expect(changes > 0)
        _ = watch
    }

    @Test func emptyAndRepeatedQueriesAreNotSearchedAndFailuresShowAMessage() {
        let scheduler = TestScheduler()
        let service = ControlledBookService()
        let viewModel = BookSearchViewModel(service: service, scheduler: scheduler, debounceInterval: 0.5)
        viewModel.query = "combine"
        scheduler.advance(by: 0.5)
        service.fail("combine", "offline")
        scheduler.advance(by: .zero)
        #expect(viewModel.errorMessage == "offline")
        #expect(viewModel.books.isEmpty)
        #expect(!viewModel.isLoading)

        viewModel.query = "combine"  // the same text again: removeDuplicates drops it
        scheduler.advance(by: 1)
        #expect(service.queries == ["combine"])
        viewModel.query = ""  // filtered out
        scheduler.advance(by: 1)
        #expect(service.queries == ["combine"])
        viewModel.query = "combine"  // not a duplicate any more: "" came between
        scheduler.advance(by: 1)
        #expect(service.queries == ["combine", "combine"])
        #expect(viewModel.errorMessage == nil)  // a new search clears the message
        #expect(viewModel.isLoading)
    }

    @Test func theSubmitButtonRunsOneSearchAtATime() {
        let scheduler = TestScheduler()
        let service = ControlledBookService()
        let viewModel = BookSearchViewModel(service: service, scheduler: scheduler)
        viewModel.submit.send("a")
        viewModel.submit.send("b")  // no demand while "a" runs: dropped, as Combine's subject drops it
        #expect(service.queries == ["a"])
        service.answer("a", with: [Self.swiftBook])
        viewModel.submit.send("c")
        service.answer("c", with: [Self.combineBook])
        scheduler.advance(by: .zero)
        #expect(service.queries == ["a", "c"])
        #expect(viewModel.submittedResults == [[Self.swiftBook], [Self.combineBook]])
    }

    @MainActor @Test func onTheMainQueueAsTheAppRunsIt() async {
        let service = ControlledBookService()
        let viewModel = BookSearchViewModel(service: service)
        viewModel.query = "swi"
        viewModel.query = "swift"
        #expect(await waitOnMainQueue { service.queries == ["swift"] })
        #expect(viewModel.isLoading)
        service.answer("swift", with: [Self.swiftBook])
        #expect(await waitOnMainQueue { viewModel.books == [Self.swiftBook] })
        #expect(!viewModel.isLoading)
    }
}
