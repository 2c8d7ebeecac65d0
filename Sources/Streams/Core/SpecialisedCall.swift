/// A call into a subscription's `request(_:)` or `cancel()`, for classes that run those two in specialised code.
///
/// Both are reached through `any Subscription`, whose witnesses are the class's unspecialised generic bodies: there,
/// every `Optional`, array, tuple or completion of a generic type costs a runtime metadata lookup (a hash-table probe
/// each). A class whose `request`/`cancel` do real work on such state keeps a closure formed in its `init` (which
/// client code specialises, so the closure's body is specialised and captures nothing: no allocation) and forwards
/// both calls to it with one of these. Cost: one stored closure (16 bytes) and an indirect call.
///
/// ```swift
/// let specialised: (Engine, SpecialisedCall) -> Void   // set in init: { $0.run($1) }
/// func cancel() { specialised(self, .cancel) }
/// ```
@usableFromInline
enum SpecialisedCall {
    /// `request(_:)` with a demand above `.none`.
    case request(Subscribers.Demand)
    /// `cancel()`.
    case cancel
}
