import Synchronization

/// The subscription of a stage that ends by publishing one result it may have to hold: every reducing operator
/// (see ``ReducingInner``) and `replaceEmpty` (see ``ReplaceEmptyStage``). One place for Combine's rule for such a
/// result: it needs demand, so it waits for the downstream's first request.
///
/// While the stream runs, the result so far (a fold's, or `replaceEmpty`'s replacement until a value comes) is its
/// ``StageLink``'s `state`, which only the upstream's serial calls touch: no lock per value. Only the end meets the
/// downstream's request and cancel, which may come from any thread:
/// - ``publish(_:)``: the stream ended with this result (or none: then only `.finished`). It goes at once if the
///   downstream has requested anything, or is held until its first request; then the result and `.finished`,
///   unless the downstream cancels, even from inside `receive(_:)` of the result;
/// - ``forward(_:)``: a completion that goes at once (a failure, which drops the result; `replaceEmpty`'s
///   `.finished` after values);
/// - before the end, a request goes upstream only if `forwardsDemand` (`replaceEmpty` passes demand through; a
///   reducing operator asked for `.unlimited` itself when it was subscribed).
///
/// A cancel ends the link (cancelling upstream) and drops the downstream and a held result. A result still in the
/// link's `state` (the stream had not ended) stays there, as only the upstream's calls may touch it, until the
/// upstream lets go of its subscriber.
///
/// No lock: these three meet in one atomic byte of flags (``HeldResultFlag``). The end stores the result and sets
/// `holding`, or takes the downstream at once if `demanded` is set; the first request sets `demanded` and takes a
/// held result; a cancel sets `cancelled`. Whichever of them first sets `taken` owns the downstream from then on,
/// and the result once it is held: it delivers them or, for a cancel, releases them (a result the end had not yet
/// marked held stays the end's, which drops it on seeing `cancelled`). Each flag is set by a read-modify-write that
/// acquires and releases, so the owner sees what the others stored before their flags.
///
/// - Threading: `request` and `cancel` from any thread; ``handOver()``, ``publish(_:)`` and ``forward(_:)`` from
///   the upstream's serial calls, after the link has ended for the last two.
///
/// The subscriber and the held result are kept in ``OptionalSlot`` fields (`HeldDownstream` is `Downstream?`,
/// `HeldOutput` is `Output?`): `request`, `cancel` and `deinit` run unspecialised (reached through
/// `any Subscription`), and an `Optional` stored property would cost them a runtime metadata lookup each.
@usableFromInline
final class HeldResultCore<Downstream: Subscriber, HeldDownstream: OptionalSlot, HeldOutput: OptionalSlot>:
    Subscription, HoldsDownstreamInSlot, CustomStringConvertible, @unchecked Sendable
