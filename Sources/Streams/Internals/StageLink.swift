import Synchronization

/// The subscription of a *stage*: an operator with one upstream whose work on each value is done by the
/// upstream's own serial calls. It is the one per-value path of the stateful single-upstream operators
/// (`scan`, `removeDuplicates`, `prefix`, `dropFirst`, `tryMap`, `handleEvents`, the ``ValueStepStage``
/// family, `collect(n)`, `nwise`/`pairwise`, `measureInterval`, `replaceEmpty`, `drop`/`prefix(untilOutputFrom:)`
/// and the reducing operators through ``ReducingInner``), and it takes no lock and no atomic read-modify-write per
/// value (`prefix(untilOutputFrom:)` adds two, to meet its trigger: see ``TriggeredStageCore``).
///
/// A stage is two objects:
/// - a **struct subscriber** the operator hands upstream (like `map`'s), holding the downstream, the
///   operator's closures and this link. The upstream owns it: it keeps it alive during each call and
///   releases it, and with it the downstream, when the stream completes or is cancelled;
/// - this **link**, the downstream's subscription: demand and cancellation go through it to the upstream
///   subscription, and it holds the operator's per-value state.
///
/// Why no lock is needed per value: Combine's contract serialises the upstream's calls into a subscriber
/// (`receive(subscription:)`, `receive(_:)`, `receive(completion:)` never overlap and each happens after the
/// previous), so `state`, touched only from those calls, is owned by whoever delivers. Nothing the
/// per-value path uses is ever released while it runs: the downstream and the closures live in the struct
/// the upstream is calling; `upstream` is written once, before anyone else can see it, and only released
/// with the link. What a value costs is one relaxed load of `phase` (nothing reaches the downstream once it
/// has cancelled).
///
/// `phase` goes `waiting` → `attaching` → `subscribed` → `terminal`, or straight to `terminal` from any of
/// them, and says who may touch `upstream`: the attach writes it while `attaching`, and `request` and
/// `cancel` read it only after seeing `subscribed`. Demand requested before the attach (`dropFirst` hands
/// the downstream its subscription first) waits in `pending` and is forwarded by whichever side sees the
/// other: the attach takes it after moving to `subscribed`; a request that added to it re-reads the phase
/// and, if the attach has happened meanwhile, takes it back itself. Those steps are sequentially
/// consistent, so one of the two always sees the other.
///
/// The struct subscriber holds the link and the upstream subscription holds the struct subscriber: the
/// cycle ends when the upstream lets go of its subscriber (on completion or cancel), as in Combine.
///
/// - Threading: `request` and `cancel` from any thread; everything else from the upstream's serial calls.
///
/// ```swift
/// func receive(_ input: Input) -> Subscribers.Demand {
///     guard link.isLive else { return .none }
///     link.state = next(link.state, input)   // no lock: the upstream calls serially
///     return downstream.receive(link.state)
/// }
/// ```
@usableFromInline
final class StageLink<State, Hooks: StageHooks>: Subscription, CustomStringConvertible, @unchecked Sendable {
    @usableFromInline
    let phase = Atomic<UInt8>(StagePhase.waiting)
    /// The operator, for `description`: one byte beside `phase`, where a `String` took sixteen in every link.
    @usableFromInline
    let name: StageName
    /// Raw demand requested before the link was subscribed (`UInt.max` = unlimited).
    @usableFromInline
    let pending = Atomic<UInt>(0)
    /// The upstream subscription: written once by `attach` while `attaching` (before any other thread can
    /// read it), read by `request` and `cancel` only after they see `subscribed`, released with the link.
    /// `@exclusivity(unchecked)` is sound because of that single write, ordered by `phase`.
    @usableFromInline
    @exclusivity(unchecked)
    var upstream = SubscriptionSlot()
    /// The operator's per-value state (a count, the running result, the previous value). Touched only from
    /// the upstream's serial calls, which order themselves: no lock, and `@exclusivity(unchecked)`.
    @usableFromInline
    @exclusivity(unchecked)
    var state: State
    /// What the operator does on a request or a cancel (`handleEvents`), or nothing (``NoStageHooks``).
    @usableFromInline
    let hooks: Hooks

