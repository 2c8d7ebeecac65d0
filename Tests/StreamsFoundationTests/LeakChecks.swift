import Dispatch
import Foundation
import LoopbackHTTPServer
import Streams
import StreamsFoundation
import StreamsTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a leak check ends its subscription.
enum FoundationLeakCheckEnding: CaseIterable, Sendable, CustomStringConvertible {
    /// The subscriber cancels while the upstream is still alive.
    case cancel
    /// The upstream completes (finishes or fails).
    case complete

    var description: String { self == .cancel ? "cancel" : "complete" }
}

/// The Foundation bridge's publishers and operators, subscribed then cancelled or completed: the subscriber, the
/// subscription it received and the closures' tokens must all be freed. Real time only where the bridge is real
/// time (a run loop, a timer, a URL session, an operation queue): each wait polls a condition, bounded.
@Suite struct StreamsFoundationLeakChecks {
    struct User: Codable, Equatable {
        let id: Int
    }

    /// Turns `runLoop` until `condition` holds, for two seconds at most; returns whether it holds.
    private static func spin(_ runLoop: RunLoop = .current, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(2)
        while !condition() && Date() < deadline { _ = runLoop.run(mode: .default, before: Date().addingTimeInterval(0.005)) }
        return condition()
    }

    /// Waits on the current thread until `condition` holds, for ten seconds at most; returns whether it holds.
    private static func poll(until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !condition() && Date() < deadline { usleep(2_000) }
        return condition()
    }

    @Test(arguments: FoundationLeakCheckEnding.allCases) func notificationCenterPublisher(_ ending: FoundationLeakCheckEnding) {
        let center = NotificationCenter()
        let name = Notification.Name("StreamsFoundationLeakChecks.ping")
        expectNoLeaks { tracker in
            let token = tracker.token("map")
            // A notification publisher never completes: completing it is taking a prefix.
            let recorder = tracker.record(
                center.publisher(for: name).map { token($0.name) }.prefix(ending == .cancel ? Int.max : 2))
            center.post(name: name, object: nil)
            if ending == .cancel { recorder.cancel() } else { center.post(name: name, object: nil) }
            #expect(ending == .cancel ? recorder.values.count == 1 : recorder.isFinished)
        }
        center.post(name: name, object: nil)  // the center must hold no observer for the ended subscription
        withExtendedLifetime(center) {}
    }

    @Test(arguments: FoundationLeakCheckEnding.allCases) func timerPublish(_ ending: FoundationLeakCheckEnding) {
        let runLoop = RunLoop.current
        expectNoLeaks { tracker in
            let token = tracker.token("map")
            let timer = tracker.watch(Timer.publish(every: 0.01, on: runLoop, in: .default), as: "TimerPublisher")
            let recorder = tracker.record(timer.map { token($0) }.prefix(ending == .cancel ? Int.max : 2))
            let connection = timer.connect()
            tracker.watchIfObject(connection, as: "timer connection")
            #expect(Self.spin(runLoop) { recorder.values.count >= (ending == .cancel ? 1 : 2) })
            recorder.cancel()
            connection.cancel()
        }
    }

