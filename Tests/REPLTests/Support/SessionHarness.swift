import Features
import Foundation
import Networking
import REPL
import Streams
import StreamsTesting

/// A ``Session`` on a `TestScheduler` over fake servers and a store in a fresh temporary directory.
final class SessionHarness {
    let scheduler = TestScheduler()
    let input = PassthroughSubject<InputLine, Never>()
    let directory: URL
    let store: FeatureStore
    /// The server behind the `local` source.
    let local: FakeServer
    /// The server behind every remote source.
    let remote: FakeServer
    let session: Session
    let recorder: TestRecorder<OutputLine, Never>
    let idle: TestRecorder<Bool, Never>
    private var taken = 0

    /// - Parameter latency: how long each answer takes (virtual time).
    /// While true, making a local client fails (as when the bundled data cannot be read).
    let localIsBroken = Locked(false)

    init(
        interactive: Bool = false, latency: Duration = .milliseconds(100), timeout: Duration = Session.defaultTimeout,
        bail: Bool = false
    ) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("repl-session-\(UUID().uuidString)", isDirectory: true)
        store = try FeatureStore(directory: directory)
        let local = try FakeServer()
        let remote = try FakeServer()
        let scheduler = self.scheduler
        let localIsBroken = self.localIsBroken
        self.local = local
        self.remote = remote
        let clients = ClientFactory(
            local: {
                if localIsBroken.withLock({ $0 }) { throw NetworkError.invalidURL("the bundled data is unreadable") }
                return local.client(latency: latency, scheduler: scheduler)
            },
            remote: { _ in remote.client(latency: latency, scheduler: scheduler) })
        session = try Session(
            input: input, store: store, scheduler: scheduler, source: .local, isInteractive: interactive,
            clients: clients, timeout: timeout, bail: bail)
        recorder = session.output.record(on: scheduler)
        idle = session.isIdle.record(on: scheduler)
        session.start()
        scheduler.advance()
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Sends `lines` at the current virtual time (they are received on the next advance).
    func type(_ lines: String...) {
        for line in lines { input.send(.text(line)) }
    }

    /// Runs everything pending (debounces, answers, retries), moving the virtual clock as needed.
    func settle() {
        scheduler.run()
    }

    /// Sends `lines`, settles, and returns the output since the last call.
    @discardableResult
    func run(_ lines: String...) -> [OutputLine] {
        for line in lines { input.send(.text(line)) }
        settle()
        return take()
    }

    /// The live lines last published (interactive), or `nil` when none was.
    var live: [String]? {
        recorder.values.reversed().lazy.compactMap { if case .live(let lines) = $0 { lines } else { nil } }.first
    }

    /// The output published since the last `take()`.
    func take() -> [OutputLine] {
        let values = recorder.values
        defer { taken = values.count }
        return Array(values.dropFirst(taken))
    }

    /// Every stdout line so far.
    var outputs: [String] {
        recorder.values.compactMap { if case .output(let text) = $0 { text } else { nil } }
    }

    /// Every stderr line so far.
    var errors: [String] {
        recorder.values.compactMap { if case .error(let text) = $0 { text } else { nil } }
    }

    /// When each stdout line was published.
    var outputTimes: [(String, Duration)] {
        recorder.events.compactMap { event in
            if case .value(.output(let text), let time) = event { (text, time) } else { nil }
        }
    }
}

extension [OutputLine] {
    /// The stdout lines.
    var outputs: [String] { compactMap { if case .output(let text) = $0 { text } else { nil } } }
    /// The stderr lines.
    var errors: [String] { compactMap { if case .error(let text) = $0 { text } else { nil } } }
}
