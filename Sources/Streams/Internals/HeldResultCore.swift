/// The subscription of a stage that ends by publishing one result it may have to hold: every reducing operator
/// (see ``ReducingInner``) and `replaceEmpty` (see ``ReplaceEmptyStage``). One place for Combine's rule for such a
/// result: it needs demand, so it waits for the downstream's first request.
///
/// While the stream runs, the result so far (a fold's, or `replaceEmpty`'s replacement until a value comes) is its
/// ``StageLink``'s `state`, which only the upstream's serial calls touch: no lock per value. Only the end meets the
/// downstream's request and cancel, which may come from any thread, under `lock`:
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

    /// The upstream subscription; its `state` is the result so far, owned by the upstream's serial calls (see
    /// ``StageLink``) until the stream ends, when the stage moves it out and passes it to ``publish(_:)``.
    @usableFromInline
    let link: StageLink<Output?, NoStageHooks>
    /// Whether a request made before the end is passed upstream.
    @usableFromInline
    let forwardsDemand: Bool
    /// Guards every `var` below (`@exclusivity(unchecked)`: each access is under it, or in `init`).
    @usableFromInline
    let lock = Lock()
    /// The subscriber (``HoldsDownstreamInSlot/downstream``) until the result is published, a completion is
    /// forwarded, or the downstream cancels. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var held: HeldDownstream
    /// The result of an ended stream, waiting for the downstream's first request. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var heldResult: HeldOutput
    /// The downstream requested at least one value. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var hasDemand = false
    /// The stream ended; `held` (which may be `nil`: only `.finished` then) waits for demand. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var isHolding = false
    /// The downstream cancelled (checked after it received the result, before `.finished`). Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var isCancelled = false
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

    /// Hands this subscription to the downstream (the upstream's call, once the link is attached).
    @inlinable
    func handOver() {
        lock.withLock { downstream }?.receive(subscription: self)
    }

    /// The stream ended (the upstream's call, after ending the link) with `result`: published now, followed by
    /// `.finished`, if the downstream has asked for anything, or held until it does. Dropped if it has cancelled.
    @inlinable
    func publish(_ result: consuming Output?) {
        lock.lock()
        if hasDemand, let downstream = self.downstream.take() {
            lock.unlock()
            deliver(result, to: downstream)
            return
        }
        if downstream != nil {
            heldResult.wrapped = result
            isHolding = true
        }
        lock.unlock()
    }

    /// Forwards `completion` at once (the upstream's call, after ending the link), unless the downstream has
    /// cancelled. Nothing is held.
    @inlinable
    func forward(_ completion: Subscribers.Completion<Downstream.Failure>) {
        lock.lock()
        let downstream = self.downstream.take()
        lock.unlock()
        downstream?.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        lock.lock()
        hasDemand = true
        guard isHolding else {
            lock.unlock()
            if forwardsDemand { link.request(demand) }  // a no-op once the link has ended
            return
        }
        isHolding = false
        let downstream = self.downstream.take()  // there while holding: a cancel stops the holding
        let result = heldResult.wrapped.take()
        lock.unlock()
        if let downstream { deliver(result, to: downstream) }
    }

    /// Ends the link (cancelling upstream) and releases the downstream and any held result.
    @inlinable
    func cancel() {
        link.cancel()
        lock.lock()
        isCancelled = true
        isHolding = false
        // Separate locals of the slot types, not a tuple of optionals: no metadata to look up.
        let releasedDownstream = held
        held = nil
        let releasedResult = heldResult
        heldResult = nil
        lock.unlock()
        _ = releasedDownstream  // both destroyed here, outside the lock
        _ = releasedResult
    }

    /// Publishes the result (the downstream was taken out, once), then `.finished` unless the downstream
    /// cancelled meanwhile.
    @inlinable
    func deliver(_ result: consuming Output?, to downstream: Downstream) {
        if let result {
            _ = downstream.receive(result)
            lock.lock()
            let cancelled = isCancelled
            lock.unlock()
            if cancelled { return }
        }
        downstream.receive(completion: .finished)
    }
}
