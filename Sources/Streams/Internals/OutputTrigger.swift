import Synchronization

/// What the trigger's first value does to a stage watching it.
@usableFromInline
enum TriggerRole: Sendable {
    /// `prefix(untilOutputFrom:)`: the stream finishes.
    case ends
    /// `drop(untilOutputFrom:)`: values pass from now on.
    case opens
}

/// The subscription of `prefix(untilOutputFrom:)` and `drop(untilOutputFrom:)`, and the receiver of their trigger's
/// events (through a ``TriggerSubscriber``). Both are stages (see ``StageLink``): their struct subscriber, which the
/// upstream holds, carries the values, and only the trigger meets them, from any thread, through `gate`:
/// - `drop(untilOutputFrom:)` (``TriggerRole/opens``): a value passes once the trigger has fired, one acquiring
///   load per value;
/// - `prefix(untilOutputFrom:)` (``TriggerRole/ends``): a delivery marks itself in `gate` around the call
///   downstream (two atomic read-modify-writes per value), so a trigger firing meanwhile on another thread
///   leaves the `.finished` to the delivering thread, sent when its call returns: calls downstream never overlap.
///
/// The trigger's subscription, and the downstream's copy used for completions (which may go from the trigger's
/// thread), are under `lock`, touched once per stream.
///
/// - Threading: `request` and `cancel` from any thread; the trigger's events from its own serial calls;
///   ``handOver()``, ``beginDelivery()``, ``endDelivery()``, ``isOpen`` and, for the upstream's completion,
///   ``end(with:)`` from the upstream's serial calls.
///
/// The subscriber is kept in an ``OptionalSlot`` parameter (`HeldDownstream` is `Downstream?`): `cancel()` (reached
/// through `any Subscription`) and `deinit` run unspecialised, where an `Optional<Downstream>` is a metadata lookup.
@usableFromInline
final class TriggeredStageCore<Downstream: Subscriber, TriggerFailure: Error, HeldDownstream: OptionalSlot>:
    Subscription, HoldsDownstreamInSlot, CustomStringConvertible, @unchecked Sendable
where HeldDownstream.Wrapped == Downstream {
    /// The upstream subscription (the stage keeps no per-value state in it).
    @usableFromInline
    let link: StageLink<Void, NoStageHooks>
    @usableFromInline
    let role: TriggerRole
    /// ``TriggerRole/opens``: the trigger fired (values pass). ``TriggerRole/ends``: the trigger fired, or a value
    /// is being delivered (see ``beginDelivery()``).
    @usableFromInline
    let gate = Atomic<UInt8>(0)
    /// For `drop(untilOutputFrom:)`: a trigger that completes without a value ends the stream with its completion
    /// (its failure converted). `nil` (`prefix`): such a trigger changes nothing.
    @usableFromInline
    let failureOfTrigger: ((TriggerFailure) -> Downstream.Failure)?
    /// Guards every `var` below (`@exclusivity(unchecked)`: each access is under it, or in `init`).
    @usableFromInline
    let lock = Lock()
    /// For the completion (the values go through the stage's own copy; ``HoldsDownstreamInSlot/downstream``); `nil`
    /// once one was sent or the downstream cancelled. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var held: HeldDownstream
    /// The trigger's subscription. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var trigger = TriggerLink.waiting

    /// Gate bits: the trigger fired; a value is being delivered.
    @usableFromInline
    static var fired: UInt8 { 1 }
    @usableFromInline
    static var delivering: UInt8 { 2 }

    @inlinable
    init(
        downstream: Downstream, name: StageName, role: TriggerRole,
        failureOfTrigger: ((TriggerFailure) -> Downstream.Failure)?
    ) where HeldDownstream == Downstream? {
        self.link = StageLink(name, state: (), hooks: NoStageHooks())
        self.role = role
        self.held = downstream
        self.failureOfTrigger = failureOfTrigger
    }

    @usableFromInline
    var description: String { link.description }

    /// Hands this subscription to the downstream (first, before the trigger and the upstream are subscribed).
    @inlinable
    func handOver() {
        lock.withLock { downstream }?.receive(subscription: self)
    }

    // MARK: The values (the upstream's serial calls)

    /// ``TriggerRole/opens``: whether the trigger has fired.
    @inlinable
    var isOpen: Bool { gate.load(ordering: .acquiring) & Self.fired != 0 }

    /// ``TriggerRole/ends``: marks a delivery as under way; `false` if the trigger has fired (deliver nothing).
    @inlinable
    func beginDelivery() -> Bool {
        gate.bitwiseOr(Self.delivering, ordering: .acquiringAndReleasing).oldValue & Self.fired == 0
    }

    /// ``TriggerRole/ends``: the delivery returned. `false` if the trigger fired meanwhile: this thread has sent
    /// the `.finished` it left (unless the downstream cancelled), and the value's demand is moot.
    @inlinable
    func endDelivery() -> Bool {
        let before = gate.bitwiseAnd(~Self.delivering, ordering: .acquiringAndReleasing).oldValue
        guard before & Self.fired != 0 else { return true }
        end(with: .finished)
        return false
    }

    // MARK: The downstream (any thread)

    @inlinable
    func request(_ demand: Subscribers.Demand) { link.request(demand) }

    @inlinable
    func cancel() {
        link.cancel()
        release()?.cancel()
    }

    // MARK: The trigger (its serial calls, on any thread)

    @inlinable
    func triggerReceive(subscription: any Subscription) {
        lock.lock()
        let accepted = trigger.accept(subscription, isWanted: !held.isNil)
        lock.unlock()
        if accepted { subscription.request(.max(1)) } else { subscription.cancel() }
    }

    @inlinable
    func triggerFired() {
        lock.lock()
        guard trigger.isLive else { return lock.unlock() }
        let fired = trigger.end()
        lock.unlock()
        _ = fired  // released (not cancelled, as in Combine) outside the lock
        switch role {
        case .opens:
            gate.store(Self.fired, ordering: .releasing)
        case .ends:
            guard link.finishAndCancel() else { return }  // the upstream completed first, or the subscriber cancelled
            let before = gate.bitwiseOr(Self.fired, ordering: .acquiringAndReleasing).oldValue
            if before & Self.delivering == 0 { end(with: .finished) }  // else sent by the delivering thread
        }
    }

    @inlinable
    func triggerReceive(completion: Subscribers.Completion<TriggerFailure>) {
        lock.lock()
        guard trigger.isLive else { return lock.unlock() }  // fired already (or ended): ignored
        let ended = trigger.end()
        lock.unlock()
        _ = ended
        // `drop(untilOutputFrom:)`: the trigger ended without a value, so does the stream, cancelling upstream.
        guard let failureOfTrigger, link.finishAndCancel() else { return }
        switch completion {
        case .finished: end(with: .finished)
        case .failure(let error): end(with: .failure(failureOfTrigger(error)))
        }
    }

    // MARK: The end

    /// Sends `completion` (the link has ended), unless the downstream cancelled, and cancels a live trigger.
    @inlinable
    func end(with completion: Subscribers.Completion<Downstream.Failure>) {
        lock.lock()
        let downstream = self.downstream.take()
        let live = trigger.end()
        lock.unlock()
        live?.cancel()
        downstream?.receive(completion: completion)
    }

    /// Drops the downstream and ends the trigger link, returning its subscription if it was live (to cancel).
    @inlinable
    func release() -> (any Subscription & AnyObject)? {
        lock.lock()
        let released = held
        held = nil
        let live = trigger.end()
        lock.unlock()
        _ = released  // destroyed here, outside the lock
        return live
    }
}