    @Test(arguments: FoundationLeakCheckEnding.allCases) func timerPublishAutoconnect(_ ending: FoundationLeakCheckEnding) {
        let runLoop = RunLoop.current
        expectNoLeaks { tracker in
            let token = tracker.token("map")
            let recorder = tracker.record(
                Timer.publish(every: 0.01, on: runLoop, in: .default).autoconnect().map { token($0) }
                    .prefix(ending == .cancel ? Int.max : 2))
            #expect(Self.spin(runLoop) { recorder.values.count >= (ending == .cancel ? 1 : 2) })
            if ending == .cancel { recorder.cancel() } else { #expect(recorder.isFinished) }
        }
    }

    @Test(arguments: FoundationLeakCheckEnding.allCases) func coders(_ ending: FoundationLeakCheckEnding) {
        let source = PassthroughSubject<User, Never>()
        expectNoLeaks { tracker in
            let token = tracker.token("map")
            let recorder = tracker.record(
                source.map { token($0) }.encode(encoder: JSONEncoder()).decode(type: User.self, decoder: JSONDecoder()))
            source.send(User(id: 1))
            if ending == .cancel { recorder.cancel() } else { source.send(completion: .finished) }
            #expect(recorder.values == [User(id: 1)])
        }
        withExtendedLifetime(source) {}
    }

    @Test func aDecodingFailureFreesEverything() {
        let source = PassthroughSubject<Data, Never>()
        expectNoLeaks { tracker in
            let token = tracker.token("map")
            let recorder = tracker.record(
                source.map { token($0) }.decode(type: User.self, decoder: PropertyListDecoder()))
            source.send(Data("not a plist".utf8))
            #expect(recorder.failure != nil)
        }
        withExtendedLifetime(source) {}
    }

    @Test(arguments: FoundationLeakCheckEnding.allCases) func dataTaskPublisher(_ ending: FoundationLeakCheckEnding) throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/hello") { _ in .text("hi") }
        let session = URLSession(configuration: .ephemeral)
        let tracker = LeakTracker()
        do {
            let token = tracker.token("map")
            let recorder = tracker.record(
                session.dataTaskPublisher(for: URLRequest(url: server.baseURL.appendingPathComponent("hello")))
                    .map { token(String(decoding: $0.data, as: UTF8.self)) },
                demand: .none)
            if ending == .cancel {
                recorder.cancel()  // before any demand: no task was started
            } else {
                recorder.request(.max(1))
                #expect(Self.poll { recorder.isFinished || recorder.failure != nil })
                #expect(recorder.values == ["hi"])
            }
        }
        // URLSession lets go of a finished task's completion handler on its own queue: wait for it, bounded.
        #expect(Self.poll { tracker.survivors.isEmpty }, "still alive: \(tracker.survivors)")
        #expect(server.requestCount("/hello") == (ending == .cancel ? 0 : 1))
        session.invalidateAndCancel()
    }

    /// A data task cancelled while it is running (the server holds the request until the client goes), and one
    /// that fails fast (refused).
    ///
    /// The cancel waits until the server has the request. swift-corelibs-foundation crashes the process
    /// ("Trying to access a behaviour for a task that in not in the registry", `URLSession.behaviour(for:)`) when
    /// `URLSessionTask.cancel()` races with the task's own completion. This test once cancelled a task whose
    /// unrouted request was answered at once with a 404, and hit that crash in CI.
    @Test(arguments: FoundationLeakCheckEnding.allCases) func aRunningOrFailingDataTask(_ ending: FoundationLeakCheckEnding) throws {
        let server = try LoopbackHTTPServer()
        server.route("GET", "/slow") { request in
            _ = request.waitUntilDisconnected(timeout: .seconds(10))
            return .text("too late", status: 200)
        }
        // Completing: a port that refuses, so the task fails at once.
        let refusing = ending == .complete ? try RefusingPort() : nil
        let url = (refusing?.baseURL ?? server.baseURL).appendingPathComponent("slow")
        defer {
            server.stop()
            withExtendedLifetime(refusing) {}
        }
        let session = URLSession(configuration: .ephemeral)
        let tracker = LeakTracker()
        do {
            let token = tracker.token("map")
            let recorder = tracker.record(session.dataTaskPublisher(for: url).map { token($0.data) })
            if ending == .cancel {
                #expect(Self.poll { server.requestCount("/slow") == 1 })  // running: the server holds it
                recorder.cancel()
            } else {
                #expect(Self.poll { recorder.failure != nil })
            }
        }
        // URLSession lets go of a cancelled task's delegate on its own queue: wait for it, bounded.
        #expect(Self.poll { tracker.survivors.isEmpty }, "still alive: \(tracker.survivors)")
        session.invalidateAndCancel()
    }

