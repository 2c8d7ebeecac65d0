/// What an operator over a fixed set of sources keeps between their values, and when it has something to
/// publish: the one part of `combineLatest` and `zip` that differs. ``CombiningCore`` runs the rest.
///
/// A state is a value, changed only under the core's lock: sides store into it through closures
/// (`{ $0.a.push($1) }`), the core asks it for the next output whenever the downstream has demand, and asks
/// whether any output can still come once a source has finished.
///
/// ```swift
/// struct ZipPair<A, B>: CombiningState {       // a queue per source; a tuple once each has a value
///     init() {}                                  // no values yet
///     static var name: String { "Zip" }
///     static var forwardsDemand: Bool { true }
///     mutating func next() -> (A, B)? { … }
///     var hasNext: Bool { … }                    // whether `next()` has a tuple now
///     func isExhausted(finished: FinishedSources) -> Bool { … }   // a finished source with nothing left
/// }
/// ```
@usableFromInline
protocol CombiningState {
    /// What the operator publishes (a tuple of the sources' values).
    associatedtype Output
    /// A state with no values: the start, and what replaces the state when the stream ends.
    init()
    /// The operator's name, for `description` (`"CombineLatest"`, `"Zip"`).
    static var name: String { get }
    /// `true`: each source is asked for exactly what the downstream asks (`zip`: a tuple takes one value of
    /// each); `false`: each source is asked for `.unlimited` when it subscribes (`combineLatest`).
    static var forwardsDemand: Bool { get }
    /// Called after a side stored a value, with the downstream's outstanding demand (`combineLatest`
    /// decides here whether the new combination is queued or only kept as the latest).
    mutating func didStore(demand: Subscribers.Demand)
    /// Removes and returns the next output, or `nil` when none is ready. Called only while the downstream
    /// has demand.
    mutating func next() -> Output?
    /// Whether ``next()`` would return an output now.
    var hasNext: Bool { get }
    /// Whether no output can ever come again, given which sources have finished (at least one has).
    /// The core then finishes, cancelling the sources still running.
    func isExhausted(finished: FinishedSources) -> Bool
}

extension CombiningState {
    @inlinable
    mutating func didStore(demand: Subscribers.Demand) {}
}

/// The one delivery loop of the operators over a fixed set of sources (`combineLatest`, `zip` and their
/// 3- and 4-source forms): it is the downstream's subscription and the core of one subscriber per source
/// (``Side``); the operator supplies only its ``CombiningState``.
///
/// - **Serial delivery.** Whoever changes the state (a source's value or completion, a downstream request)
///   and finds nobody delivering becomes the deliverer (it takes the ``DeliveryTurn``) and drains: it takes
///   outputs from the state while there is demand and calls the downstream outside the lock. Others only
///   change the state and leave, marking the turn; the deliverer sees their change before it stops. So the
///   downstream is never entered twice at once, and a request or a source's value sent from inside the
///   downstream's `receive` continues the loop instead of recursing. After the last output owed, the
///   deliverer gives the turn back without taking the lock again, unless the turn was marked.
/// - **Completion.** The first failure ends the stream at once: the sources still running are cancelled,
///   whatever the state holds is released, and the failure is delivered (after the value being delivered,
///   if any). `.finished` is delivered once the state says no output can come any more
///   (``CombiningState/isExhausted(finished:)``) and nothing deliverable is left, cancelling the sources
///   still running.
/// - **Cancellation.** `cancel()` cancels every source and releases the downstream and the state; nothing is
///   delivered after it returns, except a value already being delivered on another thread.
/// - **Threading.** Every source may call from its own thread; `request` and `cancel` from any thread. All
///   the state is under `lock`; the downstream and the sources are called outside it.
///
/// ```swift
/// let core = CombiningCore(state: ZipPair<A.Output, B.Output>(), count: 2, downstream: subscriber)
/// core.start()                                   // the downstream gets its subscription
/// core.subscribe(a, index: 0) { $0.a.push($1) }  // then each source, in order
/// core.subscribe(b, index: 1) { $0.b.push($1) }
/// ```
///
/// `request(_:)` and `cancel()` run as specialised code (see ``SpecialisedCall``); the subscriber and the pending
/// completion are kept in ``OptionalSlot`` parameters (`HeldDownstream` is `Downstream?`, `Pending` is
/// `Subscribers.Completion<Failure>?`), so the unspecialised `deinit` destroys them without a metadata lookup.
@usableFromInline
final class CombiningCore<
    State: CombiningState, Failure: Error, Downstream: Subscriber, HeldDownstream: OptionalSlot, Pending: OptionalSlot
