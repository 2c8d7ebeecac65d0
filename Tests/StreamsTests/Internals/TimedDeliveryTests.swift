import Dispatch
import StreamsTesting
import Testing

@testable import Streams

/// `TimedDelivery` with `TimingEventQueue` (Sources/Streams/Internals/TimedDelivery.swift), delivery on a scheduler,
/// checked through the operators built on it: `delay`, `receive(on:)` and (for its values) `timeout`. Every event gets
/// its own scheduled action, and the k-th action to run delivers the k-th event, so a scheduler that runs actions out
/// of order (a concurrent queue, say) never reorders the stream; one thread delivers at a time; after a cancel, the
/// actions still pending deliver nothing.
@Suite struct TimedDeliveryTests {
    enum Timed: String, CaseIterable, CustomTestStringConvertible {
        case delay, receiveOn, timeout
        var testDescription: String { rawValue }

        func pipeline(
            _ input: PassthroughSubject<Int, Never>, on scheduler: some Scheduler, delay: Duration = .seconds(1)
        ) -> AnyPublisher<Int, Never> {
            switch self {
            case .delay: input.delay(for: delay, scheduler: scheduler).eraseToAnyPublisher()
            case .receiveOn: input.receive(on: scheduler).eraseToAnyPublisher()
            case .timeout: input.timeout(.seconds(60), scheduler: scheduler).eraseToAnyPublisher()
            }
        }
    }

    /// (`timeout` is left out here: this scheduler runs its timer as soon as any other action.)
    @Test(arguments: [Timed.delay, .receiveOn])
    func actionsRunLastFirstStillDeliverEveryEventInOrderOnePerAction(timed: Timed) {
        let scheduler = LastFirstScheduler()
        let input = PassthroughSubject<Int, Never>()
        let received = Locked<[String]>([])
        let subscription = timed.pipeline(input, on: scheduler).sink(
            receiveCompletion: { _ in received.withLock { $0.append("finished") } },
            receiveValue: { value in received.withLock { $0.append("\(value)") } }
        )
        for value in 1...3 { input.send(value) }
        input.send(completion: .finished)
        #expect(scheduler.heldCount == 4)
        scheduler.runLast()
        #expect(received.withLock { $0 } == ["1"])  // the first action to run delivers the first event
        while scheduler.runLast() {}
        #expect(received.withLock { $0 } == ["1", "2", "3", "finished"])
        subscription.cancel()
    }

    @Test(arguments: Timed.allCases)
    func actionsStillPendingAtACancelDeliverNothing(timed: Timed) {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        let recorder = timed.pipeline(input, on: scheduler).record(on: scheduler)
        input.send(1)
        input.send(2)
        recorder.cancel()
        scheduler.advance(by: .seconds(120))
        #expect(recorder.values.isEmpty)
        #expect(recorder.completion == nil)
        #expect(scheduler.pendingCount == 0)
    }

    /// On a concurrent queue the actions run on many threads at once: the deliveries still come one at a time, in the
    /// order sent (a bounded wait for the last one).
    @Test(arguments: Timed.allCases)
    func onAConcurrentQueueDeliveriesNeverOverlapAndKeepTheirOrder(timed: Timed) {
        let queue = DispatchQueue(label: "timed-delivery", attributes: .concurrent)
        let input = PassthroughSubject<Int, Never>()
        let state = Locked((inside: 0, overlaps: 0, values: [Int]()))
        let done = DispatchSemaphore(value: 0)
        let count = 2_000
        let subscription = timed.pipeline(input, on: queue, delay: .milliseconds(1)).sink(
            receiveCompletion: { _ in done.signal() },
            receiveValue: { value in
                state.withLock {
                    $0.inside += 1
                    if $0.inside > 1 { $0.overlaps += 1 }
                }
                state.withLock {
                    $0.values.append(value)
                    $0.inside -= 1
                }
            })
        for value in 0..<count { input.send(value) }
        input.send(completion: .finished)
        #expect(done.wait(timeout: .now() + .seconds(30)) == .success)
        state.withLock { state in
            #expect(state.overlaps == 0)
            #expect(state.values == Array(0..<count))
        }
        subscription.cancel()
    }
}