    /// `RunLoopScheduler.schedule(after:)`: the action (and what it captures) is released once it has run, or once
    /// it is cancelled, whether or not the returned cancellable is kept.
    ///
    /// A leak this check found: swift-corelibs-foundation's block-based `Timer` never releases its block (not after
    /// firing, not after `invalidate()`, not even unscheduled), and `RunLoopScheduler.schedule(after:)` put the
    /// action straight into that block. The block now holds a `TimerAction` box, emptied on run and on cancel.
    @Test(arguments: FoundationLeakCheckEnding.allCases) func runLoopSchedulerReleasesItsActions(
        _ ending: FoundationLeakCheckEnding
    ) {
        let runLoop = RunLoop.current
        let scheduler = RunLoopScheduler(runLoop)
        let tracker = LeakTracker()
        let ran = Locked(false)
        var kept: (any Cancellable)?
        do {
            let token = tracker.token("scheduled action")
            let handle = scheduler.schedule(after: scheduler.now + .milliseconds(1)) {
                token()
                ran.withLock { $0 = true }
            }
            if ending == .cancel {
                handle.cancel()
            } else {
                kept = handle
                #expect(Self.spin(runLoop) { ran.withLock { $0 } })
            }
        }
        #expect(Self.spin(runLoop) { tracker.survivors.isEmpty }, "still alive: \(tracker.survivors)")
        kept = nil
        #expect(Self.spin(runLoop) { tracker.survivors.isEmpty }, "still alive once the handle is released: \(tracker.survivors)")
        _ = kept
    }

    enum RunLoopOperator: String, CaseIterable, Sendable { case receiveOn, subscribeOn, delay, debounce, throttle, timeout }

    /// The `RunLoop` forms of the scheduling operators, on the current thread's run loop.
    ///
    /// Debounce's timer action holds its subscription strongly, so it leaked with `RunLoopScheduler`'s timer
    /// block (see above) until the block held only an emptied box.
    @Test(arguments: RunLoopOperator.allCases, FoundationLeakCheckEnding.allCases)
    func runLoopSchedulerOperators(_ op: RunLoopOperator, _ ending: FoundationLeakCheckEnding) {
        let runLoop = RunLoop.current
        let source = PassthroughSubject<Int, Never>()
        let tracker = LeakTracker()
        do {
            let token = tracker.token("map")
            let mapped = source.map { token($0) }
            let pipeline: AnyPublisher<Int, Never> =
                switch op {
                case .receiveOn: mapped.receive(on: runLoop).eraseToAnyPublisher()
                case .subscribeOn: mapped.subscribe(on: runLoop).eraseToAnyPublisher()
                case .delay: mapped.delay(for: .milliseconds(1), scheduler: runLoop).eraseToAnyPublisher()
                case .debounce: mapped.debounce(for: .milliseconds(1), scheduler: runLoop).eraseToAnyPublisher()
                case .throttle: mapped.throttle(for: .milliseconds(1), scheduler: runLoop, latest: true).eraseToAnyPublisher()
                case .timeout: mapped.timeout(.seconds(30), scheduler: runLoop).eraseToAnyPublisher()
                }
            let recorder = tracker.record(pipeline)
            #expect(Self.spin(runLoop) { recorder.subscriptionCount == 1 })
            source.send(1)
            #expect(Self.spin(runLoop) { recorder.values == [1] })
            if ending == .cancel {
                recorder.cancel()
            } else {
                source.send(completion: .finished)
                #expect(Self.spin(runLoop) { recorder.isFinished })
            }
        }
        #expect(Self.spin(runLoop) { tracker.survivors.isEmpty }, "still alive: \(tracker.survivors)")
        withExtendedLifetime(source) {}
    }

    @Test(arguments: FoundationLeakCheckEnding.allCases) func operationQueueScheduler(_ ending: FoundationLeakCheckEnding) {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let source = PassthroughSubject<Int, Never>()
        let tracker = LeakTracker()
        do {
            let token = tracker.token("map")
            let recorder = tracker.record(
                source.map { token($0) }.delay(for: .milliseconds(1), scheduler: queue).receive(on: queue))
            source.send(1)
            #expect(Self.poll { recorder.values == [1] })
            if ending == .cancel {
                recorder.cancel()
            } else {
                source.send(completion: .finished)
                #expect(Self.poll { recorder.isFinished })
            }
        }
        queue.waitUntilAllOperationsAreFinished()
        #expect(Self.poll { tracker.survivors.isEmpty }, "still alive: \(tracker.survivors)")
        withExtendedLifetime(source) {}
    }
}
