import Synchronization

/// The shared engine of `PassthroughSubject`, `CurrentValueSubject`, `share()` and `share(replay:)`:
/// a list of subscriber conduits and the one thread at a time (the *emitter*) that delivers to them.
///
/// Every event — a value, the completion, a subscriber joining or leaving, a request for a
/// `CurrentValueSubject`'s kept value — is handled by the emitter, in the order the events were sent.
/// Whoever finds nobody emitting becomes the emitter (`work` goes from 0 to 1); anyone else appends the
/// event to `queue` (under `lock`) and bumps `work`, and the emitter handles it before it stops. So:
/// - deliveries to one subscriber never overlap, and a send from inside a delivery (re-entrant) is
///   delivered after the current one, never nested;
/// - the emitter owns `targets` outright, so delivering a value takes no lock: a plain send to a
///   `PassthroughSubject` is one atomic compare-exchange and one atomic subtract, plus per subscriber
///   an atomic load of its demand (a store-and-forward path with the lock is kept for the cases that
///   need the lock anyway: a kept value, a replay buffer, or another thread already emitting);
/// - a subscriber added during a send does not receive that send; one that leaves stops at once (its
///   conduit checks its own flag) and is released by the emitter, never under anybody's delivery;
/// - a subscriber that finds nobody emitting gets its subscription while holding the turn (``join(_:)``), so what
///   is sent during its `receive(subscription:)` is delivered once that call returns, to it as well.
///
/// The completion and a `CurrentValueSubject`'s value are kept in ``OptionalSlot`` parameters (`Latest` is `Output?`,
/// `Pending` is `Subscribers.Completion<Failure>?`): `deinit`, `retireLocked()` and `send(subscription:)` run
/// unspecialised, and an `Optional` of a generic type would cost each a runtime metadata lookup.
@usableFromInline
final class SubjectCore<Output, Failure: Error, Latest: OptionalSlot, Pending: OptionalSlot>: ConduitParent,
    @unchecked Sendable