/// A mirror without children: the Swift runtime traps when it reflects a noncopyable stored property (an atomic) of
/// a generic class, which `dump` and test-failure messages would otherwise do.
extension TriggeredStageCore: CustomReflectable {
    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// The subscriber attached to the trigger publisher: forwards its events to the operator's core.
@usableFromInline
struct TriggerSubscriber<Input, Downstream: Subscriber, TriggerFailure: Error>: Subscriber, CustomStringConvertible {
    @usableFromInline
    typealias Failure = TriggerFailure

    /// Weak: the trigger publisher may outlive the operator (a trigger that fired is released, not cancelled,
    /// as in Combine, and a subject keeps its subscribers), and must not keep it alive. The operator is held
    /// by its upstream and its downstream while it matters.
    @usableFromInline
    weak var core: TriggeredStageCore<Downstream, TriggerFailure, Downstream?>?
    /// The operator's name, for `description`.
    @usableFromInline
    let name: StageName

    @inlinable
    init(core: TriggeredStageCore<Downstream, TriggerFailure, Downstream?>) {
        self.core = core
        self.name = core.link.name
    }

    @usableFromInline
    var description: String { name.rawValue }

    @inlinable
    func receive(subscription: any Subscription) {
        guard let core else { return subscription.cancel() }
        core.triggerReceive(subscription: subscription)
    }
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        core?.triggerFired()
        return .none
    }
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { core?.triggerReceive(completion: completion) }
}

/// Where the trigger's subscription stands, kept under its operator's lock.
@usableFromInline
enum TriggerLink {
    /// Not subscribed yet.
    case waiting
    /// Subscribed, asked for one value, none yet.
    case subscribed(any Subscription & AnyObject)
    /// Fired, completed, or no longer wanted: a subscription arriving now is cancelled.
    case done

    /// Takes the trigger's subscription if none arrived yet and the operator still has a subscriber (`isWanted`);
    /// called under the operator's lock. On `false` the caller cancels the subscription, outside the lock.
    @inlinable
    mutating func accept(_ subscription: any Subscription, isWanted: Bool) -> Bool {
        guard case .waiting = self, isWanted else { return false }
        self = .subscribed(SubscriptionSlot.object(subscription))
        return true
    }

    /// Ends the link, returning the subscription if it was live (for the caller to cancel or drop outside the
    /// lock).
    @inlinable
    mutating func end() -> (any Subscription & AnyObject)? {
        defer { self = .done }
        if case .subscribed(let subscription) = self { return subscription }
        return nil
    }

    /// Whether the subscription is live (subscribed and not fired).
    @inlinable
    var isLive: Bool {
        if case .subscribed = self { return true }
        return false
    }
}