>: Subscription, HoldsDownstreamInSlot, CustomStringConvertible, @unchecked Sendable
where
    Downstream.Input == State.Output, Downstream.Failure == Failure, HeldDownstream.Wrapped == Downstream,
    Pending.Wrapped == Subscribers.Completion<Failure>
{
    /// The subscriber attached to one source. Immutable after `init`; what it receives goes straight to the
    /// core, which takes `lock`.
    @usableFromInline
    final class Side<Input>: Subscriber, CustomStringConvertible, @unchecked Sendable {
        @usableFromInline
        let core: CombiningCore
        @usableFromInline
        let index: Int
        /// Stores a value of this source into the state (called with the lock held).
        @usableFromInline
        let store: (inout State, Input) -> Void

        @inlinable
        init(core: CombiningCore, index: Int, store: @escaping (inout State, Input) -> Void) {
            self.core = core
            self.index = index
            self.store = store
        }

        @usableFromInline
        var description: String { State.name }

        @inlinable
        func receive(subscription: any Subscription) { core.sideReceived(index, subscription: subscription) }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            core.sideReceived(self, value: input)
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            core.sideReceived(index, completion: completion)
        }
    }

    /// Guards every `var` below: `@exclusivity(unchecked)` is sound because each access is under it (or in
    /// `init`, before the core is shared).
    @usableFromInline
    let lock = Lock()
    /// The subscriber (``HoldsDownstreamInSlot/downstream``), `nil` once the completion was handed over or the
    /// downstream cancelled. Under `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var held: HeldDownstream
    /// The operator's values. Under `lock`; replaced by an empty `State()` when the stream ends, so the values it
    /// holds are released at once (outside the lock).
    @usableFromInline
    @exclusivity(unchecked)
    var state: State
    /// Each source's subscription, `nil` before it arrives and after the source ends; which sources have finished.
    /// Under `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var sources: CombiningSources
    /// The downstream's outstanding demand. Under `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none
    /// Whose turn it is to run the delivery loop (see ``DeliveryTurn``): taken and marked under `lock`, given back
    /// under it or, after the last output the loop had to deliver, without it.
    @usableFromInline
    let turn = DeliveryTurn()
    /// Whether the stream has ended (a completion decided, or cancelled). Under `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var isTerminal = false
    /// The completion decided but not yet delivered (``pendingCompletion``; the deliverer hands it over). Under
    /// `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var heldCompletion: Pending
    /// Runs `request(_:)` and `cancel()` as specialised code (see ``SpecialisedCall``). Immutable.
    @usableFromInline
    let specialised: (CombiningCore, SpecialisedCall) -> Void

    /// A core for `count` sources, starting from `state` (which holds no values).
    @inlinable
    init(state: State, count: Int, downstream: Downstream)
    where HeldDownstream == Downstream?, Pending == Subscribers.Completion<Failure>? {
        self.state = state
        self.held = downstream
        heldCompletion = nil
        sources = CombiningSources(count: count)
        specialised = SpecialisedCall.forwarding()
    }

    /// ``heldCompletion`` as a plain `Optional`. Under `lock`.
    @inlinable
    var pendingCompletion: Subscribers.Completion<Failure>? {
        get { heldCompletion.wrapped }
        set { heldCompletion.wrapped = newValue }
    }

    @usableFromInline
    var description: String { State.name }

    /// Hands the downstream its subscription; call before subscribing to the sources.
    @inlinable
    func start() {
        lock.lock()
        let downstream = self.downstream
        lock.unlock()
        downstream?.receive(subscription: self)
    }

    /// Subscribes to the source at `index`, whose values `store` writes into the state; nothing happens if the
    /// stream has already ended (an earlier source failed, or the downstream cancelled).
    @inlinable
    func subscribe<P: Publisher>(_ publisher: P, index: Int, store: @escaping (inout State, P.Output) -> Void)
    where P.Failure == Failure {
        lock.lock()
        let ended = isTerminal
        lock.unlock()
        guard !ended else { return }
        publisher.receive(subscriber: Side(core: self, index: index, store: store))
    }

    // MARK: Sources

    @inlinable
    func sideReceived(_ index: Int, subscription: any Subscription) {
        lock.lock()
        guard !isTerminal, sources[index] == nil, !sources.finished[index] else {
            lock.unlock()
            subscription.cancel()
            return
        }
        sources[index] = SubscriptionSlot.object(subscription)
        let initial = State.forwardsDemand ? demand : .unlimited
        lock.unlock()
        if initial > .none { subscription.request(initial) }
    }

    @inlinable
    func sideReceived<Input>(_ side: Side<Input>, value: Input) {
        lock.lock()
        guard !isTerminal, !sources.finished[side.index] else { return lock.unlock() }
        side.store(&state, value)
        state.didStore(demand: demand)
        guard turn.claimOrMarkLocked() else { return lock.unlock() }
        drainLocked()
    }

    @inlinable
    func sideReceived(_ index: Int, completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard !isTerminal, !sources.finished[index] else { return lock.unlock() }
        sources.finish(index)
        switch completion {
        case .failure(let error):
            endLocked(.failure(error))
        case .finished:
            guard turn.claimOrMarkLocked() else { return lock.unlock() }
            drainLocked()
        }
    }

    // MARK: Downstream

    @inlinable
    func request(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        specialised(self, .request(more))
    }

    /// `request(_:)`'s body, specialised (see ``specialised``).
    @inlinable
    func requestNow(_ more: Subscribers.Demand) {
        lock.lock()
        guard !isTerminal, downstream != nil else { return lock.unlock() }
        demand += more
        let upstreams = State.forwardsDemand ? sources : CombiningSources(count: 0)
        if turn.claimOrMarkLocked() {
            drainLocked()
        } else {
            lock.unlock()
        }
        upstreams.request(more)
    }

    /// `cancel()`'s body, specialised (see ``specialised``).
    @inlinable
    func cancelNow() {
        lock.lock()
        guard downstream != nil || !isTerminal else { return lock.unlock() }
        isTerminal = true
        let released = (downstream, state)
        downstream = nil
        state = State()
        pendingCompletion = nil
        let upstreams = sources.takeSubscriptions()
        lock.unlock()
        upstreams.cancel()
        _ = released
    }

    // MARK: Delivery loop

    /// Ends the stream with `completion` (lock held; returns with it released): the sources still running are
    /// cancelled, the state is released, and the completion is delivered now or by the running deliverer.
    @inlinable
    func endLocked(_ completion: Subscribers.Completion<Failure>) {
        guard !isTerminal, downstream != nil else { return lock.unlock() }
        isTerminal = true
        pendingCompletion = completion
        let released = state
        state = State()
        let upstreams = sources.takeSubscriptions()
        let delivers = turn.claimOrMarkLocked()
        lock.unlock()
        _ = released
        upstreams.cancel()
        if delivers {
            lock.lock()
            drainLocked()
        }
    }

    /// The loop (lock held, the turn taken by the caller; returns with the lock released): delivers the pending
    /// completion, else the next output while there is demand, else finishes when no output can come. After an
    /// output that leaves nothing to do (no more outputs owed, no source finished) the turn is given back without
    /// the lock, unless the downstream returned demand or somebody marked the turn meanwhile.
    @inlinable
    func drainLocked() {
        while true {
            if let completion = pendingCompletion {
                pendingCompletion = nil
                let target = downstream
                downstream = nil
                let released = state
                state = State()
                lock.unlock()
                _ = released
                target?.receive(completion: completion)
                return
            }
            // Ended without a completion to hand over: cancelled. (Checked without copying the downstream, which
            // only a delivery does: a copy is a retain and a release of each reference it holds.)
            guard !isTerminal else {
                turn.endLocked()
                return lock.unlock()
            }
            if demand > .none, let output = state.next() {
                guard let downstream else {
                    turn.endLocked()
                    return lock.unlock()
                }
                if demand != .unlimited { demand -= 1 }
                // Once this output is delivered the loop would stop, unless the state changes meanwhile (which marks
                // the turn): nothing more to deliver now, and no finished source to look at.
                let isLast = !(demand > .none && state.hasNext) && !sources.finished.any
                lock.unlock()
                let more = downstream.receive(output)
                if isLast && more == .none && turn.endsAtOnce() { return }
                lock.lock()
                if more > .none {
                    demand += more
                    if State.forwardsDemand {
                        let upstreams = sources
                        lock.unlock()
                        upstreams.request(more)
                        lock.lock()
                    }
                }
                continue
            }
            if !isTerminal && sources.finished.any && state.isExhausted(finished: sources.finished) {
                // No output can come any more: cancel the sources still running, then finish.
                isTerminal = true
                pendingCompletion = .finished
                let upstreams = sources.takeSubscriptions()
                lock.unlock()
                upstreams.cancel()
                lock.lock()
                continue
            }
            turn.endLocked()
            return lock.unlock()
        }
    }
}

