/// A call into a subscription's `request(_:)` or `cancel()`, for classes that run those two in specialised code.
///
/// Both are reached through `any Subscription`, whose witnesses are the class's unspecialised generic bodies: there,
/// every `Optional`, array, tuple or completion of a generic type costs a runtime metadata lookup (a hash-table probe
/// each). A class whose `request`/`cancel` do real work on such state conforms to ``SpecialisedSubscription``, keeps
/// the closure ``forwarding(to:)`` makes in its `init` (which client code specialises, so the closure's body is
/// specialised and captures nothing: no allocation), and the protocol's `request(_:)` and `cancel()` forward both
/// calls to it (a class that checks something first, such as a demand of zero, writes its own `request(_:)` and
/// forwards at its end). Cost: one stored closure (16 bytes) and an indirect call.
///
/// ```swift
/// let specialised: (Engine, SpecialisedCall) -> Void   // in init: specialised = SpecialisedCall.forwarding()
/// func requestNow(_ demand: Subscribers.Demand) { … }   // the bodies
/// func cancelNow() { … }
/// // extension Engine: SpecialisedSubscription {} — request(_:) and cancel() come with it
/// ```
@usableFromInline
enum SpecialisedCall {
    /// `request(_:)`.
    case request(Subscribers.Demand)
    /// `cancel()`.
    case cancel

    /// The closure a ``SpecialisedSubscription`` stores and forwards `request(_:)` and `cancel()` to: it calls
    /// `requestNow(_:)` or `cancelNow()`. Call it from the class's `init`, where `Subscription` is concrete.
    @inlinable
    static func forwarding<Subscription: SpecialisedSubscription>(
        to _: Subscription.Type = Subscription.self
    ) -> (Subscription, SpecialisedCall) -> Void {
        { subscription, call in
            switch call {
            case .request(let demand): subscription.requestNow(demand)
            case .cancel: subscription.cancelNow()
            }
        }
    }
}

/// A subscription whose `request(_:)` and `cancel()` forward to a ``SpecialisedCall/forwarding(to:)`` closure: these
/// are the bodies that closure runs, specialised.
@usableFromInline
protocol SpecialisedSubscription: AnyObject {
    /// The closure ``SpecialisedCall/forwarding(to:)`` made in `init`.
    var specialised: (Self, SpecialisedCall) -> Void { get }
    /// `request(_:)`'s body.
    func requestNow(_ demand: Subscribers.Demand)
    /// `cancel()`'s body.
    func cancelNow()
}

extension SpecialisedSubscription {
    // Inlined into each class's witness: the call reads the class's stored closure directly, as a method of the
    // class would.

    /// Forwards to ``specialised``.
    @inlinable
    @inline(__always)
    func request(_ demand: Subscribers.Demand) { specialised(self, .request(demand)) }

    /// Forwards to ``specialised``.
    @inlinable
    @inline(__always)
    func cancel() { specialised(self, .cancel) }
}
