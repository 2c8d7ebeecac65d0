/// The side of `drop(untilOutputFrom:)` and `prefix(untilOutputFrom:)` that watches the other publisher (the
/// trigger): its subscription, its first value, its completion.
@usableFromInline
protocol TriggerReceiver: AnyObject {
    /// The trigger's failure type.
    associatedtype TriggerFailure: Error
    /// The trigger's subscription arrived.
    func triggerReceive(subscription: any Subscription)
    /// The trigger published a value.
    func triggerFired()
    /// The trigger completed.
    func triggerReceive(completion: Subscribers.Completion<TriggerFailure>)
}

/// The subscriber attached to the trigger publisher: forwards its events to the operator's inner object.
@usableFromInline
struct TriggerSubscriber<Input, Receiver: TriggerReceiver>: Subscriber, CustomStringConvertible {
    @usableFromInline
    typealias Failure = Receiver.TriggerFailure

    /// Weak: the trigger publisher may outlive the operator (a trigger that fired is released, not cancelled,
    /// as in Combine, and a subject keeps its subscribers), and must not keep it alive. The operator is held
    /// by its upstream and its downstream while it matters.
    @usableFromInline
    weak var receiver: Receiver?
    @usableFromInline
    let description: String

    @inlinable
    init(receiver: Receiver, name: String) {
        self.receiver = receiver
        self.description = name
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard let receiver else { return subscription.cancel() }
        receiver.triggerReceive(subscription: subscription)
    }
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        receiver?.triggerFired()
        return .none
    }
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { receiver?.triggerReceive(completion: completion) }
}

/// Where the trigger's subscription stands, kept under its operator's lock.
@usableFromInline
enum TriggerLink {
    /// Not subscribed yet.
    case waiting
    /// Subscribed, asked for one value, none yet.
    case subscribed(any Subscription)
    /// Fired, completed, or no longer wanted: a subscription arriving now is cancelled.
    case done

    /// Takes the trigger's subscription if none arrived yet and the operator still has a subscriber (`isWanted`);
    /// called under the operator's lock. On `false` the caller cancels the subscription, outside the lock.
    @inlinable
    mutating func accept(_ subscription: any Subscription, isWanted: Bool) -> Bool {
        guard case .waiting = self, isWanted else { return false }
        self = .subscribed(subscription)
        return true
    }

    /// Ends the link, returning the subscription if it was live (for the caller to cancel or drop outside the
    /// lock).
    @inlinable
    mutating func end() -> (any Subscription)? {
        defer { self = .done }
        if case .subscribed(let subscription) = self { return subscription }
        return nil
    }

    /// Whether the subscription is live (subscribed and not fired).
    @inlinable
    var isLive: Bool {
        if case .subscribed = self { return true }
        return false
    }
}
