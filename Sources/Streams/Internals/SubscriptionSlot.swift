/// A stored upstream subscription that is called where it lies: the field type of an object that keeps its
/// upstream's subscription and calls it later (`request`, `cancel`).
///
/// Why not a plain `var upstream: any Subscription`:
/// - calling a method on a class's mutable stored property copies the value first (the call might reassign
///   the property), and copying an existential goes through the runtime's value witnesses and retains the
///   subscription: a retain, a release and two indirect calls per `request` or `cancel`;
/// - an `any Subscription` takes 40 bytes (three words of inline buffer, the type, the conformance), for what
///   is almost always one class reference. A `Sink` or a stage's link is one such field bigger than it needs
///   to be, and a heap block bigger: memory per live subscription is one of the library's targets.
///
/// This slot takes 16 bytes: the subscription as a class-bound existential (a reference and its conformance). A
/// subscription whose type is not a class (rare: a user's struct) is kept in a ``SubscriptionBox``. The slot is
/// noncopyable: reading it borrows it in place, and ``request(_:)`` and ``cancel()`` call the subscription
/// without copying it.
///
/// Sound as long as the owner never overwrites or takes the slot while a call through it may be running: the
/// owners write it once (``store(_:)``, before anyone else can see it) and only take or clear it from a path
/// that excludes the others (by a lock or an atomic state), as each owner's notes say. Calling an empty slot
/// (nothing stored yet, or taken) does nothing.
///
/// ```swift
/// @exclusivity(unchecked) var upstream = SubscriptionSlot()
/// upstream.store(subscription)     // once, when it arrives
/// upstream.request(.max(1))        // no copy, no retain
/// ```
@usableFromInline
struct SubscriptionSlot: ~Copyable {
    /// The stored subscription (the subscription itself when its type is a class, else a ``SubscriptionBox``), or
    /// `nil` when the slot is empty.
    @usableFromInline
    var subscription: (any Subscription & AnyObject)?

    /// An empty slot.
    @inlinable
    init() { subscription = nil }

    /// Whether the slot is empty (nothing stored yet, or taken).
    @inlinable
    var isEmpty: Bool { subscription == nil }

    /// Asks the stored subscription for `demand`, in place.
    @inlinable
    borrowing func request(_ demand: Subscribers.Demand) { subscription?.request(demand) }

    /// Cancels the stored subscription, in place (it stays stored: ``take()`` to release it as well).
    @inlinable
    borrowing func cancel() { subscription?.cancel() }

    /// Stores `subscription` in the empty slot.
    @inlinable
    mutating func store(_ subscription: any Subscription) {
        assert(self.subscription == nil, "storing over a stored subscription")
        self.subscription = Self.object(subscription)
    }

    /// Moves the subscription out and leaves the slot empty.
    @inlinable
    mutating func take() -> any Subscription {
        guard let taken = subscription.take() else { return NoSubscription() }
        return taken
    }

    /// Releases the subscription and leaves the slot empty.
    @inlinable
    mutating func clear() { subscription = nil }

    /// `subscription` as a class-bound existential: itself if its type (`S`, opened) is a class, else in a box.
    ///
    /// No dynamic cast (which would look the conformance up in the runtime's tables): the conformance comes with
    /// `S`. A class-bound existential is a reference followed by the conformance's witness table, and an
    /// existential metatype is the type's metadata followed by the same table (the Swift ABI's type layout), so
    /// the existential is built from the reference and the table of `S.self`. Sound only because `S` is a class
    /// here: its value is exactly that one reference (`unsafeBitCast` checks the size as well).
    @inlinable
    static func object<S: Subscription>(_ subscription: S) -> any Subscription & AnyObject {
        guard S.self is AnyObject.Type else { return SubscriptionBox(subscription) }
        let type: any Subscription.Type = S.self
        // Sound: an existential metatype is the metadata and then the witness table (the ABI's layout). `as` keeps
        // it an existential (an argument to a generic parameter is opened otherwise, and `S.Type` is one word).
        let metatypeWords = unsafeBitCast(type as any Subscription.Type, to: (UnsafeRawPointer, UnsafeRawPointer).self)
        // Sound: `S` is a class, so its value is one reference. The copy is retained: the existential owns it.
        let reference = unsafeBitCast(subscription, to: AnyObject.self)
        // Sound: a class-bound existential is the reference and then the witness table (the ABI's layout).
        return unsafeBitCast((reference, metatypeWords.1), to: (any Subscription & AnyObject).self)
    }
}

/// A subscription whose type is not a class, kept in an object so that a ``SubscriptionSlot`` can hold it
/// by one reference. Forwards every call.
@usableFromInline
final class SubscriptionBox<Base: Subscription>: Subscription, CustomStringConvertible {
    @usableFromInline
    let base: Base

    @inlinable
    init(_ base: Base) { self.base = base }

    @inlinable
    var combineIdentifier: CombineIdentifier { base.combineIdentifier }
    @usableFromInline
    var description: String { String(describing: base) }
    @inlinable
    func request(_ demand: Subscribers.Demand) { base.request(demand) }
    @inlinable
    func cancel() { base.cancel() }
}
