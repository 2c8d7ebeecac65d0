/// A subject that holds a current value and gives it to every new subscriber first.
///
/// - Demand: a subscriber receives the current value as soon as it has demand (asked inside
///   `receive(subscription:)`: once that call returns, then what was sent meanwhile); a value sent while a
///   subscriber has no demand is kept (only the newest) and delivered when demand arrives.
/// - ``value``: reading returns the latest value; setting it sends it (ignored after completion).
/// - Threading: safe from any thread; each subscriber receives serially (see ``Subject``). Its one stored
///   property is an immutable reference to the engine, which guards its state with a lock and atomics.
///
/// ```swift
/// let count = CurrentValueSubject<Int, Never>(0)
/// let c = count.sink { print($0) }   // prints 0
/// count.value += 1                    // prints 1
/// ```
public final class CurrentValueSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    @usableFromInline
    let core: SubjectCore<Output, Failure, Output?, Subscribers.Completion<Failure>?>

    /// Creates a subject whose current value is `value`.
    @inlinable
    public init(_ value: Output) { core = SubjectCore(current: value, kind: .currentValueSubject) }

    /// The current value. Setting it sends the new value to every subscriber.
    @inlinable
    public var value: Output {
        get {
            core.lock.lock()
            defer { core.lock.unlock() }
            // `current` is set in init and only ever replaced, never cleared.
            return core.current.unsafelyUnwrapped
        }
        set { send(newValue) }
    }

    /// Attaches a subscriber; it receives the current value first, when it has demand.
    @inlinable
    public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
        core.attach(subscriber)
    }

    /// Stores `value` as the current value and sends it; ignored after completion.
    @inlinable
    public func send(_ value: Output) { core.send(value) }

    /// Completes every subscriber; the current value stays readable.
    @inlinable
    public func send(completion: Subscribers.Completion<Failure>) { core.send(completion: completion) }

    /// Requests unlimited values from an upstream this subject was subscribed to, at once (as in Combine):
    /// the subject keeps the newest value for subscribers without demand.
    public func send(subscription: any Subscription) { core.send(subscription: subscription) }
}
