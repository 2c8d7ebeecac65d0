/// The engine shared by `merge`, `flatMap` and `switchToLatest`: many sources, one downstream.
///
/// Every source is subscribed through a ``MergeSide``; all state lives under one lock.
/// - Demand, in one of two ways (`forwardsDemand`, fixed at `init`):
///   - `merge`, `flatMap`: while the downstream's demand is bounded, each side is asked for one value
///     at a time (one more after its previous value was delivered), so at most one value per side waits
///     in `buffer`; once the downstream asks for `.unlimited`, every side is asked for `.unlimited`.
///   - `switchToLatest`: one live side at a time (``replaceSideLocked()`` unlinks the previous one and
///     drops its buffered values). It is asked for the downstream's outstanding demand when it
///     subscribes, and every later request (or demand returned from `receive(_:)`) is passed on to it
///     as is. Invariant while demand is bounded: the live side's outstanding request plus the values
///     buffered from it equals `demand`.
/// - Serial delivery: the thread that finds the engine idle becomes the deliverer (it takes the `turn`)
///   and drains the buffer; a value that arrives meanwhile (from another thread, or re-entrantly from
///   inside the downstream's `receive(_:)`) is only buffered. No lock is held while calling out.
/// - One lock round trip per value: a value that finds the engine idle is delivered directly, and when
///   the downstream returns no demand the deliverer gives the turn back without the lock (see
///   ``DeliveryTurn``); whoever changes the state under the lock while a delivery runs marks the turn.
/// - Completion: `.finished` once no more sources can come (`sourcesDone`), no side is live and the
///   buffer is empty; the first failure drops the buffer, cancels everything and is delivered once.
@usableFromInline
class MergeCore<Output, Failure: Error, Downstream: Subscriber, Pending: OptionalSlot>: Subscription,
    CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Output, Downstream.Failure == Failure, Pending.Wrapped == Subscribers.Completion<Failure> {
    @usableFromInline
    typealias Side = MergeSide<Output, Failure, Downstream, Pending>

    @usableFromInline
    struct Entry {
        @usableFromInline
        let side: Side
        @usableFromInline
        let value: Output

        @inlinable
        init(side: Side, value: Output) {
            self.side = side
            self.value = value
        }
    }

    // Every `var` below is guarded by `lock` (so no dynamic exclusivity checks) and `final`: the
    // subclasses do not override them, and a non-final stored property is read through the vtable, in
    // unspecialised code.
    @usableFromInline
    let lock = Lock()
    /// `switchToLatest`'s demand (see the type's notes) rather than one value at a time per side. Immutable.
    @usableFromInline
    let forwardsDemand: Bool
    /// The subscriber, boxed so that the deliverer (whoever has the `turn`) calls it without retaining
    /// it: while a delivery is under way the box is not released (see `retiredDownstream`). Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    final var downstream: DownstreamBox<Downstream>?
    /// The box a `cancel` took while a delivery was under way: released by the deliverer once that delivery
    /// has returned (a cancel from inside the subscriber's `receive` must not free what is running). Guarded
    /// by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    final var retiredDownstream: DownstreamBox<Downstream>?
    /// The downstream's outstanding demand (requested minus delivered). Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    final var demand = Subscribers.Demand.none
    /// Whether sides are asked for `.unlimited` (set once the downstream's demand became unlimited). Guarded
    /// by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    final var sidesUnlimited = false
    /// Set together with `sidesUnlimited`; the deliverer then widens the sides subscribed before. Guarded by
    /// `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    final var wideningDue = false
    /// Whose turn it is to deliver (see ``DeliveryTurn``): taken and marked under `lock`, given back under it or,
    /// after a direct delivery, without it (``endsTurnAtOnce(returned:)``).
    @usableFromInline
    let turn = DeliveryTurn()
    /// Values waiting for demand or for the deliverer, from `bufferHead` on. Both guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    final var buffer: [Entry] = []
    @usableFromInline
    @exclusivity(unchecked)
    final var bufferHead = 0
    /// Live sides, as an intrusive doubly linked list (no allocation per side beyond the side). Guarded by
    /// `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    final var firstSide: Side?
    /// The upstream of sources (flatMap's and switchToLatest's upstream); `nil` for merge. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    final var upstream: (any Subscription & AnyObject)?
    /// The upstream's subscription arrived (a second one is cancelled). Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    final var hasUpstream = false
    /// No more sources will be added. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    final var sourcesDone = false
    /// No more events are accepted; a completion is due or was delivered. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    final var isTerminal = false
    /// The completion due (``pendingCompletion``); the deliverer sends it before anything else. A `Pending`
    /// (`Subscribers.Completion<Failure>?`, see ``OptionalSlot``): the unspecialised `deinit` destroys it without a
    /// metadata lookup. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    final var heldCompletion: Pending
    /// flatMap with a bounded `maxPublishers`: a finished source asks the upstream for one more. Set by
    /// flatMap's `init`; guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    final var replenishes = false
    /// flatMap, switchToLatest: the side linked last, kept so that the next source can reuse it once it has
    /// ended (finished, or replaced by switchToLatest) and nothing else references it (a `Just`, a sequence, any
    /// source that completed before the next value): one allocation less per such source. Cleared when the
    /// engine ends (the side refers back to the engine). Always `nil` for merge, whose sides are linked once.
    /// Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    final var recentSide: Side?
    /// Whether `linkSideLocked` keeps and reuses `recentSide`. Set by the subclass's `init`; guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    final var reusesSides = false
    /// Runs `request(_:)` and `cancel()` as specialised code (see ``SpecialisedCall``): their bodies touch the
    /// buffer, the pending completion and the sides, each a runtime metadata lookup if run unspecialised. Immutable.
    @usableFromInline
    let specialised: (MergeCore, SpecialisedCall) -> Void

    @inlinable
    init(downstream: Downstream, forwardsDemand: Bool = false) {
        self.downstream = DownstreamBox(downstream)
        self.forwardsDemand = forwardsDemand
        heldCompletion = nil
        specialised = SpecialisedCall.forwarding()
    }

    @inlinable
    var description: String { "Merge" }

    /// Whether a thread is the deliverer. Lock held (see ``DeliveryTurn/isTakenLocked``).
    @inlinable
    final var isDelivering: Bool { turn.isTakenLocked }

    /// ``heldCompletion`` as a plain `Optional`. Lock held.
    @inlinable
    final var pendingCompletion: Subscribers.Completion<Failure>? {
        get { heldCompletion.wrapped }
        set { heldCompletion.wrapped = newValue }
    }

    /// The subscriber's box, not retained: only for the deliverer, which the box outlives (see
    /// `retiredDownstream`). Lock held.
    @inlinable
    final var unretainedDownstream: Unmanaged<DownstreamBox<Downstream>>? {
        guard let box = downstream else { return nil }
        // Not retained: `downstream` holds the box; a `cancel` during a delivery moves it to `retiredDownstream`,
        // which only the deliverer releases, after that delivery returned.
        return Unmanaged.passUnretained(box)
    }

    /// Releases operator-specific resources (flatMap's transform) when the engine ends. Called with the lock held.
    @inlinable
    func releaseResourcesLocked() {}

    // MARK: Sides

    /// Registers a new side, or returns `nil` once the engine has ended. Lock held.
    @inlinable
    final func linkSideLocked() -> Side? {
        guard !isTerminal, downstream != nil else { return nil }
        let side: Side
        // A finished side that only `recentSide` references can no longer be called by anyone: reuse it.
        // (Checked under the lock: nothing can take a new reference to an unlinked side.)
        if reusesSides, isKnownUniquelyReferenced(&recentSide), let recent = recentSide, !recent.isLive {
            recent.isLive = true
            side = recent
        } else {
            side = Side(core: self)
            if reusesSides { recentSide = side }
        }
        side.next = firstSide
        firstSide?.previous = side
        firstSide = side
        return side
    }

    /// switchToLatest: unlinks the live side, if any, drops the values buffered from it, and links a new side.
    /// Returns the new side (`nil` once the engine has ended), the replaced side's subscription to cancel (`nil` if
    /// there was none) and the dropped values to release, both outside the lock. Lock held.
    @inlinable
    final func replaceSideLocked() -> (side: Side?, replaced: (any Subscription & AnyObject)?, dropped: [Entry]) {
        guard !isTerminal, downstream != nil else { return (nil, nil, []) }
        let (replaced, dropped) = unlinkLiveSideLocked()
        return (linkSideLocked(), replaced, dropped)
    }

    /// switchToLatest: unlinks the live side, if any, and drops the values buffered from it. Returns the side's
    /// subscription to cancel (`nil` if there was none) and the dropped values to release, both outside the lock.
    /// Lock held.
    @inlinable
    final func unlinkLiveSideLocked() -> (replaced: (any Subscription & AnyObject)?, dropped: [Entry]) {
        var replaced: (any Subscription & AnyObject)?
        if let current = firstSide {
            replaced = current.subscription.take()
            unlinkLocked(current)
        }
        return (replaced, bufferHead < buffer.count ? takeBufferLocked() : [])
    }

    /// switchToLatest: the live side's subscription, to pass demand on to. Lock held.
    @inlinable
    final func liveSubscriptionLocked() -> (any Subscription & AnyObject)? {
        firstSide?.subscription
    }

    /// Removes `side` from the live list. Lock held.
    @inlinable
    final func unlinkLocked(_ side: Side) {
        if let previous = side.previous { previous.next = side.next } else { firstSide = side.next }
        side.next?.previous = side.previous
        side.previous = nil
        side.next = nil
        side.isLive = false
        side.clearSubscription()
    }

    /// Unlinks every side and returns their subscriptions (to cancel outside the lock). Lock held.
    @inlinable
    final func unlinkAllLocked() -> [any Subscription & AnyObject] {
        var subscriptions: [any Subscription & AnyObject] = []
        var side = firstSide
        firstSide = nil
        while let current = side {
            side = current.next
            if let subscription = current.subscription { subscriptions.append(subscription) }
            current.previous = nil
            current.next = nil
            current.isLive = false
            current.clearSubscription()
        }
        return subscriptions
    }

    @inlinable
    final func sideReceived(_ side: Side, subscription: any Subscription) {
        lock.lock()
        guard side.isLive, !isTerminal, side.subscription == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        side.store(subscription)
        let initial: Subscribers.Demand = forwardsDemand ? demand : sidesUnlimited ? .unlimited : .max(1)
        lock.unlock()
        if initial > .none { subscription.request(initial) }
    }

    @inlinable
    final func sideReceived(_ side: Side, value: Output) -> Subscribers.Demand {
        lock.lock()
        guard side.isLive, !isTerminal, let box = unretainedDownstream else {
            lock.unlock()
            return .none
        }
        if isDelivering || demand == .none || bufferHead < buffer.count {
            buffer.append(Entry(side: side, value: value))
            // Without demand the value waits for a request, which drains.
            if demand > .none && turn.claimOrMarkLocked() {
                drainLocked()
            } else {
                lock.unlock()
            }
            return .none
        }
        // Fast path: deliver directly, without touching the buffer.
        let bounded = !sidesUnlimited
        let more = deliverNowLocked(value, to: box)
        // Ended at once: nothing changed meanwhile and no demand came back, so the side keeps what it was asked
        // for (switchToLatest) or is asked for its next value (merge, flatMap, while bounded).
        if endsTurnAtOnce(returned: more) { return forwardsDemand || !bounded ? .none : .max(1) }
        if forwardsDemand { return forwardReturnedDemandLocked(more, deliveredFrom: side) }
        endDirectDeliveryLocked()
        return bounded ? .max(1) : .none
    }

    /// The engine is idle (nobody delivering, nothing buffered) and the downstream has demand: delivers `value`
    /// now, as the deliverer, and returns the demand the downstream returned (not added yet). Lock held on entry
    /// (and nobody delivering), released on return; this thread keeps the turn: end it with
    /// ``endsTurnAtOnce(returned:)``, then, if that did not, ``endDirectDeliveryLocked()`` or a drain.
    @inlinable
    final func deliverNowLocked(_ value: Output, to box: Unmanaged<DownstreamBox<Downstream>>) -> Subscribers.Demand {
        turn.takeLocked()
        if demand != .unlimited { demand -= 1 }
        lock.unlock()
        // The box is alive: this thread is the deliverer (it has the turn), so a `cancel` meanwhile parks it in
        // `retiredDownstream` and marks the turn; only the deliverer releases it (in `drainLocked`, after this call).
        return box._withUnsafeGuaranteedRef { $0.value.receive(value) }
    }

    /// After ``deliverNowLocked(_:to:)``: ends the turn without the lock if the downstream returned no demand and
    /// nobody changed the state meanwhile (the turn is unmarked: nothing to drain, deliver or release), and returns
    /// `true`. Otherwise takes the lock, adds `more` to the demand and returns `false`, the lock held.
    @inlinable
    final func endsTurnAtOnce(returned more: Subscribers.Demand) -> Bool {
        if more == .none && turn.endsAtOnce() { return true }
        lock.lock()
        addDemandLocked(more)
        return false
    }

    /// After a direct delivery the turn did not end at once: stops delivering if nothing arrived meanwhile and
    /// nothing is due (all the drain would do), else drains. Lock held on entry, released on return.
    @inlinable
    final func endDirectDeliveryLocked() {
        if bufferHead == buffer.count && pendingCompletion == nil && !wideningDue && !sourcesDone && !isTerminal {
            turn.endLocked()
            lock.unlock()
        } else {
            drainLocked()
        }
    }

    @inlinable
    final func sideReceived(_ side: Side, completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard side.isLive else { return lock.unlock() }
        unlinkLocked(side)
        switch completion {
        case .finished:
            guard replenishes else { return finishIfDoneLocked() }
            let replenish = replenishingUpstreamLocked()
            finishIfDoneLocked()
            replenish?.request(.max(1))
        case .failure(let error):
            failLocked(error)
        }
    }

    /// The upstream to ask for one more source after a side finished (flatMap with a bounded
    /// `maxPublishers`). Lock held.
    @inlinable
    func replenishingUpstreamLocked() -> (any Subscription & AnyObject)? { nil }

    /// switchToLatest, after `side` delivered directly: the demand the downstream returned goes to `side` as its
    /// return value if it is still live, or else to the side that replaced it meanwhile (re-entrantly or from
    /// another thread). Lock held on entry, released on return.
    @inlinable
    final func forwardReturnedDemandLocked(_ more: Subscribers.Demand, deliveredFrom side: Side) -> Subscribers.Demand {
        // `side` cannot have been reused meanwhile: its caller holds it, so it is not uniquely referenced.
        if side.isLive || more == .none {
            let isLive = side.isLive
            endDirectDeliveryLocked()
            return isLive ? more : .none
        }
        let forward = liveSubscriptionLocked()
        drainLocked()
        forward?.request(more)
        return .none
    }

    // MARK: The handshake

    /// Hands the downstream this subscription, before any source is subscribed (as Combine's `merge`, `flatMap` and
    /// `switchToLatest` do: what a source sends at once finds the subscriber ready). Returns whether the
    /// subscription is still live, that is whether to subscribe the sources: a subscriber that cancelled during the
    /// handshake gets nothing subscribed.
    ///
    /// Called once, by the operator's `receive(subscriber:)`, right after `init`: the subscriber's box is read without
    /// the lock because no other thread can reach this object before `receive(subscription:)` hands it out, and the
    /// box is retained here, since a cancel during that call may release the stored reference.
    @inlinable
    final func handOverSubscription() -> Bool {
        guard let box = downstream else { return false }
        box.value.receive(subscription: self)
        lock.lock()
        defer { lock.unlock() }
        return !isTerminal
    }

    // MARK: Upstream of sources (flatMap, switchToLatest)

    /// The upstream's subscription arrived (after ``handOverSubscription()``): asks it for `initialDemand`. A second
    /// subscription, or one after the end, is cancelled.
    @inlinable
    final func upstreamReceived(subscription: any Subscription, initialDemand: Subscribers.Demand) {
        lock.lock()
        guard !hasUpstream, !isTerminal else {
            lock.unlock()
            subscription.cancel()
            return
        }
        hasUpstream = true
        upstream = SubscriptionSlot.object(subscription)
        lock.unlock()
        if initialDemand > .none { subscription.request(initialDemand) }
    }

    /// The upstream completed: no more sources come; a failure ends everything at once.
    @inlinable
    final func upstreamReceived(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard !isTerminal, !sourcesDone else { return lock.unlock() }
        upstream = nil
        switch completion {
        case .finished:
            sourcesDone = true
            finishIfDoneLocked()
        case .failure(let error):
            failLocked(error)
        }
    }

    // MARK: Downstream

    @inlinable
    final func request(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        specialised(self, .request(more))
    }

    @inlinable
    final func cancel() { specialised(self, .cancel) }

    /// `request(_:)`'s body, specialised (see ``specialised``).
    @inlinable
    final func requestNow(_ more: Subscribers.Demand) {
        lock.lock()
        guard !isTerminal, downstream != nil else { return lock.unlock() }
        addDemandLocked(more)
        if forwardsDemand { return requestForwardingLocked(more) }
        guard turn.claimOrMarkLocked() else { return lock.unlock() }
        drainLocked()
    }

    /// switchToLatest: passes the request on to the live side, after the buffer got its share. Lock held on
    /// entry, released on return.
    @inlinable
    final func requestForwardingLocked(_ more: Subscribers.Demand) {
        let forward = liveSubscriptionLocked()
        if turn.claimOrMarkLocked() {
            drainLocked()
        } else {
            lock.unlock()
        }
        forward?.request(more)
    }

    /// `cancel()`'s body, specialised (see ``specialised``).
    @inlinable
    final func cancelNow() {
        lock.lock()
        guard downstream != nil || !isTerminal else { return lock.unlock() }
        isTerminal = true
        var box: DownstreamBox<Downstream>? = nil
        swap(&box, &downstream)
        if turn.markIfTakenLocked() {
            retiredDownstream = box  // still in use: the deliverer releases it
            box = nil
        }
        let buffered = buffer.isEmpty ? nil : takeBufferLocked()
        let upstream = self.upstream.take()
        pendingCompletion = nil
        recentSide = nil
        releaseResourcesLocked()
        let sides = unlinkAllLocked()
        lock.unlock()
        upstream?.cancel()
        for subscription in sides { subscription.cancel() }
        _ = box  // released here, outside the lock
        _ = buffered
    }

    // MARK: Engine

    @inlinable
    final func addDemandLocked(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        demand += more
        if demand == .unlimited && !sidesUnlimited && !forwardsDemand {
            sidesUnlimited = true
            wideningDue = true
        }
    }

    @inlinable
    final func takeBufferLocked() -> [Entry] {
        let taken = buffer
        buffer = []
        bufferHead = 0
        return taken
    }

    /// Ends with `.finished` if nothing more can come. Lock held on entry, released on return.
    @inlinable
    final func finishIfDoneLocked() {
        if !isTerminal && sourcesDone && firstSide == nil && bufferHead == buffer.count && turn.claimOrMarkLocked() {
            drainLocked()
        } else {
            lock.unlock()
        }
    }

    /// Fails at once: cancels the upstream and every side, drops the buffer, and delivers the failure
    /// (or leaves it to the current deliverer). Lock held on entry, released on return.
    @inlinable
    final func failLocked(_ error: Failure) {
        guard !isTerminal, downstream != nil else { return lock.unlock() }
        isTerminal = true
        pendingCompletion = .failure(error)
        let upstream = self.upstream
        self.upstream = nil
        let dropped = takeBufferLocked()
        let sides = unlinkAllLocked()
        let delivers = turn.claimOrMarkLocked()
        lock.unlock()
        _ = dropped
        upstream?.cancel()
        for subscription in sides { subscription.cancel() }
        if delivers {
            lock.lock()
            drainLocked()
        }
    }

    /// The deliverer's loop: delivers buffered values while there is demand, then a due completion.
    /// Called with the lock held and the turn this thread's; returns with the lock released.
    @inlinable
    final func drainLocked() {
        while true {
            if let completion = pendingCompletion {
                pendingCompletion = nil
                let target = downstream
                downstream = nil
                recentSide = nil
                releaseResourcesLocked()
                lock.unlock()  // the turn stays taken: nothing follows a completion
                target?.value.receive(completion: completion)
                return
            }
            guard let box = unretainedDownstream else {
                turn.endLocked()
                let dropped = takeBufferLocked()
                var retired: DownstreamBox<Downstream>? = nil
                swap(&retired, &retiredDownstream)
                lock.unlock()
                _ = (dropped, retired)
                return
            }
            if demand > .none && bufferHead < buffer.count {
                let entry = buffer[bufferHead]
                bufferHead += 1
                if bufferHead == buffer.count {
                    buffer.removeAll(keepingCapacity: true)
                    bufferHead = 0
                }
                if demand != .unlimited { demand -= 1 }
                // A buffered side was left with no outstanding request: ask it for the next value.
                let refill = !sidesUnlimited && !forwardsDemand ? entry.side.subscription : nil
                lock.unlock()
                // The box is alive: this thread is the deliverer, so a `cancel` meanwhile parks it in
                // `retiredDownstream`, released only by this loop once the call returned (`guard` above).
                let more = box._withUnsafeGuaranteedRef { $0.value.receive(entry.value) }
                refill?.request(.max(1))
                lock.lock()
                addDemandLocked(more)
                if forwardsDemand, more > .none, let live = liveSubscriptionLocked() {
                    lock.unlock()
                    live.request(more)
                    lock.lock()
                }
                continue
            }
            if !isTerminal && sourcesDone && firstSide == nil && bufferHead == buffer.count {
                isTerminal = true
                upstream = nil
                pendingCompletion = .finished
                continue
            }
            var widened: [any Subscription & AnyObject] = []
            if wideningDue {
                wideningDue = false
                var side = firstSide
                while let current = side {
                    if let subscription = current.subscription { widened.append(subscription) }
                    side = current.next
                }
            }
            turn.endLocked()
            lock.unlock()
            // The list runs newest first: widen in the order the sides were linked, so the oldest source's
            // waiting values come first.
            for subscription in widened.reversed() { subscription.request(.unlimited) }
            return
        }
    }
}

