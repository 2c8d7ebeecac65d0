/// A subscriber with its concrete type erased, or built from three closures.
///
/// Forwards every event to the wrapped subscriber (or closure) unchanged, on the caller's thread.
///
/// ```swift
/// let printer = AnySubscriber<Int, Never>(
///     receiveSubscription: { $0.request(.unlimited) },
///     receiveValue: { print($0); return .none },
///     receiveCompletion: { print($0) })
/// ```
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible {
    @usableFromInline
    let receiveSubscriptionBody: ((any Subscription) -> Void)?
    @usableFromInline
    let receiveValueBody: ((Input) -> Subscribers.Demand)?
    @usableFromInline
    let receiveCompletionBody: ((Subscribers.Completion<Failure>) -> Void)?
    /// The type of the wrapped subscriber (`nil` when built from closures); named lazily by `description`.
    @usableFromInline
    let wrappedType: Any.Type?

    /// What this subscriber wraps, for debugging.
    public var description: String { wrappedType.map { String(describing: $0) } ?? "AnySubscriber" }

    /// Wraps `subscriber`.
    @inlinable
    public init<S: Subscriber>(_ subscriber: S) where S.Input == Input, S.Failure == Failure {
        if let erased = subscriber as? AnySubscriber<Input, Failure> {
            self = erased
            return
        }
        receiveSubscriptionBody = subscriber.receive(subscription:)
        receiveValueBody = subscriber.receive(_:)
        receiveCompletionBody = subscriber.receive(completion:)
        wrappedType = S.self
    }

    /// Builds a subscriber from closures; a missing closure ignores its event (and a missing
    /// `receiveValue` asks for no more values).
    public init(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveValue: ((Input) -> Subscribers.Demand)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        receiveSubscriptionBody = receiveSubscription
        receiveValueBody = receiveValue
        receiveCompletionBody = receiveCompletion
        wrappedType = nil
    }

    /// Forwards the subscription.
    @inlinable
    public func receive(subscription: any Subscription) { receiveSubscriptionBody?(subscription) }
    /// Forwards a value and returns the wrapped subscriber's extra demand.
    @inlinable
    public func receive(_ input: Input) -> Subscribers.Demand { receiveValueBody?(input) ?? .none }
    /// Forwards the completion.
    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) { receiveCompletionBody?(completion) }
}
