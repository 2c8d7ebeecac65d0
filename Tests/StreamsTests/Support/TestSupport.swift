import Streams

/// A value type for errors in tests.
enum TestError: Error, Equatable {
    case boom
    case other(Int)
}

/// An object whose lifetime tests observe with a `weak` reference.
final class Token: @unchecked Sendable {}

/// A subscription that counts requests and cancels, for tests of operators' upstream handling.
final class SpySubscription: Subscription, @unchecked Sendable {
    private let state = Locked((requests: [Subscribers.Demand](), cancels: 0))
    var requests: [Subscribers.Demand] { state.withLock { $0.requests } }
    var cancelCount: Int { state.withLock { $0.cancels } }
    func request(_ demand: Subscribers.Demand) { state.withLock { $0.requests.append(demand) } }
    func cancel() { state.withLock { $0.cancels += 1 } }
}

/// Keeps the subscription it is given, requesting nothing.
final class SubscriptionHolder: Subscriber {
    typealias Input = Int
    typealias Failure = Never
    var subscription: (any Subscription)?
    func receive(subscription: any Subscription) { self.subscription = subscription }
    func receive(_ input: Int) -> Subscribers.Demand { .none }
    func receive(completion: Subscribers.Completion<Never>) {}
}