// `request(_:)` and `cancel()` run `requestNow(_:)` and `cancelNow()` through `specialised`.
extension CombiningCore: SpecialisedSubscription {}

/// The sources of a ``CombiningCore`` (one to four): each one's subscription, held in place in the core (no array
/// to allocate) as a class-bound existential (a reference and a witness table, copied and released as a reference:
/// see ``SubscriptionSlot/object(_:)``), and which of them have finished. A value: the core copies it to call the
/// subscriptions outside its lock.
@usableFromInline
struct CombiningSources {
    @usableFromInline
    typealias Held = (any Subscription & AnyObject)?

    @usableFromInline
    var first: Held = nil
    @usableFromInline
    var second: Held = nil
    @usableFromInline
    var third: Held = nil
    @usableFromInline
    var fourth: Held = nil
    /// How many sources there are.
    @usableFromInline
    let count: Int
    /// Which sources have finished.
    @usableFromInline
    var finished: FinishedSources

    /// `count` sources (at most four: `combineLatest` and `zip` take two to four), none subscribed yet.
    @inlinable
    init(count: Int) {
        precondition(count <= 4, "combineLatest and zip take at most four sources")
        self.count = count
        finished = FinishedSources(count: count)
    }

    /// Source `index`'s subscription.
    @inlinable
    subscript(index: Int) -> Held {
        get {
            switch index {
            case 0: first
            case 1: second
            case 2: third
            default: fourth
            }
        }
        set {
            switch index {
            case 0: first = newValue
            case 1: second = newValue
            case 2: third = newValue
            default: fourth = newValue
            }
        }
    }