where Latest.Wrapped == Output, Pending.Wrapped == Subscribers.Completion<Failure> {
    /// Guards `queue`, `queueHead`, `queuedCount`, `completion`, `upstreams`, `current`, `replayBuffer`,
    /// `members`, `isRetired`.
    @usableFromInline
    let lock = Lock()

    /// Events handed to the emitter and not yet handled, plus one for a running fast-path send.
    @usableFromInline
    let work = Atomic<Int>(0)

    /// Set with `completion`; read without the lock by the fast path.
    @usableFromInline
    let isCompleted = Atomic<Bool>(false)

    /// Emitter-owned: the conduits that get values, in subscription order. A cancelled conduit's entry becomes
    /// ``BroadcastEntry/tombstone`` (an entry that does nothing) and the list is compacted once tombstones are
    /// half of it, so leaving costs O(1) amortised however many subscribers there are, and the order of the
    /// others never changes. Each conduit knows its position (``BroadcastOp/setSlot``) and passes it back when it
    /// leaves. Not an optional per entry: calling a closure out of an optional copies it, a retain and a release
    /// per delivery.
    @usableFromInline
    @exclusivity(unchecked)
    var targets: ContiguousArray<BroadcastEntry> = []

    /// Emitter-owned: how many entries of `targets` are tombstones.
    @usableFromInline
    @exclusivity(unchecked)
    var tombstones = 0

    /// Emitter-owned: the completion was delivered; later events are dropped.
    @usableFromInline
    @exclusivity(unchecked)
    var isFinished = false

    /// Events for the emitter, from `queueHead` on. Guarded by `lock`, like `queueHead`.
    @usableFromInline
    @exclusivity(unchecked)
    var queue: [SubjectEvent<Output, Failure>] = []
    @usableFromInline
    @exclusivity(unchecked)
    var queueHead = 0
    /// Events queued and not yet taken (`queue.count - queueHead`), kept apart so the uncontended attach
    /// and detach, which run unspecialised, can test it without `Array`'s generic `count`. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var queuedCount = 0
    /// The completion once sent; events after it are dropped. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var heldCompletion: Pending
    /// The subscriptions of the upstreams this subject was subscribed to. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var upstreams: [any Subscription] = []
    /// A `CurrentValueSubject`'s value (`nil` for the others). Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var heldCurrent: Latest
    /// `share(replay:)`'s last values; each new conduit starts with a copy. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var replayBuffer: RingBuffer<Output>
    /// Attached conduits not yet cancelled (for `share()`'s disconnect when the last one leaves). Guarded by
    /// `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var members = 0
    /// `share()` only: the last subscriber left, this connection takes no new ones. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var isRetired = false

    /// Whether any subscriber has requested a value yet: until then a `PassthroughSubject` or a `share()`
    /// connection asks nothing of the upstreams it subscribed to (as in Combine), so a synchronous upstream
    /// is not run dry before anyone can take its values. Set once, never cleared; written under `lock`,
    /// read without it by a conduit's `request` (a stale `false` only costs a trip through the lock).
    @usableFromInline
    let hasDownstreamDemand = Atomic<Bool>(false)

    @usableFromInline
    let keepsLatest: Bool
    /// Which publisher this core serves (its conduits' `description`): one byte here rather than in each
    /// conduit, where it would push a conduit with an `Int` output into the next allocation size.
    @usableFromInline
    let kind: ConduitKind
    @usableFromInline
    let replay: Int
    /// `share()`: the core retires when its last subscriber leaves before the completion.
    @usableFromInline
    let retiresWhenEmpty: Bool
    /// `share()`: called (outside the lock) when the core retires. Set once, right after `init`, before
    /// the core is shared.
    @usableFromInline
    @exclusivity(unchecked)
    var onEmpty: (() -> Void)?
    /// Queues a conduit's detach for the emitter and makes sure somebody handles it, as code specialised for this
    /// subject's types (see ``detachQueued(_:slot:)``). A cancel reaches the subject unspecialised (a conduit's
    /// `cancel()`, through `any Subscription`), where queueing a `SubjectEvent<Output, Failure>` looked up its generic
    /// metadata at run time, two hash-table probes per cancel; a cancel from inside a delivery (`first()`,
    /// `prefix(_:)`, `contains(where:)` on a subject) paid them every time. Formed in `init`, which client code
    /// specialises; captures nothing. Called with the lock held; releases it. Immutable.
    @usableFromInline
    let queueDetach: (SubjectCore, ObjectIdentifier, UInt32) -> Void

    @inlinable
    init(current: Output?, replay: Int = 0, retiresWhenEmpty: Bool = false, kind: ConduitKind)
    where Latest == Output?, Pending == Subscribers.Completion<Failure>? {
        queueDetach = { core, conduit, slot in
            core.push(.detach(conduit, slot))
            core.lock.unlock()
            core.startEmitting()  // a drain it starts runs specialised too
        }
        self.kind = kind
        heldCompletion = nil
        heldCurrent = current
        keepsLatest = current != nil
        self.replay = replay
        replayBuffer = RingBuffer(capacity: replay)
        self.retiresWhenEmpty = retiresWhenEmpty
    }

    /// ``heldCompletion`` as a plain `Optional`, for specialised code. Guarded by `lock`.
    @inlinable
    var completion: Subscribers.Completion<Failure>? {
        get { heldCompletion.wrapped }
        set { heldCompletion.wrapped = newValue }
    }

    /// ``heldCurrent`` as a plain `Optional`, for specialised code. Guarded by `lock`.
    @inlinable
    var current: Output? {
        get { heldCurrent.wrapped }
        set { heldCurrent.wrapped = newValue }
    }

    /// Whether sends must go through the queue (they change state guarded by the lock).
    @inlinable
    var storesValues: Bool { keepsLatest || replay > 0 }

    // MARK: Subscribers

    /// The outcome of ``attach(_:description:)``.
    @usableFromInline
    enum AttachResult {
        case attached
        case retired
    }

    /// Creates a conduit for `downstream` and joins it (or completes it at once if this core has completed;
    /// or refuses it if a `share()` connection has retired).
    @inlinable
    @discardableResult
    func attach<Downstream: Subscriber>(_ downstream: consuming Downstream) -> AttachResult
    where Downstream.Input == Output, Downstream.Failure == Failure {
        lock.lock()
        if isRetired {
            lock.unlock()
            return .retired
        }
        if replay > 0 {
            let joins = heldCompletion.isNil
            let conduit = ReplayConduit(
                parent: heldCompletion.isNil ? self : nil, downstream: downstream, kind: kind, capacity: replay,
                replaying: replayBuffer, completion: completion)
            if heldCompletion.isNil {
                members += 1
                push(.attach(conduit.entry))
            }
            lock.unlock()
            if joins { startEmitting() }
            conduit.start()
            return .attached
        }
        if let completion {
            lock.unlock()
            downstream.receiveImmediateCompletion(completion)
            return .attached
        }
        // Only a subject that keeps its latest value gives its conduits room for one.
        if keepsLatest {
            join(
                SubjectConduit<Output, Failure, Downstream, Latest, Pending, Output?, HeldDownstream<Downstream>>(
                    parent: self, downstream: downstream, latest: current))
        } else {
            join(
                SubjectConduit<
                    Output, Failure, Downstream, Latest, Pending, EmptySlot<Output>, HeldDownstream<Downstream>
                >(parent: self, downstream: downstream, latest: nil))
        }
        return .attached
    }

    /// Joins a new conduit (``attach(_:)``, lock held; released here) and hands its subscriber the subscription.
    @inlinable
    func join<Downstream: Subscriber, Kept: OptionalSlot>(
        _ conduit: SubjectConduit<Output, Failure, Downstream, Latest, Pending, Kept, HeldDownstream<Downstream>>
    ) where Downstream.Input == Output, Downstream.Failure == Failure, Kept.Wrapped == Output {
        members += 1
        if becomesEmitterWithEmptyQueue() {
            // Nothing is queued and no one is emitting: join the list at once instead of through the queue, and
            // hand the subscription over as the emitter, so that what is sent meanwhile (from inside
            // `receive(subscription:)`, or by another thread) is queued and delivered, to this subscriber too, once
            // the call returns. `startAsEmitter` ends the turn.
            appendTarget(conduit.entry)
            lock.unlock()
            conduit.startAsEmitter()
        } else {
            // Somebody is emitting (this is a subscribe from inside a delivery, or another thread is sending): the
            // emitter adds the conduit in turn, and `start` hands the subscription over at once; until it returns,
            // the emitter leaves that subscriber alone (a completion or a cancel meanwhile is settled by `start`).
            push(.attach(conduit.entry))
            lock.unlock()
            startEmitting()
            conduit.start()
        }
    }

    /// A conduit was cancelled: it leaves (handled by the emitter, which releases its downstream).
    ///
    /// Runs unspecialised (from the conduit's `cancel`, reached through `any Subscription`), so the common
    /// path touches no value of a generic type (which would look up its metadata): the rarer steps that do
    /// are functions of their own.
    @usableFromInline
    func remove(_ conduit: ObjectIdentifier, slot: UInt32) {
        lock.lock()
        members -= 1
        let retires = members == 0 && retiresWhenEmpty && retireLocked()
        if becomesEmitterWithEmptyQueue() {
            // Nothing is queued and no one is emitting: leave the list at once instead of through the queue
            // (the common, uncontended cancel). The downstream is released after unlocking.
            let entry = removeTarget(conduit, slot: slot)
            lock.unlock()
            if let entry = consume entry { entry.detach() }
            stopEmitting()
        } else {
            detachQueued(conduit, slot: slot)
        }
        if retires { onEmpty?() }
    }

    /// `share()`: its last subscriber left. Retires the connection unless it completed or retired already.
    /// Called with the lock held.
    @usableFromInline
    @inline(never)
    func retireLocked() -> Bool {
        guard heldCompletion.isNil, !isRetired else { return false }
        isRetired = true
        if replay > 0 { replayBuffer.removeAll() }  // `share()` keeps none: no generic call (a metadata lookup) here
        return true
    }

    /// Queues the detach of `conduit` for the emitter. Called with the lock held; releases it.
    @usableFromInline
    @inline(never)
    func detachQueued(_ conduit: ObjectIdentifier, slot: UInt32) {
        queueDetach(self, conduit, slot)
    }

    /// A `CurrentValueSubject` conduit got demand: the emitter delivers its kept value if it has one.
    @usableFromInline
    func deliverLatest(_ conduit: ObjectIdentifier, slot: UInt32) {
        enqueue(.latest(conduit, slot))
    }

    // MARK: Events

    @inlinable
    func send(_ value: Output) {
        if storesValues { return sendStoring(value) }
        guard !isCompleted.load(ordering: .acquiring) else { return }
        guard work.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged else {
            return enqueue(.value(value))
        }
        emit(value)
        let missed = work.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue
        if missed != 0 { drain(missed: missed) }
    }

    /// A send that updates the kept value or the replay buffer, under the lock, so that the order of deliveries is
    /// the order of those updates: delivered at once if nobody is emitting and nothing is queued (the emitter's
    /// turn is taken under that lock, so a later update queues behind this one), else queued. Inlinable, so it is
    /// specialised where the subject's types are known (unspecialised, every event costs generic metadata lookups),
    /// but never inlined: inlined into every `send`, it made each call site bigger and a plain subject's sends
    /// slower.
    @inlinable
    @inline(never)
    func sendStoring(_ value: Output) {
        lock.lock()
        guard heldCompletion.isNil else { return lock.unlock() }
        if keepsLatest { current = value }
        if replay > 0 { replayBuffer.append(value) }
        if becomesEmitterWithEmptyQueue() {
            lock.unlock()
            emit(value)
            stopEmitting()
        } else {
            push(.value(value))
            lock.unlock()
            startEmitting()
        }
    }

    @inlinable
    func send(completion newCompletion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard heldCompletion.isNil else { return lock.unlock() }
        completion = newCompletion
        isCompleted.store(true, ordering: .releasing)
        let released = upstreams
        upstreams = []
        push(.completion(newCompletion))
        lock.unlock()
        _ = released
        startEmitting()
    }

    @usableFromInline
    func send(subscription: any Subscription) {
        lock.lock()
        guard heldCompletion.isNil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstreams.append(subscription)
        // A `CurrentValueSubject` (and `share(replay:)`) keeps values for later demand, so it asks at once,
        // as Combine's `CurrentValueSubject` does; the others wait for a subscriber's first request.
        let asks = storesValues || hasDownstreamDemand.load(ordering: .relaxed)
        lock.unlock()
        if asks { subscription.request(.unlimited) }
    }

    /// `share()` retired this connection and cancelled its upstream: lets go of the subscription.
    @usableFromInline
    func releaseUpstreams() {
        lock.lock()
        let released = upstreams
        upstreams = []
        lock.unlock()
        _ = released
    }

    /// A subscriber requested values: the first time, ask every upstream for `.unlimited` (see
    /// ``hasDownstreamDemand``). Cheap after the first call: one atomic load.
    @inlinable
    func acknowledgeDemand() {
        guard !hasDownstreamDemand.load(ordering: .relaxed) else { return }
        acknowledgeFirstDemand()
    }

    @usableFromInline
    func acknowledgeFirstDemand() {
        lock.lock()
        guard !hasDownstreamDemand.load(ordering: .relaxed) else { return lock.unlock() }
        hasDownstreamDemand.store(true, ordering: .relaxed)
        let asked = storesValues ? [] : upstreams
        lock.unlock()
        for subscription in asked { subscription.request(.unlimited) }
    }

    // MARK: The emitter

    /// Appends an event and makes sure somebody handles it.
    @inlinable
    func enqueue(_ event: SubjectEvent<Output, Failure>) {
        lock.lock()
        push(event)
        lock.unlock()
        startEmitting()
    }

    /// Appends `entry` to `targets` and tells its conduit where it is (emitter only).
    @inlinable
    func appendTarget(_ entry: BroadcastEntry) {
        entry.setSlot(targets.count)
        targets.append(entry)
    }

    /// Takes the entry of `conduit` out of `targets` (emitter only), leaving a tombstone; `slot` is where the
    /// conduit was last told it is, checked before it is trusted (a compaction may have moved the entry since
    /// the conduit read it; then a search finds it). Runs unspecialised on the uncontended cancel, so it touches
    /// only non-generic values: plain loops, no closures over generic types.
    @inlinable
    func removeTarget(_ conduit: ObjectIdentifier, slot: UInt32) -> BroadcastEntry? {
        guard let index = targetIndex(of: conduit, slot: slot) else { return nil }
        // Swapped out rather than copied and overwritten: the entry moves to the caller, nothing is retained.
        var entry = BroadcastEntry.tombstone
        swap(&entry, &targets[index])
        tombstones += 1
        // Drop the tombstones at the end at once (the only entry, or the newest one, leaving); compact the rest
        // when they are half of the list.
        while tombstones > 0, let last = targets.last, last.isTombstone {
            targets.removeLast()
            tombstones -= 1
        }
        if tombstones > 0, tombstones * 2 >= targets.count { compactTargets() }
        return entry
    }

    /// Where `conduit`'s entry is (emitter only): at `slot`, the position the conduit was last told, if the entry
    /// there leads to it (a tombstone leads nowhere); else, after a compaction moved it, wherever a search finds
    /// it. `nil` if it has left. A plain loop: the uncontended cancel runs this unspecialised.
    @inlinable
    func targetIndex(of conduit: ObjectIdentifier, slot: UInt32) -> Int? {
        let hinted = Int(slot)
        if hinted < targets.count, targets[hinted].leads(to: conduit) { return hinted }
        var index = 0
        while index < targets.count, !targets[index].leads(to: conduit) { index += 1 }
        return index < targets.count ? index : nil
    }

    /// Removes the tombstones from `targets`, keeping the order, and tells each moved conduit its new position.
    @usableFromInline
    @inline(never)
    func compactTargets() {
        var write = 0
        for read in 0..<targets.count {
            let entry = targets[read]
            guard !entry.isTombstone else { continue }
            if write != read {
                targets[write] = entry
                entry.setSlot(write)
            }
            write += 1
        }
        targets.removeLast(targets.count - write)
        tombstones = 0
    }

    /// Appends `event` to the queue; called under `lock`.
    @inlinable
    func push(_ event: SubjectEvent<Output, Failure>) {
        queue.append(event)
        queuedCount += 1
    }

    /// Called under `lock`: whether the queue is empty and this thread just became the emitter (the work
    /// counter went from 0 to 1), so it may change `targets` directly, in queue order. Balance with
    /// ``stopEmitting()``.
    @inlinable
    func becomesEmitterWithEmptyQueue() -> Bool {
        queuedCount == 0
            && work.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
    }

    /// Ends a turn as the emitter begun by ``becomesEmitterWithEmptyQueue()``, draining what others queued
    /// meanwhile.
    @inlinable
    func stopEmitting() {
        let missed = work.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue
        if missed != 0 { drain(missed: missed) }
    }

    /// Called after appending to `queue`: becomes the emitter if nobody is.
    @inlinable
    func startEmitting() {
        if work.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 { drain(missed: 1) }
    }

    /// Handles queued events until `work` drops back to 0. Only the emitter runs this.
    @inlinable
    func drain(missed initial: Int) {
        var missed = initial
        while true {
            while let event = dequeue() { handle(event) }
            missed = work.wrappingSubtract(missed, ordering: .acquiringAndReleasing).newValue
            if missed == 0 { return }
        }
    }

    @inlinable
    func dequeue() -> SubjectEvent<Output, Failure>? {
        lock.lock()
        defer { lock.unlock() }
        guard queueHead < queue.count else { return nil }
        let event = queue[queueHead]
        queueHead += 1
        queuedCount -= 1
        if queueHead == queue.count {
            queue.removeAll(keepingCapacity: queue.count <= 64)
            queueHead = 0
        }
        return event
    }

    @inlinable
    func emit(_ value: Output) {
        guard !isFinished else { return }
        Self.emit(value, to: &targets)
    }

    /// Delivers `value` to each entry. `targets` is passed `inout`, so the optimiser may rely on nothing
    /// else changing the list during the calls, and borrows each entry instead of retaining the list's
    /// storage per send. That holds: only the emitter changes `targets`, and a change asked for during a
    /// delivery (a cancel, a subscribe) is queued until the emitter is done.
    @inlinable
    static func emit(_ value: Output, to targets: inout ContiguousArray<BroadcastEntry>) {
        withUnsafePointer(to: value) { pointer in
            let payload = UnsafeRawPointer(pointer)
            var index = targets.startIndex
            let end = targets.endIndex
            while index < end {
                targets[index].handle(.value, payload)
                index += 1
            }
        }
    }

    @inlinable
    func handle(_ event: SubjectEvent<Output, Failure>) {
        switch event {
        case .value(let value):
            emit(value)
        case .attach(let entry):
            // Never after the completion: `attach` queues this under the lock that a completion is
            // checked and queued under, so a completion is always queued after it.
            appendTarget(entry)
        case .detach(let id, let slot):
            removeTarget(id, slot: slot)?.detach()
        case .latest(let id, let slot):
            guard !isFinished, let index = targetIndex(of: id, slot: slot) else { return }
            targets[index].handle(.latest, nil)
        case .completion(let completion):
            guard !isFinished else { return }
            isFinished = true
            let finishing = targets
            targets = []
            tombstones = 0
            for entry in finishing { entry.finish(completion) }
        }
    }
}

/// An event for the emitter of a ``SubjectCore``.
@usableFromInline
enum SubjectEvent<Output, Failure: Error> {
    case value(Output)
    case completion(Subscribers.Completion<Failure>)
    case attach(BroadcastEntry)
    case detach(ObjectIdentifier, UInt32)
    case latest(ObjectIdentifier, UInt32)
}

/// A mirror without children: the Swift runtime traps when it reflects a noncopyable stored property (an atomic)
/// of a generic class, which `dump` and test-failure messages would otherwise do.
extension SubjectCore: CustomReflectable {
    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: [:]) }
}
