/// A subject that broadcasts values to its current subscribers, with no initial value.
///
/// - Demand: a subscriber without demand at the moment of `send` does not get that value (it is
///   dropped for that subscriber, as in Combine).
/// - Ordering: subscribers are served in subscription order. A late subscriber sees only later values;
///   subscribing after completion delivers the completion at once.
/// - Threading: `send` is safe from any thread; each subscriber receives serially (see ``Subject``). Its one
///   stored property is an immutable reference to the engine, which guards its state with a lock and atomics.
///
/// ```swift
/// let subject = PassthroughSubject<String, Never>()
/// let c = subject.sink { print($0) }
/// subject.send("hello")
/// ```
public final class PassthroughSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    @usableFromInline
    let core = SubjectCore<Output, Failure, Output?, Subscribers.Completion<Failure>?>(
        current: nil, kind: .passthroughSubject)

    /// Creates a subject with no subscribers.
    @inlinable
    public init() {}

    /// Attaches a subscriber (served after the existing ones).
    @inlinable
    public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
        core.attach(subscriber)
    }

    /// Sends `value` to every subscriber with demand; ignored after completion.
    @inlinable
    public func send(_ value: Output) { core.send(value) }

    /// Completes every subscriber; later events are ignored.
    @inlinable
    public func send(completion: Subscribers.Completion<Failure>) { core.send(completion: completion) }

    /// Requests unlimited values from an upstream this subject was subscribed to, once one of its
    /// subscribers has requested a value (at once if one already has), as in Combine: until then the
    /// upstream is asked for nothing, so values nobody could receive are not pulled and lost.
    public func send(subscription: any Subscription) { core.send(subscription: subscription) }
}
