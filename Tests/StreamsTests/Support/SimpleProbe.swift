import Streams

/// A hand-driven upstream for operator tests.
///
/// By default it keeps its subscriber after a cancel or a completion (as a sloppy publisher might, so tests
/// can check that an operator itself ignores events after its completion or cancel), records every demand
/// requested and every cancel, and sends whatever the test says, ignoring demand. With
/// `keepsSubscriber: false` it lets go of its subscriber on cancel and after sending a completion, as a
/// well-behaved publisher does: what tests of an operator's release use (a stage's closures live in the
/// subscriber its upstream holds, as in Combine).
final class SimpleProbe<Output, Failure: Error>: Publisher, @unchecked Sendable {
    fileprivate(set) var subscriber: AnySubscriber<Output, Failure>?
    private(set) var subscriptionCount = 0
    fileprivate(set) var requests: [Subscribers.Demand] = []
    fileprivate(set) var cancelCount = 0
    let keepsSubscriber: Bool

    init(keepsSubscriber: Bool = true) { self.keepsSubscriber = keepsSubscriber }

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

    /// Sends the completion (the subscriber is kept unless `keepsSubscriber` is `false`).
    func send(completion: Subscribers.Completion<Failure>) {
        subscriber?.receive(completion: completion)
        if !keepsSubscriber { subscriber = nil }
    }
}

private final class SimpleProbeSubscription<Output, Failure: Error>: Subscription {
    weak var probe: SimpleProbe<Output, Failure>?
    init(probe: SimpleProbe<Output, Failure>) { self.probe = probe }
    func request(_ demand: Subscribers.Demand) { probe?.requests.append(demand) }
    func cancel() {
        guard let probe else { return }
        probe.cancelCount += 1
        if !probe.keepsSubscriber { probe.subscriber = nil }
    }
}

/// An object whose lifetime a test watches through a `weak` reference.
final class LifetimeToken {}

/// An error for operator tests.
enum ProbeError: Error, Equatable {
    case boom
    case other
}
