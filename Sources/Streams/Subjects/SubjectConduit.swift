import Synchronization

/// What the emitter of a ``SubjectCore`` asks of one conduit (see ``BroadcastEntry``).
@usableFromInline
enum BroadcastOp: UInt8, Sendable {
    /// Deliver the value the payload points to (an `Output`) if there is demand (a `CurrentValueSubject`
    /// conduit keeps it otherwise).
    case value
    /// Deliver the kept value, if any and if there is demand. No payload.
    case latest
    /// Deliver the completion the payload points to (a `Subscribers.Completion<Failure>`), then release the
    /// downstream.
    case finish
    /// The conduit was cancelled or refused: release the downstream. No payload.
    case detach
    /// Write the conduit's `ObjectIdentifier` to the payload, a pointer to a `UInt` (see
    /// ``BroadcastEntry/leads(to:)``).
    case identify
    /// Remember the entry's position in the core's list, the `UInt32` the payload points to: the conduit
    /// passes it back when it is cancelled, so the core finds the entry without a search.
    case setSlot
}

/// One subscriber in a ``SubjectCore``'s list: a closure into its conduit.
///
/// A closure rather than a class or protocol call: it is formed in the conduit's specialised (client)
/// code, so the emitter reaches the specialised delivery path; its context is the conduit itself.
/// Not generic: the core's list and the cancel path, which runs unspecialised, then handle entries without
/// looking up type metadata. The closure takes the operation and a pointer to its payload, typed by the
/// core that formed it (`Output` for ``BroadcastOp/value``, `Subscribers.Completion<Failure>` for
/// ``BroadcastOp/finish``, a `UInt` to write for ``BroadcastOp/identify``).
///
/// Two words: the conduit's identity is asked of the closure (``leads(to:)``) rather than stored beside it, which
/// keeps the list a third smaller. Only the rarer lookups (a cancel, a kept value's request) ask.
@usableFromInline
struct BroadcastEntry {
    /// Called only by the core's emitter (entries are called from its emitter-owned `targets`). The payload
    /// pointer is valid only for the call, and points to the type the operation names: the entry and the
    /// pointer both come from the same core, so `Output` and `Failure` agree.
    @usableFromInline
    let handle: (BroadcastOp, UnsafeRawPointer?) -> Void

    @inlinable
    init(handle: @escaping (BroadcastOp, UnsafeRawPointer?) -> Void) {
        self.handle = handle
    }

    /// Whether this entry leads to the conduit `conduit` identifies.
    @inlinable
    func leads(to conduit: ObjectIdentifier) -> Bool {
        var bits: UInt = 0
        withUnsafeMutablePointer(to: &bits) { handle(.identify, UnsafeRawPointer($0)) }
        return bits == UInt(bitPattern: conduit)
    }

    /// The value of type `T` that `payload` points to. A value of a zero-sized type (`Void`, `Completion<Never>`
    /// once finished) may sit at address 0, which the optional pointer reads as `nil`: then any address serves,
    /// since loading a zero-sized value reads no memory.
    @inlinable
    static func load<T>(_ payload: UnsafeRawPointer?, as type: T.Type) -> T {
        guard let payload else {
            return UnsafeRawPointer(bitPattern: MemoryLayout<T>.alignment).unsafelyUnwrapped
                .assumingMemoryBound(to: T.self).pointee
        }
        return payload.assumingMemoryBound(to: T.self).pointee
    }

    /// Answers ``BroadcastOp/identify`` for `conduit`: writes its identity to `payload`.
    @inlinable
    static func identify(_ conduit: AnyObject, to payload: UnsafeRawPointer?) {
        UnsafeMutableRawPointer(mutating: payload.unsafelyUnwrapped).storeBytes(
            of: UInt(bitPattern: ObjectIdentifier(conduit)), as: UInt.self)
    }

    /// Delivers the completion, then releases the downstream.
    @inlinable
    func finish<Failure: Error>(_ completion: Subscribers.Completion<Failure>) {
        withUnsafePointer(to: completion) { handle(.finish, UnsafeRawPointer($0)) }
    }

    /// Releases the downstream (cancelled or refused).
    @inlinable
    @inline(never)  // kept out of the entry's closure, whose hot path is `deliver`
    func detach() { handle(.detach, nil) }