where HeldDownstream.Wrapped == Downstream, HeldOutput.Wrapped == Downstream.Input {
    @usableFromInline
    typealias Output = Downstream.Input
    @usableFromInline
    typealias Flag = HeldResultFlag

    /// The upstream subscription; its `state` is the result so far, owned by the upstream's serial calls (see
    /// ``StageLink``) until the stream ends, when the stage moves it out and passes it to ``publish(_:)``.
    @usableFromInline
    let link: StageLink<Output?, NoStageHooks>
    /// Whether a request made before the end is passed upstream.
    @usableFromInline
    let forwardsDemand: Bool
    /// The ``HeldResultFlag`` bits: the atomic meeting point of the end, the first request and a cancel.
    @usableFromInline
    let flags = Atomic<UInt8>(0)
    /// The subscriber (``HoldsDownstreamInSlot/downstream``) until the result is published, a completion is
    /// forwarded, or the downstream cancels. Read by ``handOver()`` before anyone else has this subscription; after
    /// that owned by the thread that set `taken` (`@exclusivity(unchecked)`: one owner at a time).
    @usableFromInline
    @exclusivity(unchecked)
    var held: HeldDownstream
    /// The result of an ended stream, waiting for the downstream's first request: written by ``publish(_:)`` before
    /// it sets `holding` (or drops it on seeing `cancelled`), then owned by the thread that set `taken`.
    @usableFromInline
    @exclusivity(unchecked)
    var heldResult: HeldOutput
    @usableFromInline
    let description: String

    /// - Parameters:
    ///   - name: the link's name (the link is never seen downstream); `description` is this core's.
    ///   - initial: the link's first `state`.
    @inlinable
    init(
        downstream: Downstream, name: StageName, initial: Output?, forwardsDemand: Bool, description: String
    ) where HeldDownstream == Downstream?, HeldOutput == Output? {
        self.link = StageLink(name, state: initial, hooks: NoStageHooks())
        self.held = HeldDownstream(holding: downstream)
        self.heldResult = nil
        self.forwardsDemand = forwardsDemand
        self.description = description
    }

    /// Sets `flag` and returns the flags as they were before.
    @inlinable
    func set(_ flag: UInt8) -> UInt8 {
        flags.bitwiseOr(flag, ordering: .acquiringAndReleasing).oldValue
    }

    /// Hands this subscription to the downstream (the upstream's call, once the link is attached). Nothing else can
    /// have taken the downstream yet: only the end (which comes later on the same calls) and the downstream's own
    /// request and cancel (which need this subscription) take it.
    @inlinable
    func handOver() {
        downstream?.receive(subscription: self)
    }

    /// The stream ended (the upstream's call, after ending the link) with `result`: published now, followed by
    /// `.finished`, if the downstream has asked for anything, or held until it does. Dropped if it has cancelled.
    @inlinable
    func publish(_ result: consuming Output?) {
        heldResult.wrapped = result
        var current = flags.load(ordering: .acquiring)
        while current & (Flag.cancelled | Flag.taken) == 0 {
            // Demand already there: take the downstream and deliver; otherwise hold, for the first request to take.
            let flag = current & Flag.demanded != 0 ? Flag.taken : Flag.holding
            let (exchanged, original) = flags.compareExchange(
                expected: current, desired: current | flag, ordering: .acquiringAndReleasing)
            if !exchanged {
                current = original  // a request or a cancel came meanwhile: decide again
                continue
            }
            if flag == Flag.taken, let downstream = self.downstream.take() {
                deliver(heldResult.wrapped.take(), to: downstream)
            }
            return
        }
        heldResult = nil  // cancelled before it was held: the result is still this call's to drop
    }

    /// Forwards `completion` at once (the upstream's call, after ending the link), unless the downstream has
    /// cancelled. Nothing is held.
    @inlinable
    func forward(_ completion: Subscribers.Completion<Downstream.Failure>) {
        guard set(Flag.taken) & Flag.taken == 0 else { return }
        downstream.take()?.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        let previous = set(Flag.demanded)
        guard previous & Flag.holding != 0 else {
            if forwardsDemand { link.request(demand) }  // a no-op once the link has ended
            return
        }
        // The result is held: the first to set `taken` (this request, another one, or a cancel) owns it.
        guard previous & Flag.taken == 0, set(Flag.taken) & Flag.taken == 0 else { return }
        let result = heldResult.wrapped.take()
        if let downstream = self.downstream.take() { deliver(result, to: downstream) }
    }

    /// Ends the link (cancelling upstream) and releases the downstream and any held result, unless a delivery has
    /// taken them (it then stops before `.finished`).
    @inlinable
    func cancel() {
        link.cancel()
        let previous = set(Flag.cancelled | Flag.taken)
        guard previous & Flag.taken == 0 else { return }
        let releasedDownstream = held
        held = nil
        _ = releasedDownstream
        // A result not yet held is still the end's (``publish(_:)`` drops it on seeing `cancelled`).
        guard previous & Flag.holding != 0 else { return }
        let releasedResult = heldResult
        heldResult = nil
        _ = releasedResult
    }

    /// Publishes the result (the downstream was taken out, once), then `.finished` unless the downstream
    /// cancelled meanwhile.
    @inlinable
    func deliver(_ result: consuming Output?, to downstream: Downstream) {
        if let result {
            _ = downstream.receive(result)
            if flags.load(ordering: .acquiring) & Flag.cancelled != 0 { return }
        }
        downstream.receive(completion: .finished)
    }
}

/// The bits of ``HeldResultCore/flags``; each is set once and never cleared.
@usableFromInline
enum HeldResultFlag {
    /// The downstream requested at least one value.
    @usableFromInline static let demanded: UInt8 = 1
    /// The stream ended and its result (possibly none) is in ``HeldResultCore/heldResult``, waiting for demand.
    @usableFromInline static let holding: UInt8 = 2
    /// The downstream cancelled (checked after it received the result, before `.finished`).
    @usableFromInline static let cancelled: UInt8 = 4
    /// Someone owns ``HeldResultCore/held`` (and ``HeldResultCore/heldResult`` once `holding` is set): the thread
    /// that set it delivers or releases them.
    @usableFromInline static let taken: UInt8 = 8
}
