/// Something that can be cancelled: a subscription, a sink, scheduled work.
///
/// `cancel()` is idempotent and thread-safe: calling it again, or from another thread, does nothing
/// more. After it returns no further event is delivered through it, and it releases what it holds.
public protocol Cancellable {
    /// Stops the work and releases its resources. Safe to call more than once, from any thread.
    func cancel()
}

/// A link between one publisher and one subscriber, through which the subscriber asks for values.
///
/// - Threading: `request(_:)` and `cancel()` may be called from any thread, also re-entrantly from
///   inside the subscriber's `receive(_:)`.
///
/// ```swift
/// func receive(subscription: any Subscription) { subscription.request(.max(2)) }
/// ```
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    /// Asks for up to `demand` more values. Demand adds up; `.unlimited` is sticky; `.none` is ignored.
    func request(_ demand: Subscribers.Demand)
}

/// Receives a stream of values from a publisher, then at most one completion.
///
/// The contract (as in Combine): `receive(subscription:)` exactly once and first; no more values than
/// requested (by `request(_:)` plus what each `receive(_:)` returns); at most one completion; events from one
/// publisher arrive serially, never concurrently; nothing after the subscriber cancels. What each operator asks
/// of its upstream is in the <doc:DemandContract> article.
///
/// ```swift
/// final class PrintTwo: Subscriber {
///     func receive(subscription: any Subscription) { subscription.request(.max(2)) }
///     func receive(_ input: Int) -> Subscribers.Demand { print(input); return .none }
///     func receive(completion: Subscribers.Completion<Never>) { print(completion) }
/// }
/// ```
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    /// The type of values received.
    associatedtype Input
    /// The type of error received; `Never` when the publisher cannot fail.
    associatedtype Failure: Error

    /// Called exactly once, first, with the subscription to request values through.
    func receive(subscription: any Subscription)
    /// Receives one value; returns how many *more* values the subscriber wants (added to its demand).
    func receive(_ input: Input) -> Subscribers.Demand
    /// Receives the single completion; no event follows it.
    func receive(completion: Subscribers.Completion<Failure>)
}

extension Subscriber where Input == Void {
    /// Receives a `Void` value.
    @inlinable
    public func receive() -> Subscribers.Demand { receive(()) }
}

/// Produces values over time for any subscriber that attaches.
///
/// Implement ``receive(subscriber:)``; callers use `subscribe(_:)`. Every publisher and operator
/// in this library follows that contract (see <doc:DemandContract>).
///
/// ```swift
/// let cancellable = [1, 2, 3].publisher.map { $0 * 10 }.sink { print($0) }
/// ```
public protocol Publisher<Output, Failure> {
    /// The type of values published.
    associatedtype Output
    /// The type of error published; `Never` when it cannot fail.
    associatedtype Failure: Error

    /// Attaches `subscriber`. Called by `subscribe(_:)`; implementations must call
    /// `subscriber.receive(subscription:)` exactly once, first.
    ///
    /// Both the publisher and the subscriber are passed `consuming`, so an operator can move them into the
    /// subscriber it builds instead of copying (retaining) each part. A conforming type may declare the method
    /// without these modifiers (`func receive<S: Subscriber>(subscriber: S)`), as in Combine; callers are
    /// unaffected (a value used again afterwards is copied implicitly).
    consuming func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
    /// Attaches `subscriber` to this publisher.
    ///
    /// ```swift
    /// Just(1).subscribe(mySubscriber)
    /// ```
    @inlinable
    public consuming func subscribe<S: Subscriber>(_ subscriber: consuming S)
    where S.Input == Output, S.Failure == Failure {
        receive(subscriber: subscriber)
    }
}

/// Namespace for the publishers that operators return (`Publishers.Map`, `Publishers.Debounce`, …).
public enum Publishers {}

/// Namespace for ready-made subscriptions.
public enum Subscriptions {
    /// A subscription that does nothing: for publishers that complete at once (e.g. `Empty`).
    public static var empty: any Subscription { EmptySubscription.shared }
}

@usableFromInline
final class EmptySubscription: Subscription, Sendable, CustomStringConvertible {
    @usableFromInline
    static let shared = EmptySubscription()
    @usableFromInline
    func request(_ demand: Subscribers.Demand) {}
    @usableFromInline
    func cancel() {}
    @usableFromInline
    var description: String { "Empty" }
}

/// An empty subscription, stored inline in an existential: the placeholder ``ScheduledHandle`` holds while no timer
/// is pending (rather than an optional existential, which keeps the runtime's value witnesses off the paths that
/// test and clear the field), and what ``SubscriptionSlot/take()`` returns when no subscription is stored.
@usableFromInline
struct NoSubscription: Subscription {
    @inlinable
    init() {}
    @inlinable
    func request(_ demand: Subscribers.Demand) {}
    @inlinable
    func cancel() {}
}