    /// The entry a core leaves where a conduit left its list: it does nothing, and leads to no conduit
    /// (``leads(to:)`` reads 0 from it). A closure that captures nothing: no allocation, nothing to retain.
    @inlinable
    static var tombstone: BroadcastEntry { BroadcastEntry { _, _ in } }

    /// Whether this is a ``tombstone``.
    @inlinable
    var isTombstone: Bool {
        var bits: UInt = 0
        withUnsafeMutablePointer(to: &bits) { handle(.identify, UnsafeRawPointer($0)) }
        return bits == 0
    }

    /// Tells the conduit its position in the core's list.
    @inlinable
    func setSlot(_ slot: Int) {
        var position = UInt32(truncatingIfNeeded: slot)
        withUnsafeMutablePointer(to: &position) { handle(.setSlot, UnsafeRawPointer($0)) }
    }

    /// The `UInt32` a ``BroadcastOp/setSlot`` payload points to.
    @inlinable
    static func slot(_ payload: UnsafeRawPointer?) -> UInt32 {
        payload.unsafelyUnwrapped.load(as: UInt32.self)
    }
}

/// The owner of conduits (a ``SubjectCore``): told when one is cancelled.
@usableFromInline
protocol ConduitParent: AnyObject, Sendable {
    associatedtype Output
    associatedtype Failure: Error
    /// `conduit` was cancelled; `slot` is the position the core last gave it (``BroadcastOp/setSlot``), a hint
    /// the core checks.
    func remove(_ conduit: ObjectIdentifier, slot: UInt32)
}

/// Which publisher a conduit belongs to (its `description`).
@usableFromInline
enum ConduitKind: Sendable {
    case passthroughSubject
    case currentValueSubject
    case replaySubject
    case share
}

/// The subscription a subject (or `share()`) gives each subscriber: its demand, and its deliveries.
///
/// Deliveries come only from the core's emitter, one at a time, so they need no lock here: demand is an
/// atomic counter (`UInt.max` = unlimited) that `request(_:)` adds to from any thread and the emitter
/// alone takes from; `state` says active / cancelled / finished. `downstream` and `latest` are touched
/// only by the emitter (after `start`), which is also who releases them — so a cancel racing with a
/// delivery never frees what the delivery is using. The one hand-over: a completion or a cancel that arrives
/// while `start` is still handing the subscriber its subscription leaves the release to `start` (see
/// ``ConduitState``).
@usableFromInline
final class SubjectConduit<
    Output, Failure: Error, Downstream: Subscriber, Latest: OptionalSlot, Pending: OptionalSlot, Kept: OptionalSlot,
    Held: DownstreamSlot & ~Copyable
