import Synchronization

/// What the emitter of a ``SubjectCore`` asks of one conduit.
@usableFromInline
enum BroadcastAction<Output, Failure: Error> {
    /// Deliver this value if there is demand (a `CurrentValueSubject` conduit keeps it otherwise).
    case value(Output)
    /// Deliver the kept value, if any and if there is demand.
    case latest
    /// Deliver the completion, then release the downstream.
    case finish(Subscribers.Completion<Failure>)
    /// The conduit was cancelled or refused: release the downstream.
    case detach
}

/// One subscriber in a ``SubjectCore``'s list: its identity and a closure into its conduit.
///
/// A closure rather than a class or protocol call: it is formed in the conduit's specialised (client)
/// code, so the emitter reaches the specialised delivery path; its context is the conduit itself.
@usableFromInline
struct BroadcastEntry<Output, Failure: Error> {
    @usableFromInline
    let id: ObjectIdentifier
    @usableFromInline
    let handle: (BroadcastAction<Output, Failure>) -> Void

    @inlinable
    init(id: ObjectIdentifier, handle: @escaping (BroadcastAction<Output, Failure>) -> Void) {
        self.id = id
        self.handle = handle
    }
}

/// The owner of conduits (a ``SubjectCore``): told when one is cancelled.
@usableFromInline
protocol ConduitParent: AnyObject, Sendable {
    associatedtype Output
    associatedtype Failure: Error
    func remove(_ conduit: ObjectIdentifier)
}

/// Which publisher a conduit belongs to (its `description`).
@usableFromInline
enum ConduitKind: Sendable {
    case passthroughSubject
    case currentValueSubject
    case share
}

/// The subscription a subject (or `share()`) gives each subscriber: its demand, and its deliveries.
///
/// Deliveries come only from the core's emitter, one at a time, so they need no lock here: demand is an
/// atomic counter (`UInt.max` = unlimited) that `request(_:)` adds to from any thread and the emitter
/// alone takes from; `state` says active / cancelled / finished. `downstream` and `latest` are touched
/// only by the emitter (after `start`), which is also who releases them — so a cancel racing with a
/// delivery never frees what the delivery is using.
@usableFromInline
final class SubjectConduit<Output, Failure: Error, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Output, Downstream.Failure == Failure {
    // Declaration order is layout order: the odd-sized fields come first, so with an `Int` output the object
    // is 56 bytes (a 64-byte heap block) rather than 64 (80).

    /// Emitter-owned: a `CurrentValueSubject`'s value not yet delivered to this subscriber.
    @usableFromInline
    @exclusivity(unchecked)
    var latest: Output?
    @usableFromInline
    let state = Atomic<UInt8>(State.starting)
    @usableFromInline
    let kind: ConduitKind
    /// A completion the emitter handed over while `start` was still running (written before `state`
    /// becomes `finishedWhileStarting`, read by `start` after it sees that state).
    @usableFromInline
    @exclusivity(unchecked)
    var pendingCompletion: Subscribers.Completion<Failure>?
    @usableFromInline
    weak var parent: SubjectCore<Output, Failure>?
    @usableFromInline
    let demand = Atomic<UInt>(0)
    /// Emitter-owned after `start`. Boxed: a delivery then retains one object, not every reference
    /// inside the subscriber (a `map`/`filter` chain holds one closure per stage), and `cancel` and
    /// `deinit`, which run unspecialised, clear it without a metadata lookup.
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: DownstreamBox<Downstream>?

    @usableFromInline
    typealias State = ConduitState

    @inlinable
    init(parent: SubjectCore<Output, Failure>, downstream: Downstream, latest: Output?, kind: ConduitKind) {
        self.parent = parent
        self.downstream = DownstreamBox(downstream)
        self.latest = latest
        self.kind = kind
    }

    @usableFromInline
    var description: String {
        switch kind {
        case .passthroughSubject: "PassthroughSubject"
        case .currentValueSubject: "CurrentValueSubject"
        case .share: "Share"
        }
    }

    @inlinable
    var keepsLatest: Bool { kind == .currentValueSubject }

    /// The entry the core keeps (formed here, in specialised code).
    @inlinable
    var entry: BroadcastEntry<Output, Failure> {
        BroadcastEntry(id: ObjectIdentifier(self)) { [self] action in handle(action) }
    }

