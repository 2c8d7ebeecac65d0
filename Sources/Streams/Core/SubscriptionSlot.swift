/// A stored upstream subscription that is called where it lies: the field type of an object that keeps its
/// upstream's subscription and calls it later (`request`, `cancel`).
///
/// Why not a plain `var upstream: any Subscription`: calling a method on a class's mutable stored property
/// copies the value first (the call might reassign the property), and copying an existential goes through the
/// runtime's value witnesses and retains the subscription: a retain, a release and two indirect calls per
/// `request` or `cancel`. This slot is noncopyable, so reading it borrows it in place, and its `request` and
/// `cancel` call the subscription without copying it.
///
/// Sound as long as the owner never overwrites or takes the slot while a call through it may be running: the
/// owners write it once (``store(_:)``, before anyone else can see it) and only take or clear it from a path
/// that excludes the others (by a lock or an atomic state), as each owner's notes say.
///
/// Holds the ``NoSubscription`` placeholder before ``store(_:)`` and after ``take()`` or ``clear()``: calling
/// it then does nothing.
///
/// ```swift
/// @exclusivity(unchecked) var upstream = SubscriptionSlot()
/// upstream.store(subscription)     // once, when it arrives
/// upstream.request(.max(1))        // no copy, no retain
/// ```
@usableFromInline
struct SubscriptionSlot: ~Copyable {
    @usableFromInline
    var subscription: any Subscription

    /// A slot holding the placeholder.
    @inlinable
    init() { subscription = NoSubscription() }

    /// Whether the slot holds the placeholder (nothing stored yet, or taken).
    @inlinable
    var isPlaceholder: Bool { subscription is NoSubscription }

    /// Asks the stored subscription for `demand`, in place.
    @inlinable
    borrowing func request(_ demand: Subscribers.Demand) { subscription.request(demand) }

    /// Cancels the stored subscription, in place (it stays stored: ``take()`` to release it as well).
    @inlinable
    borrowing func cancel() { subscription.cancel() }

    /// Stores `subscription` over the placeholder (see ``NoSubscription/replace(_:with:)``).
    @inlinable
    mutating func store(_ subscription: any Subscription) {
        NoSubscription.replace(&self.subscription, with: subscription)
    }

    /// Moves the subscription out and puts the placeholder back.
    @inlinable
    mutating func take() -> any Subscription { NoSubscription.take(&subscription) }

    /// Releases the subscription and puts the placeholder back.
    @inlinable
    mutating func clear() { NoSubscription.clear(&subscription) }
}