>: Subscription, CustomStringConvertible, @unchecked Sendable
where
    Downstream.Input == Output, Downstream.Failure == Failure, Latest.Wrapped == Output,
    Pending.Wrapped == Subscribers.Completion<Failure>, Kept.Wrapped == Output, Held.Downstream == Downstream
{
    // `Kept` and `Pending` are `Output?` (or, for a subject that keeps no value, an ``EmptySlot``) and
    // `Subscribers.Completion<Failure>?` (see ``OptionalSlot``): generic parameters, so `deinit`, which runs
    // unspecialised, destroys them without looking up the metadata of an `Optional`; `Held` is a
    // `HeldDownstream<Downstream>` for the same reason. `Latest` is the parent's. Declaration order is layout order:
    // the odd-sized fields come first. With an `Int` output, a `CurrentValueSubject`'s `latest` (9 bytes), `state`
    // (1), `pendingCompletion` (2) and `slot` (4) fill the 16 bytes after the object header exactly, so a
    // `map`/`filter`/`sink` subscriber's conduit is an 88-byte allocation (one byte more would make it 104); a
    // `PassthroughSubject`'s or `share()`'s conduit keeps no `latest` (an ``EmptySlot``, no bytes), 16 bytes
    // fewer with a `String` output. Measure with `malloc_usable_size` before adding a field.

    /// Emitter-owned: a `CurrentValueSubject`'s value not yet delivered to this subscriber; always empty (and of no
    /// size) for a subject that keeps no value (`keepsLatest` is `false`, so nothing is written to it).
    @usableFromInline
    @exclusivity(unchecked)
    var latest: Kept
    @usableFromInline
    let state = Atomic<UInt8>(State.starting)
    /// A completion the emitter handed over while `start` was still running (written before `state`
    /// becomes `finishedWhileStarting`, read by `start` after it sees that state): the atomic `state` orders the
    /// emitter's write before `start`'s read, and only one of them touches it at a time.
    @usableFromInline
    @exclusivity(unchecked)
    var pendingCompletion: Pending = nil
    /// The conduit's position in the core's list, set by the emitter (``BroadcastOp/setSlot``) and read by
    /// `cancel` on any thread, as a hint (the core checks it): an atomic, in bytes the layout leaves free.
    @usableFromInline
    let slot = Atomic<UInt32>(0)
    /// Strong, as in Combine: the core holds this conduit only while it is in the core's list (until its
    /// detach or finish), so the cycle ends with the subscription. Not `weak`: a weak reference gives the
    /// core a side table, which moves every retain and release of it to the runtime's slow path.
    @usableFromInline
    let parent: SubjectCore<Output, Failure, Latest, Pending>
    @usableFromInline
    let demand = Atomic<UInt>(0)
    /// Borrowed by `start` while `starting`, emitter-owned after (`start` releases it instead if a cancel or
    /// completion came meanwhile: see ``ConduitState``); `state`'s compare-exchanges order the two. Stored in
    /// place and borrowed by each delivery (see ``DownstreamSlot``): a delivery retains nothing, not even the
    /// references inside the subscriber (a `map`/`filter` chain holds one closure per stage), and the
    /// subscriber costs no object of its own.
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Held

    @usableFromInline
    typealias State = ConduitState

    @inlinable
    init(parent: SubjectCore<Output, Failure, Latest, Pending>, downstream: Downstream, latest: Output?) {
        self.parent = parent
        self.downstream = Held(downstream)
        self.latest = nil
        self.latest.wrapped = latest
    }

    @usableFromInline
    var description: String {
        switch parent.kind {
        case .passthroughSubject: "PassthroughSubject"
        case .currentValueSubject: "CurrentValueSubject"
        case .replaySubject: "ReplaySubject"
        case .share: "Share"
        }
    }

    @inlinable
    var keepsLatest: Bool { parent.keepsLatest }

    /// The entry the core keeps (formed here, in specialised code).
    @inlinable
    var entry: BroadcastEntry {
        BroadcastEntry { [self] operation, payload in
            switch operation {
            case .value: deliver(BroadcastEntry.load(payload, as: Output.self))
            case .latest: deliverLatest()
            case .finish: finish(BroadcastEntry.load(payload, as: Subscribers.Completion<Failure>.self))
            case .detach: detach()
            case .identify: BroadcastEntry.identify(self, to: payload)
            case .setSlot: slot.store(BroadcastEntry.slot(payload), ordering: .relaxed)
            }
        }
    }

    /// Hands the subscription to the subscriber, borrowed where it lies in `downstream` (no copy of it).
    ///
    /// Until this returns the conduit is `starting`, and the emitter leaves `downstream` alone: it delivers no
    /// value; a completion that arrives meanwhile is left in `pendingCompletion` for this method to deliver, so
    /// the subscriber always gets its subscription first; and a cancel meanwhile (`cancelledWhileStarting`) is
    /// settled by whichever of this method and the emitter's `detach` or `finish` comes second, which releases
    /// the subscriber (see ``ConduitState``).
    @inlinable
    func start() {
        _ = downstream.with { $0.receive(subscription: self) }
        let (started, found) = state.compareExchange(
            expected: State.starting, desired: State.active, ordering: .acquiringAndReleasing)
        if started {
            // A request made while starting (typically inside `receive(subscription:)`) left telling the parent to
            // this point, so that the values it pulls from a synchronous upstream find this conduit active. The
            // fence pairs with the one in `request`: either it saw `active`, or this load sees its demand.
            atomicMemoryFence(ordering: .sequentiallyConsistent)
            if demand.load(ordering: .relaxed) > 0 { parent.acknowledgeDemand() }
            if keepsLatest { parent.deliverLatest(ObjectIdentifier(self), slot: slot.load(ordering: .relaxed)) }
            return
        }
        switch found {
        case State.finishedWhileStarting:
            // The emitter is done with this conduit: the completion and the subscriber are this method's.
            state.store(State.finished, ordering: .releasing)
            let completion = pendingCompletion.wrapped
            pendingCompletion = nil
            if let completion, let subscriber = downstream.take() { subscriber.receive(completion: completion) }
        case State.cancelledWhileStarting:
            // Cancelled during the hand-over: if the emitter has not detached yet, it releases the subscriber
            // when it does; if it has meanwhile, the release is this method's.
            guard
                !state.compareExchange(
                    expected: State.cancelledWhileStarting, desired: State.cancelled, ordering: .acquiringAndReleasing
                ).exchanged
            else { return }
            releaseAfterStart()
        default:
            releaseAfterStart()  // `detachedWhileStarting`: the emitter left the release to this method
        }
    }

    /// Hands the subscription to the subscriber while this thread is the core's emitter (the uncontended
    /// subscribe: see ``SubjectCore/join(_:)``), then ends that turn.
    ///
    /// Holding the turn, this method owns the core's list and this conduit's deliveries: nothing is delivered to
    /// anyone during `receive(subscription:)`, and what it causes (a send, a completion, a cancel, from inside the
    /// call or from another thread) is queued and handled when the turn ends, in order, after this subscriber's
    /// kept value. So a value sent from inside the call reaches this subscriber too (once the call returns, with the
    /// demand it has by then), where a conduit started outside the turn (``start()``) is not served until it
    /// returns. A completion cannot reach this conduit while it is `starting` (only the emitter delivers one).
    @inlinable
    func startAsEmitter() {
        _ = downstream.with { $0.receive(subscription: self) }
        let started = state.compareExchange(
            expected: State.starting, desired: State.active, ordering: .acquiringAndReleasing
        ).exchanged
        if started {
            if keepsLatest { deliverLatest() }  // this thread is the emitter
        } else {
            // Cancelled during the call (`cancelledWhileStarting`): its detach is queued, and the emitter (this
            // thread, as the turn ends) releases the subscriber.
            state.store(State.cancelled, ordering: .releasing)
        }
        parent.stopEmitting()
        guard started else { return }
        // A request made inside `receive(subscription:)` left telling the parent to this point (see `start`).
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        if demand.load(ordering: .relaxed) > 0, state.load(ordering: .relaxed) == State.active {
            parent.acknowledgeDemand()
        }
    }

    /// The release the emitter left to `start` (state `detachedWhileStarting`).
    @inlinable
    func releaseAfterStart() {
        state.store(State.cancelled, ordering: .releasing)
        downstream = Held()
    }

    /// Emitter only: the kept value, if this subscriber is active and has demand.
    @inlinable
    func deliverLatest() {
        // Acquiring, as in `deliver`.
        guard state.load(ordering: .acquiring) == State.active, demand.load(ordering: .relaxed) > 0,
            let value = latest.wrapped
        else { return }
        latest = nil
        deliver(value)
    }

    /// Emitter only: delivers the completion (or leaves it to `start`), then releases the downstream (or leaves
    /// that to `start` if it is still handing the subscription over).
    @inlinable
    @inline(never)  // kept out of the entry's closure, whose hot path is `deliver`
    func finish(_ completion: Subscribers.Completion<Failure>) {
        latest = nil
        if state.compareExchange(expected: State.active, desired: State.finished, ordering: .acquiringAndReleasing)
            .exchanged
        {
            downstream.take()?.receive(completion: completion)
            return
        }
        pendingCompletion.wrapped = completion
        if state.compareExchange(
            expected: State.starting, desired: State.finishedWhileStarting, ordering: .acquiringAndReleasing
        ).exchanged {
            return  // `start` delivers it and releases the downstream
        }
        pendingCompletion = nil  // cancelled: nothing to deliver
        releaseAfterCancel()
    }

    /// Emitter only: the conduit was cancelled. The emitter holds no lock here, so the downstream may be
    /// destroyed in place.
    @inlinable
    @inline(never)  // kept out of the entry's closure, whose hot path is `deliver`
    func detach() {
        if keepsLatest { latest = nil }
        releaseAfterCancel()
    }

    /// Emitter only, once the conduit was cancelled: releases the downstream, unless `start` is still handing
    /// it the subscription; then `start` releases it when it returns.
    @inlinable
    func releaseAfterCancel() {
        // The common case (cancelled after the hand-over) needs only a load: the compare-exchange is for the rare
        // cancel during it.
        if state.load(ordering: .acquiring) == State.cancelledWhileStarting
            && state.compareExchange(
                expected: State.cancelledWhileStarting, desired: State.detachedWhileStarting,
                ordering: .acquiringAndReleasing
            ).exchanged
        {
            return
        }
        downstream = Held()
    }

    /// Emitter only: one value, if this subscriber is active and has demand. Inlined into the entry's closure:
    /// the hot path of every send.
    @inlinable
    @inline(__always)
    func deliver(_ value: Output) {
        // Acquiring: it pairs with `start`'s move to `active` on the subscribing thread, so what the subscriber wrote
        // in `receive(subscription:)` is visible to this delivery on the emitter's thread (a relaxed load let a
        // subscribe that raced another thread's send deliver without that ordering; the thread sanitizer caught it).
        // A plain load on x86-64.
        let current = state.load(ordering: .acquiring)
        if current == State.starting {
            if keepsLatest { latest.wrapped = value }  // delivered once `start` has finished
            return
        }
        guard current == State.active else { return }
        let available = demand.load(ordering: .relaxed)
        if available == 0 {
            if keepsLatest { latest.wrapped = value }
            return
        }
        if available != .max { demand.wrappingSubtract(1, ordering: .relaxed) }
        // A kept value is superseded. Asked of this conduit's own field rather than of `keepsLatest` (a load
        // through `parent`, which every send would wait for): only a `CurrentValueSubject`'s conduit holds one.
        if latest.wrapped != nil { latest = nil }
        // Borrowed in place: only this emitter releases `downstream`, and a detach or finish asked for during
        // the delivery is queued until it returns, so the subscriber outlives the call.
        guard let more = downstream.with({ $0.receive(value) }) else { return }
        if more > .none { add(more) }
    }

    /// Adds to the demand, saturating at unlimited.
    @inlinable
    func add(_ more: Subscribers.Demand) { demand.addDemand(more) }

    @inlinable
    func request(_ more: Subscribers.Demand) {
        let current = state.load(ordering: .relaxed)
        guard more > .none, current == State.active || current == State.starting else { return }
        add(more)
        // While starting, `start` tells the parent once the subscriber is active (see there): a synchronous
        // upstream asked now would send values this conduit may not take yet.
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        guard state.load(ordering: .relaxed) != State.starting else { return }
        parent.acknowledgeDemand()
        if keepsLatest { parent.deliverLatest(ObjectIdentifier(self), slot: slot.load(ordering: .relaxed)) }
    }

    @inlinable
    func cancel() {
        var current = state.load(ordering: .relaxed)
        while current == State.active || current == State.starting {
            let cancelled = current == State.starting ? State.cancelledWhileStarting : State.cancelled
            let (exchanged, found) = state.compareExchange(
                expected: current, desired: cancelled, ordering: .acquiringAndReleasing)
            if exchanged { return parent.remove(ObjectIdentifier(self), slot: slot.load(ordering: .relaxed)) }
            current = found
        }
    }
}

