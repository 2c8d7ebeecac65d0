import Streams
import StreamsTesting
import Testing

/// The time-based operators and publishers not covered by the other leak checks, all on a `TestScheduler`
/// (virtual time), and the connectable publishers with an explicit `connect()`: `Publishers.Timer` and
/// `timerPublisher`, `collect(.byTime)`, `retry(maxRetries:backoff:scheduler:)`, `timeout` with a custom error,
/// `throttle(latest: false)`, `buffer`'s other strategies, `trace`, `multicast(subject:)`, `multicast(_:)` and
/// `makeConnectable()` connected by hand. Each is subscribed, fed, then cancelled (with any pending timer) or
/// completed, with its sources and the scheduler kept alive outside the checked body; afterwards nothing may be
/// left scheduled.
@Suite struct LeakChecksForTimeAndConnectable {
    enum Operator: String, CaseIterable, Sendable {
        case timerPublisher, timerInit, collectByTime, retryBackoff, timeoutCustomError, throttleFirst
        case bufferKeepFull, bufferDropNewest, bufferCustomError, trace, debounceThenDelay
        case multicastSubject, multicastFactory, makeConnectable, autoconnectOfMulticast
    }

    private static func connected<P: ConnectablePublisher>(
        _ publisher: P, _ connection: inout (any Cancellable)?
    ) -> AnyPublisher<String, any Error> where P.Failure == Never {
        connection = publisher.connect()
        return LeakCheckPipeline.erase(publisher)
    }

    @Test(arguments: Operator.allCases, LeakCheckEnding.allCases)
    func everyObjectIsFreed(_ op: Operator, _ ending: LeakCheckEnding) {
        let source = PassthroughSubject<Int, Never>()
        let failing = PassthroughSubject<Int, TestError>()
        let scheduler = TestScheduler()
        let log = TraceLog()
        expectNoLeaks { tracker in
            let token = tracker.token("\(op) closure")
            let mapped = source.map { token($0) }
            var connection: (any Cancellable)?
            // The timers never finish: completing them is taking a prefix.
            let timerEnd = ending == .cancel ? Int.max : 3
            let pipeline: AnyPublisher<String, any Error> =
                switch op {
                case .timerPublisher:
                    LeakCheckPipeline.erase(scheduler.timerPublisher(every: .seconds(1)).map { token($0) }.prefix(timerEnd))
                case .timerInit:
                    LeakCheckPipeline.erase(
                        Publishers.Timer(every: .seconds(1), tolerance: .milliseconds(1), scheduler: scheduler)
                            .map { token($0) }.prefix(timerEnd))
                case .collectByTime: LeakCheckPipeline.erase(mapped.collect(.byTime(scheduler, .milliseconds(1500))).map(\.count))
                case .retryBackoff:
                    LeakCheckPipeline.erase(
                        failing.map { token($0) }.retry(
                            maxRetries: 2, backoff: .exponential(initial: .seconds(5)), scheduler: scheduler,
                            shouldRetry: { token($0) == .boom }))
                case .timeoutCustomError:
                    LeakCheckPipeline.erase(failing.map { token($0) }.timeout(.seconds(5), scheduler: scheduler) { token(.other(1)) })
                case .throttleFirst:
                    LeakCheckPipeline.erase(mapped.throttle(for: .milliseconds(1500), scheduler: scheduler, latest: false))
                case .bufferKeepFull: LeakCheckPipeline.erase(mapped.buffer(size: 4, prefetch: .keepFull, whenFull: .dropNewest))
                case .bufferDropNewest: LeakCheckPipeline.erase(mapped.buffer(size: 1, prefetch: .byRequest, whenFull: .dropNewest))
                case .bufferCustomError:
                    LeakCheckPipeline.erase(failing.map { token($0) }.buffer(size: 4, prefetch: .keepFull, whenFull: .customError({ token(.boom) })))
                case .trace: LeakCheckPipeline.erase(mapped.trace("leak", to: log, scheduler: scheduler))
                case .debounceThenDelay:
                    LeakCheckPipeline.erase(
                        mapped.debounce(for: .milliseconds(200), scheduler: scheduler)
                            .delay(for: .milliseconds(300), scheduler: scheduler))
                case .multicastSubject:
                    Self.connected(mapped.multicast(subject: PassthroughSubject<Int, Never>()), &connection)
                case .multicastFactory:
                    Self.connected(mapped.multicast { token(PassthroughSubject<Int, Never>()) }, &connection)
                case .makeConnectable: Self.connected(mapped.makeConnectable(), &connection)
                case .autoconnectOfMulticast:
                    LeakCheckPipeline.erase(mapped.multicast(subject: ReplaySubject<Int, Never>(bufferSize: 1)).autoconnect())
                }
            let recorder = tracker.record(pipeline, on: scheduler)
            if let connection { tracker.watchIfObject(connection, as: "\(op) connection") }
            source.send(1)
            failing.send(1)
            scheduler.advance(by: .seconds(1))
            source.send(2)
            failing.send(2)
            if op == .retryBackoff { failing.send(completion: .failure(.boom)) }  // a back-off is pending
            scheduler.advance(by: .seconds(1))
            source.send(3)  // a timer (debounce, throttle, collect, delay) is pending
            if ending == .cancel {
                recorder.cancel()
                connection?.cancel()
            } else {
                source.send(completion: .finished)
                failing.send(completion: .finished)
                scheduler.advance(by: .seconds(30))
                #expect(recorder.completion != nil, "\(op) should have completed")
            }
            connection = nil
            scheduler.advance(by: .seconds(30))
            #expect(!recorder.values.isEmpty, "\(op) should have published")
        }
        #expect(scheduler.pendingCount == 0, "\(op): a timer is still scheduled")
        withExtendedLifetime((source, failing, scheduler, log)) {}
    }
}
