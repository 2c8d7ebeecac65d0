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
/// This slot takes 24 bytes: the subscription as one strong reference (kept by hand: ``reference``), and its
/// type with its conformance (``type``). A subscription whose type is not a class (rare: a user's struct) is
/// kept in a ``SubscriptionBox``. The slot is noncopyable: reading it borrows it in place, and ``request(_:)``
/// and ``cancel()`` call the subscription through its type without copying or retaining it.
///
/// Sound as long as the owner never overwrites or takes the slot while a call through it may be running: the
/// owners write it once (``store(_:)``, before anyone else can see it) and only take or clear it from a path
/// that excludes the others (by a lock or an atomic state), as each owner's notes say. `reference` is `nil`
/// when empty (nothing stored yet, or taken): calling the slot then does nothing.
///
/// ```swift
/// @exclusivity(unchecked) var upstream = SubscriptionSlot()
/// upstream.store(subscription)     // once, when it arrives
/// upstream.request(.max(1))        // no copy, no retain
/// ```
@usableFromInline
struct SubscriptionSlot: ~Copyable {
    /// The stored subscription (or its box), retained once by the slot: `store` retains, `take`, `clear` and
    /// `deinit` give that retain up. Always an instance of ``type``, which is a class.
    @usableFromInline
    var reference: UnsafeMutableRawPointer?
    /// The class of the object at `reference`, with its conformance to `Subscription`; meaningless when
    /// `reference` is `nil`.
    @usableFromInline
    var type: any Subscription.Type

    /// An empty slot.
    @inlinable
    init() {
        reference = nil
        type = NoSubscription.self
    }

    /// Gives up the slot's one retain (owned since `store`).
    @inlinable
    deinit {
        if let reference { Unmanaged<AnyObject>.fromOpaque(reference).release() }
    }

    /// Whether the slot is empty (nothing stored yet, or taken).
    @inlinable
    var isPlaceholder: Bool { reference == nil }

    /// Asks the stored subscription for `demand`, in place.
    @inlinable
    borrowing func request(_ demand: Subscribers.Demand) {
        guard let reference else { return }
        let type = type
        Self.request(demand, of: reference, as: type)
    }

    /// Cancels the stored subscription, in place (it stays stored: ``take()`` to release it as well).
    @inlinable
    borrowing func cancel() {
        guard let reference else { return }
        let type = type
        Self.cancel(reference, as: type)
    }

    /// Stores `subscription` in the empty slot.
    @inlinable
    mutating func store(_ subscription: any Subscription) {
        assert(reference == nil, "storing over a stored subscription")
        (reference, type) = Self.retain(subscription)
    }

    /// Moves the subscription out and leaves the slot empty.
    @inlinable
    mutating func take() -> any Subscription {
        guard let reference else { return NoSubscription() }
        self.reference = nil
        let type = type
        return Self.take(reference, as: type)
    }

    /// Releases the subscription and leaves the slot empty.
    @inlinable
    mutating func clear() {
        guard let reference else { return }
        self.reference = nil
        Unmanaged<AnyObject>.fromOpaque(reference).release()  // the retain the slot owned since `store`
    }

    // The calls below get the subscription's type opened (`S`, a class): the reference's bits are its value.

    /// The subscription as a reference retained once (the retain the slot then owns) and its class: itself if its
    /// type is a class, else a box. Sound because a class value is one reference: `unsafeBitCast` to `AnyObject`
    /// only when `S` is a class (it checks the sizes too).
    @inlinable
    static func retain<S: Subscription>(_ subscription: S) -> (UnsafeMutableRawPointer, any Subscription.Type) {
        guard S.self is AnyObject.Type else {
            // Retained once: the retain the slot owns.
            return (Unmanaged.passRetained(SubscriptionBox(subscription)).toOpaque(), SubscriptionBox<S>.self)
        }
        // Sound: `S` is a class here, so its value is one reference. Retained once: the retain the slot owns.
        return (Unmanaged.passRetained(unsafeBitCast(subscription, to: AnyObject.self)).toOpaque(), S.self)
    }

    @inlinable
    static func request<S: Subscription>(
        _ demand: Subscribers.Demand, of reference: UnsafeMutableRawPointer, as: S.Type
    ) {
        // A local copy of the bits, read as an `S` in place: a borrow, so no retain (the slot holds one).
        var bits = reference
        withUnsafePointer(to: &bits) { $0.withMemoryRebound(to: S.self, capacity: 1) { $0.pointee.request(demand) } }
    }

    @inlinable
    static func cancel<S: Subscription>(_ reference: UnsafeMutableRawPointer, as: S.Type) {
        var bits = reference
        withUnsafePointer(to: &bits) { $0.withMemoryRebound(to: S.self, capacity: 1) { $0.pointee.cancel() } }
    }

    /// The subscription, taking over the slot's retain.
    @inlinable
    static func take<S: Subscription>(_ reference: UnsafeMutableRawPointer, as: S.Type) -> any Subscription {
        var bits = reference
        return withUnsafeMutablePointer(to: &bits) {
            $0.withMemoryRebound(to: S.self, capacity: 1) { $0.move() }
        }
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