/// One source's subscriber inside a ``MergeCore``. Its mutable fields are guarded by the core's lock.
@usableFromInline
final class MergeSide<Output, Failure: Error, Downstream: Subscriber, Pending: OptionalSlot>: Subscriber,
    CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Output, Downstream.Failure == Failure, Pending.Wrapped == Subscribers.Completion<Failure> {
    @usableFromInline
    let core: MergeCore<Output, Failure, Downstream, Pending>
    /// The source's subscription once it arrived, `nil` before and after. A class-bound existential (see
    /// ``SubscriptionSlot/object(_:)``): tested, copied and cleared as a reference, where an `any Subscription` goes
    /// through the runtime's value witnesses, several times per inner publisher. Guarded by the core's `lock`, like
    /// every `var` below.
    @usableFromInline
    @exclusivity(unchecked)
    var subscription: (any Subscription & AnyObject)?
    @usableFromInline
    @exclusivity(unchecked)
    var isLive = true
    @usableFromInline
    @exclusivity(unchecked)
    var previous: MergeSide?
    @usableFromInline
    @exclusivity(unchecked)
    var next: MergeSide?

    @inlinable
    init(core: MergeCore<Output, Failure, Downstream, Pending>) { self.core = core }

    /// Releases the subscription (lock held).
    @inlinable
    func clearSubscription() {
        subscription = nil
    }

    /// Stores the source's subscription. Lock held; only while none is stored.
    @inlinable
    func store(_ subscription: any Subscription) {
        self.subscription = SubscriptionSlot.object(subscription)
    }

    @inlinable
    var description: String { core.description }

    @inlinable
    func receive(subscription: any Subscription) { core.sideReceived(self, subscription: subscription) }

    @inlinable
    func receive(_ input: Output) -> Subscribers.Demand { core.sideReceived(self, value: input) }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { core.sideReceived(self, completion: completion) }
}

// `request(_:)` and `cancel()` run `requestNow(_:)` and `cancelNow()` through `specialised`.
extension MergeCore: SpecialisedSubscription {}