    @inlinable
    init(_ name: StageName, state: State, hooks: Hooks) {
        self.name = name
        self.state = state
        self.hooks = hooks
    }

    /// The operator's name, as Combine's subscriptions describe themselves ("Scan", "Drop"…).
    @usableFromInline
    var description: String { name.rawValue }

    /// Whether the downstream still wants events: `false` once it has cancelled or the stream has ended. A
    /// relaxed load: a cancel racing with a delivery may let that one value through, as in Combine.
    @inlinable
    var isLive: Bool { phase.load(ordering: .relaxed) != StagePhase.terminal }

    /// Stores the upstream subscription and forwards the demand requested before it arrived. `false` if the
    /// link already has one or has ended: `subscription` is cancelled then, and the caller stops.
    @inlinable
    func attach(_ subscription: any Subscription) -> Bool {
        guard
            phase.compareExchange(
                expected: StagePhase.waiting, desired: StagePhase.attaching, ordering: .acquiringAndReleasing
            ).exchanged
        else {
            subscription.cancel()
            return false
        }
        upstream.store(subscription)
        guard
            phase.compareExchange(
                expected: StagePhase.attaching, desired: StagePhase.subscribed, ordering: .sequentiallyConsistent
            ).exchanged
        else {
            subscription.cancel()  // cancelled while attaching
            return false
        }
        let raw = pending.exchange(0, ordering: .sequentiallyConsistent)
        if raw > 0 { subscription.request(Subscribers.Demand(rawValue: raw)) }
        return true
    }

    /// ``attach(_:)``, then hands this link to `downstream` as its subscription: what most stages'
    /// `receive(subscription:)` is.
    @inlinable
    func attach<Downstream: Subscriber>(_ subscription: any Subscription, handingTo downstream: Downstream) {
        guard attach(subscription) else { return }
        downstream.receive(subscription: self)
    }

    /// The upstream completed: forwards `completion` to `downstream` unless the link has ended already (a
    /// cancel, or the operator's own end), so exactly one completion is sent, and none after a cancel.
    @inlinable
    func forward<Downstream: Subscriber>(
        _ completion: Subscribers.Completion<Downstream.Failure>, to downstream: Downstream
    ) {
        guard finish() else { return }
        downstream.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        var current = phase.load(ordering: .sequentiallyConsistent)
        if current == StagePhase.subscribed {
            hooks.willRequest(demand)
            return upstream.request(hooks.upstreamDemand(for: demand))
        }
        guard current != StagePhase.terminal else { return }
        hooks.willRequest(demand)
        // Not attached yet: keep it for the attach, then look again in case the attach has just taken what
        // was pending without this.
        addPending(hooks.upstreamDemand(for: demand))
        current = phase.load(ordering: .sequentiallyConsistent)
        guard current == StagePhase.subscribed else { return }
        let raw = pending.exchange(0, ordering: .sequentiallyConsistent)
        if raw > 0 { upstream.request(Subscribers.Demand(rawValue: raw)) }
    }

    /// The downstream cancels: ends the link (once) and cancels upstream if it is attached.
    @inlinable
    func cancel() {
        let previous = phase.exchange(StagePhase.terminal, ordering: .acquiringAndReleasing)
        guard previous != StagePhase.terminal else { return }
        hooks.willCancel()
        hooks.release()
        if previous == StagePhase.subscribed { upstream.cancel() }
    }

    /// The upstream completed: ends the link. `true` only if it was live, so the caller forwards exactly one
    /// completion and none after a cancel.
    @inlinable
    func finish() -> Bool {
        guard phase.exchange(StagePhase.terminal, ordering: .acquiringAndReleasing) != StagePhase.terminal else {
            return false
        }
        hooks.release()
        return true
    }

    /// The operator ends the stream itself (`prefix` reached its count, `tryMap` threw): ends the link and
    /// cancels upstream. `true` only if it was live: the caller then sends its completion.
    @inlinable
    func finishAndCancel() -> Bool {
        let previous = phase.exchange(StagePhase.terminal, ordering: .acquiringAndReleasing)
        guard previous != StagePhase.terminal else { return false }
        hooks.release()
        if previous == StagePhase.subscribed { upstream.cancel() }
        return true
    }

