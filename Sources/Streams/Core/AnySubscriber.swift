/// A subscriber with its concrete type erased, built from three closures, or wrapping a subject.
///
/// Forwards every event to the wrapped subscriber (or closure, or subject) unchanged, on the caller's thread.
/// As in Combine, an erased subscriber has the wrapped one's ``combineIdentifier`` and description; one built
/// from closures keeps one identity and reads "Anonymous AnySubscriber"; one wrapping a subject reads "Subject".
///
/// ```swift
/// let printer = AnySubscriber<Int, Never>(
///     receiveSubscription: { $0.request(.unlimited) },
///     receiveValue: { print($0); return .none },
///     receiveCompletion: { print($0) })
/// ```
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    /// The wrapped subscriber, closures or subject: one object, whatever the wrapped subscriber's size.
    @usableFromInline
    let box: AnySubscriberBox<Input, Failure>
    /// The value path, formed where the wrapped subscriber's type is known, so it runs specialised code (a
    /// call through `box` would run the box's generic code: several times slower per value).
    @usableFromInline
    let receiveValueBody: (Input) -> Subscribers.Demand

    /// The wrapped subscriber's identity (a new one for closures or a subject), fixed when erasing.
    public let combineIdentifier: CombineIdentifier

    /// Wraps `subscriber`; erasing an `AnySubscriber` again returns it as it is.
    @inlinable
    public init<S: Subscriber>(_ subscriber: S) where S.Input == Input, S.Failure == Failure {
        if let erased = subscriber as? AnySubscriber<Input, Failure> {
            self = erased
            return
        }
        combineIdentifier = subscriber.combineIdentifier
        let box = WrappedSubscriberBox(subscriber)
        self.box = box
        receiveValueBody = { box.wrapped.receive($0) }
    }

    /// Wraps `subject`: a subscription is handed to it with `send(subscription:)`, each value with `send(_:)`
    /// (asking for no more: the subject's subscribers' demand reaches upstream through the subscription), the
    /// completion with `send(completion:)`.
    public init<S: Subject>(_ subject: S) where S.Output == Input, S.Failure == Failure {
        combineIdentifier = CombineIdentifier()
        box = ClosureSubscriberBox(
            receiveSubscription: { subject.send(subscription: $0) },
            receiveCompletion: { subject.send(completion: $0) }, description: "Subject")
        receiveValueBody = {
            subject.send($0)
            return .none
        }
    }

    /// Builds a subscriber from closures; a missing closure ignores its event (and a missing
    /// `receiveValue` asks for no more values).
    public init(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveValue: ((Input) -> Subscribers.Demand)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        combineIdentifier = CombineIdentifier()
        box = ClosureSubscriberBox(
            receiveSubscription: receiveSubscription, receiveCompletion: receiveCompletion,
            description: "Anonymous AnySubscriber")
        receiveValueBody = receiveValue ?? { _ in .none }
    }

    /// Forwards the subscription.
    @inlinable
    public func receive(subscription: any Subscription) { box.receive(subscription: subscription) }
    /// Forwards a value and returns the wrapped subscriber's extra demand.
    @inlinable
    public func receive(_ input: Input) -> Subscribers.Demand { receiveValueBody(input) }
    /// Forwards the completion.
    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) { box.receive(completion: completion) }

    /// The wrapped subscriber's description (its type's name when it has none), "Anonymous AnySubscriber"
    /// or "Subject".
    public var description: String { box.description }
    /// The wrapped subscriber's mirror (an empty one for closures).
    public var customMirror: Mirror { box.mirror }
    /// The description.
    public var playgroundDescription: Any { description }
}

/// What an ``AnySubscriber`` calls for a subscription or a completion (values go through its closure): a subclass
/// per kind of wrapped thing. A class, so that erasing a subscriber costs one object, not a closure context per
/// event holding a copy of it. Sendable because it is immutable (an invariant of every subclass: `let`s only);
/// what it wraps is as safe to call from any thread as it is itself, as with the closures it replaced.
@usableFromInline
class AnySubscriberBox<Input, Failure: Error>: @unchecked Sendable {
    @inlinable
    init() {}

    @inlinable
    func receive(subscription: any Subscription) {}
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {}

    var description: String { "AnySubscriber" }
    var mirror: Mirror { Mirror(self, children: [:]) }
}

/// Wraps a subscriber. Immutable; the wrapped subscriber is as safe to call from any thread as it is itself.
@usableFromInline
final class WrappedSubscriberBox<Wrapped: Subscriber>: AnySubscriberBox<Wrapped.Input, Wrapped.Failure>,
    @unchecked Sendable
{
    @usableFromInline
    let wrapped: Wrapped

    @inlinable
    init(_ wrapped: Wrapped) {
        self.wrapped = wrapped
        super.init()
    }

    @inlinable
    override func receive(subscription: any Subscription) { wrapped.receive(subscription: subscription) }
    @inlinable
    override func receive(completion: Subscribers.Completion<Wrapped.Failure>) {
        wrapped.receive(completion: completion)
    }

    override var description: String {
        (wrapped as? any CustomStringConvertible)?.description ?? String(describing: Wrapped.self)
    }
    override var mirror: Mirror { Mirror(reflecting: wrapped) }
}

/// Calls closures. Immutable.
@usableFromInline
final class ClosureSubscriberBox<Input, Failure: Error>: AnySubscriberBox<Input, Failure>, @unchecked Sendable {
    let receiveSubscriptionBody: ((any Subscription) -> Void)?
    let receiveCompletionBody: ((Subscribers.Completion<Failure>) -> Void)?
    let name: String

    init(
        receiveSubscription: ((any Subscription) -> Void)?,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?, description: String
    ) {
        receiveSubscriptionBody = receiveSubscription
        receiveCompletionBody = receiveCompletion
        name = description
        super.init()
    }

    override func receive(subscription: any Subscription) { receiveSubscriptionBody?(subscription) }
    override func receive(completion: Subscribers.Completion<Failure>) { receiveCompletionBody?(completion) }

    override var description: String { name }
}
