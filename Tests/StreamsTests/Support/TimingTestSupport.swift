import Streams
import StreamsTesting

/// The virtual instant `milliseconds` after the origin: `scheduler.advance(to: .ms(210))`.
extension SchedulerInstant {
    static func ms(_ milliseconds: Int) -> SchedulerInstant { .zero + .milliseconds(milliseconds) }
}

/// An error for timing-operator tests.
enum TimingTestError: Error, Equatable {
    case boom
    case timedOut
}

/// A hand-driven upstream for timing-operator tests: it records what its one subscriber does to the
/// subscription (how many subscribes, each request, each cancel) and sends whatever the test says,
/// ignoring demand, so the operator's own bookkeeping is what is tested.
final class TimingProbe<Output, Failure: Error>: Publisher, Subscription, @unchecked Sendable {
    private struct State {
        var subscriber: AnySubscriber<Output, Failure>?
        var subscribeCount = 0
        var requests: [Subscribers.Demand] = []
        var cancelCount = 0
    }

    private let state = Locked(State())

    /// How many times a subscriber attached.
    var subscribeCount: Int { state.withLock { $0.subscribeCount } }
    /// Every `request(_:)` received, in order.
    var requests: [Subscribers.Demand] { state.withLock { $0.requests } }
    /// How many times `cancel()` was called.
    var cancelCount: Int { state.withLock { $0.cancelCount } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        state.withLock {
            $0.subscriber = AnySubscriber(subscriber)
            $0.subscribeCount += 1
        }
        subscriber.receive(subscription: self)
    }

    /// Sends `value` to the subscriber; returns the demand it gave back.
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        state.withLock { $0.subscriber }?.receive(value) ?? .none
    }

    /// Sends the completion to the subscriber.
    func send(completion: Subscribers.Completion<Failure>) {
        state.withLock { $0.subscriber }?.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) { state.withLock { $0.requests.append(demand) } }

    func cancel() { state.withLock { $0.cancelCount += 1 } }
}