    /// Adds to `pending`, saturating at `.unlimited`.
    @inlinable
    func addPending(_ demand: Subscribers.Demand) {
        pending.addDemand(demand, sequentiallyConsistent: true)
    }
}

/// A mirror without children: the Swift runtime traps when it reflects a noncopyable stored property (an
/// atomic) of a generic class, which `dump` and test-failure messages would otherwise do.
extension StageLink: CustomReflectable {
    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// What a stage does when its downstream requests or cancels, before the link forwards it upstream.
/// `willRequest` is called from any thread, and may race with the end of the link. `willCancel` and then
/// `release` are called only by the thread that ended the link (the one whose exchange moved `phase` to
/// `terminal`), once each: `release` when the link ends in any way, `willCancel` just before it when the end is
/// a cancel. So what `release` drops, `willCancel` may read without a lock; only what `willRequest` reads needs
/// one (see ``HandleEventsHooks``).
@usableFromInline
protocol StageHooks {
    func willRequest(_ demand: Subscribers.Demand)
    func willCancel()
    func release()
    /// What the link asks its upstream for when the downstream requests `demand`: the same for most stages,
    /// `count` times as much for `collect(count)`, which publishes one array per `count` values. A pure function
    /// of `demand`, called from any thread.
    func upstreamDemand(for demand: Subscribers.Demand) -> Subscribers.Demand
}

extension StageHooks {
    /// The downstream's demand, unchanged.
    @inlinable
    func upstreamDemand(for demand: Subscribers.Demand) -> Subscribers.Demand { demand }
}

/// The hooks of every stage but `handleEvents`: nothing (an empty value, stored in no bytes).
@usableFromInline
struct NoStageHooks: StageHooks {
    @inlinable
    init() {}
    @inlinable
    func willRequest(_ demand: Subscribers.Demand) {}
    @inlinable
    func willCancel() {}
    @inlinable
    func release() {}
}

/// The operators whose subscription is a ``StageLink``, by the name the link's `description` gives: a new stage
/// adds its case here. Stored as one byte; the name is the raw value.
@usableFromInline
enum StageName: String, Sendable {
    case prefix = "Prefix"
    case dropFirst = "Drop"
    case tryMap = "TryMap"
    case handleEvents = "HandleEvents"
    case ignoreOutput = "IgnoreOutput"
    case removeDuplicates = "RemoveDuplicates"
    case scan = "Scan"
    case prefixWhile = "PrefixWhile"
    case tryPrefixWhile = "TryPrefixWhile"
    case tryFilter = "TryFilter"
    case dropWhile = "DropWhile"
    case tryDropWhile = "TryDropWhile"
    case tryScan = "TryScan"
    case output = "Output"
    case tryCompactMap = "TryCompactMap"
    case tryRemoveDuplicates = "TryRemoveDuplicates"
    /// A reducing operator's link (see ``ReducingInner``), which the downstream never sees: its subscription is
    /// the ``HeldResultCore``, which describes itself.
    case reducing = "Reducing"
    case collectByCount = "CollectByCount"
    case nwise = "Nwise"
    case pairwise = "Pairwise"
    case measureInterval = "MeasureInterval"
    case replaceEmpty = "ReplaceEmpty"
    case prefixUntilOutput = "PrefixUntilOutput"
    case dropUntilOutput = "DropUntilOutput"
    /// `receive(on:)` on an ``ImmediateScheduler`` (a ``ValueStepStage`` that publishes each value).
    case receiveOn = "ReceiveOn"
    /// `subscribe(_:)` of a subject (see ``SubjectRelay``): the link is the cancellable it returns.
    case subjectRelay = "Subject"
}

/// The phases of a ``StageLink``.
@usableFromInline
enum StagePhase {
    @usableFromInline static let waiting: UInt8 = 0
    @usableFromInline static let attaching: UInt8 = 1
    @usableFromInline static let subscribed: UInt8 = 2
    @usableFromInline static let terminal: UInt8 = 3
}
