import Streams

/// A hand-driven upstream for operator tests.
///
/// It keeps its subscriber (as a sloppy publisher might, so tests can check that an operator itself
/// drops its closures on cancel), records every demand requested and every cancel, and sends whatever
/// the test says — ignoring demand, so tests can check that an operator ignores events after its
/// completion or cancel.
final class SimpleProbe<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private(set) var subscriber: AnySubscriber<Output, Failure>?
    private(set) var subscriptionCount = 0
    fileprivate(set) var requests: [Subscribers.Demand] = []
    fileprivate(set) var cancelCount = 0

    init() {}

    /// The sum of every request.
    var requested: Subscribers.Demand { requests.reduce(.none, +) }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriptionCount += 1
        self.subscriber = AnySubscriber(subscriber)
        subscriber.receive(subscription: SimpleProbeSubscription(probe: self))
    }

    /// Sends `value` to the subscriber and returns the demand it gave back.
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand { subscriber?.receive(value) ?? .none }

    /// Sends the completion (the subscriber is kept: see the type's comment).
    func send(completion: Subscribers.Completion<Failure>) { subscriber?.receive(completion: completion) }
}

private final class SimpleProbeSubscription<Output, Failure: Error>: Subscription {
    weak var probe: SimpleProbe<Output, Failure>?
    init(probe: SimpleProbe<Output, Failure>) { self.probe = probe }
    func request(_ demand: Subscribers.Demand) { probe?.requests.append(demand) }
    func cancel() { probe?.cancelCount += 1 }
}

/// An object whose lifetime a test watches through a `weak` reference.
final class LifetimeToken {}

/// An error for operator tests.
enum ProbeError: Error, Equatable {
    case boom
    case other
}