/// The states of a ``SubjectConduit``.
@usableFromInline
enum ConduitState {
    @usableFromInline static let active: UInt8 = 0
    @usableFromInline static let cancelled: UInt8 = 1
    @usableFromInline static let finished: UInt8 = 2
    /// Handing the subscription to the subscriber; no values yet.
    @usableFromInline static let starting: UInt8 = 3
    /// The completion arrived during `starting`; `start` delivers it and releases the downstream.
    @usableFromInline static let finishedWhileStarting: UInt8 = 4
    /// Cancelled during `starting`. `start`, when it returns, moves on to `cancelled` (and the emitter's
    /// `detach` or `finish` releases the downstream later), unless the emitter got here first and moved on to
    /// `detachedWhileStarting`.
    @usableFromInline static let cancelledWhileStarting: UInt8 = 5
    /// The emitter detached (or finished) a conduit cancelled during `starting` while `start` still borrowed
    /// the downstream: `start` releases it when it returns, and moves on to `cancelled`.
    @usableFromInline static let detachedWhileStarting: UInt8 = 6
}

/// A mirror without children: the Swift runtime traps when it reflects a noncopyable stored property (an atomic)
/// of a generic class, which `dump` and test-failure messages would otherwise do.
extension SubjectConduit: CustomReflectable where Held: ~Copyable {
    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: [:]) }
}