    /// Hands the subscription to the subscriber (`downstream` is passed in: the emitter owns the field).
    ///
    /// Until this returns the conduit is `starting`: the emitter delivers no value to it, and a completion
    /// that arrives meanwhile is left in `pendingCompletion` for this method to deliver — so the subscriber
    /// always gets its subscription first.
    @inlinable
    func start(_ subscriber: Downstream) {
        subscriber.receive(subscription: self)
        if state.compareExchange(expected: State.starting, desired: State.active, ordering: .acquiringAndReleasing)
            .exchanged
        {
            if keepsLatest { parent?.deliverLatest(ObjectIdentifier(self)) }
            return
        }
        guard
            state.compareExchange(
                expected: State.finishedWhileStarting, desired: State.finished, ordering: .acquiringAndReleasing
            ).exchanged, let completion = pendingCompletion
        else { return }
        pendingCompletion = nil
        subscriber.receive(completion: completion)
    }

    /// Emitter only.
    @inlinable
    func handle(_ action: BroadcastAction<Output, Failure>) {
        switch action {
        case .value(let value):
            deliver(value)
        case .latest:
            guard state.load(ordering: .relaxed) == State.active, demand.load(ordering: .relaxed) > 0,
                let value = latest
            else { return }
            latest = nil
            deliver(value)
        case .finish(let completion):
            let released = downstream?.value
            downstream = nil
            latest = nil
            if state.compareExchange(expected: State.active, desired: State.finished, ordering: .acquiringAndReleasing)
                .exchanged
            {
                released?.receive(completion: completion)
                return
            }
            pendingCompletion = completion
            if !state.compareExchange(
                expected: State.starting, desired: State.finishedWhileStarting, ordering: .acquiringAndReleasing
            ).exchanged {
                pendingCompletion = nil  // cancelled: nothing to deliver
            }
        case .detach:
            // The emitter holds no lock here, so the downstream may be destroyed in place.
            downstream = nil
            if keepsLatest { latest = nil }
        }
    }

    /// Emitter only: one value, if this subscriber is active and has demand.
    @inlinable
    func deliver(_ value: Output) {
        let current = state.load(ordering: .relaxed)
        if current == State.starting {
            if keepsLatest { latest = value }  // delivered once `start` has finished
            return
        }
        guard current == State.active, let box = unretainedDownstream else { return }
        let available = demand.load(ordering: .relaxed)
        if available == 0 {
            if keepsLatest { latest = value }
            return
        }
        if available != .max { demand.wrappingSubtract(1, ordering: .relaxed) }
        if keepsLatest { latest = nil }
        let more = box._withUnsafeGuaranteedRef { $0.value.receive(value) }
        if more > .none { add(more) }
    }

    /// The boxed downstream, not retained: only this emitter clears `downstream`, and a detach or finish
    /// asked for during a delivery is queued until the delivery returns, so the box outlives the call.
    @inlinable
    var unretainedDownstream: Unmanaged<DownstreamBox<Downstream>>? {
        guard let box = downstream else { return nil }
        return Unmanaged.passUnretained(box)
    }

    /// Adds to the demand, saturating at unlimited.
    @inlinable
    func add(_ more: Subscribers.Demand) {
        var current = demand.load(ordering: .relaxed)
        while current != .max {
            let (sum, overflow) = current.addingReportingOverflow(more.rawValue)
            let next = overflow ? UInt.max : sum
            let (exchanged, found) = demand.compareExchange(
                expected: current, desired: next, ordering: .relaxed)
            if exchanged { return }
            current = found
        }
    }

    @inlinable
    func request(_ more: Subscribers.Demand) {
        let current = state.load(ordering: .relaxed)
        guard more > .none, current == State.active || current == State.starting else { return }
        add(more)
        if keepsLatest { parent?.deliverLatest(ObjectIdentifier(self)) }
    }

    @inlinable
    func cancel() {
        var current = state.load(ordering: .relaxed)
        while current == State.active || current == State.starting {
            let (exchanged, found) = state.compareExchange(
                expected: current, desired: State.cancelled, ordering: .acquiringAndReleasing)
            if exchanged { return parent?.remove(ObjectIdentifier(self)) ?? () }
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
    /// The completion arrived during `starting`; `start` delivers it.
    @usableFromInline static let finishedWhileStarting: UInt8 = 4
}