    /// Source `index` has finished: its subscription is dropped.
    @inlinable
    mutating func finish(_ index: Int) {
        finished.insert(index)
        self[index] = nil
    }

    /// Empties every slot and returns what they held, to be cancelled outside the lock.
    @inlinable
    mutating func takeSubscriptions() -> CombiningSources {
        let taken = self
        first = nil
        second = nil
        third = nil
        fourth = nil
        return taken
    }

    /// Asks every subscription held for `demand` (outside the lock).
    @inlinable
    func request(_ demand: Subscribers.Demand) {
        first?.request(demand)
        second?.request(demand)
        third?.request(demand)
        fourth?.request(demand)
    }

    /// Cancels every subscription held (outside the lock).
    @inlinable
    func cancel() {
        first?.cancel()
        second?.cancel()
        third?.cancel()
        fourth?.cancel()
    }
}

/// Which sources of a ``CombiningCore`` have finished: a collection of one `Bool` per source, stored as bits.
@usableFromInline
struct FinishedSources: RandomAccessCollection {
    @usableFromInline
    var bits: UInt8 = 0
    @usableFromInline
    let count: Int

    @inlinable
    init(count: Int) { self.count = count }

    @inlinable
    var startIndex: Int { 0 }
    @inlinable
    var endIndex: Int { count }

    /// Whether source `index` has finished.
    @inlinable
    subscript(index: Int) -> Bool { bits & (1 << index) != 0 }

    /// Whether any source has finished.
    @inlinable
    var any: Bool { bits != 0 }

    /// Marks source `index` finished.
    @inlinable
    mutating func insert(_ index: Int) { bits |= 1 << index }
}
