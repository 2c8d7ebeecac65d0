/// What an operator over a fixed set of sources keeps between their values, and when it has something to
/// publish: the one part of `combineLatest` and `zip` that differs. ``CombiningCore`` runs the rest.
///
/// A state is a value, changed only under the core's lock: sides store into it through closures
/// (`{ $0.a.push($1) }`), the core asks it for the next output whenever the downstream has demand, and asks
/// whether any output can still come once a source has finished.
///
/// ```swift
/// struct ZipPair<A, B>: CombiningState {       // a queue per source; a tuple once each has a value
///     static var name: String { "Zip" }
///     static var forwardsDemand: Bool { true }
///     mutating func next() -> (A, B)? { … }
///     func isExhausted(finished: [Bool]) -> Bool { … }   // a finished source with nothing left
/// }
/// ```
@usableFromInline
protocol CombiningState {
    /// What the operator publishes (a tuple of the sources' values).
    associatedtype Output
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
    /// Whether no output can ever come again, given which sources have finished (at least one has).
    /// The core then finishes, cancelling the sources still running.
    func isExhausted(finished: [Bool]) -> Bool
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
///   and finds nobody delivering becomes the deliverer (`isDelivering`) and drains: it takes outputs from the
///   state while there is demand and calls the downstream outside the lock. Others only change the state
///   and leave; the deliverer sees their change before it stops. So the downstream is never entered twice
///   at once, and a request or a source's value sent from inside the downstream's `receive` continues the
///   loop instead of recursing.
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
    /// The operator's values. Under `lock`; swapped for `emptyState` when the stream ends, so the values it
    /// holds are released at once (outside the lock).
    @usableFromInline
    @exclusivity(unchecked)
    var state: State
    /// The state as it was at the start (no values): immutable.
    @usableFromInline
    let emptyState: State
    /// Each source's subscription, `nil` before it arrives and after the source ends. Under `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var subscriptions: [(any Subscription)?]
    /// Which sources have finished, and how many. Under `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var finished: [Bool]
    @usableFromInline
    @exclusivity(unchecked)
    var finishedCount = 0
    /// The downstream's outstanding demand. Under `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none
    /// Whether a thread is running the delivery loop. Under `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var isDelivering = false
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
        self.emptyState = state
        self.held = downstream
        heldCompletion = nil
        subscriptions = Self.repeated(nil, count: count)
        finished = Self.repeated(false, count: count)
        specialised = SpecialisedCall.forwarding()
    }

    /// `count` copies of `value`, from an array literal for the operators' 2 to 4 sources: `Array(repeating:count:)`
    /// allocates through a standard-library entry point that looks the storage class up at run time on every call,
    /// even from specialised code (~8 % of a `zip` subscribe + cancel); a literal's storage type is resolved once.
    @inlinable
    static func repeated<Element>(_ value: Element, count: Int) -> [Element] {
        guard count <= 4 else { return Array(repeating: value, count: count) }
        var array = [value, value, value, value]
        array.removeLast(4 - count)  // in place: the storage is kept
        return array
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
        guard !isTerminal, subscriptions[index] == nil, !finished[index] else {
            lock.unlock()
            subscription.cancel()
            return
        }
        subscriptions[index] = subscription
        let initial = State.forwardsDemand ? demand : .unlimited
        lock.unlock()
        if initial > .none { subscription.request(initial) }
    }

    @inlinable
    func sideReceived<Input>(_ side: Side<Input>, value: Input) {
        lock.lock()
        guard !isTerminal, !finished[side.index] else { return lock.unlock() }
        side.store(&state, value)
        state.didStore(demand: demand)
        if isDelivering { return lock.unlock() }
        isDelivering = true
        drainLocked()
    }

    @inlinable
    func sideReceived(_ index: Int, completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard !isTerminal, !finished[index] else { return lock.unlock() }
        finished[index] = true
        finishedCount += 1
        subscriptions[index] = nil
        switch completion {
        case .failure(let error):
            endLocked(.failure(error))
        case .finished:
            if isDelivering { return lock.unlock() }
            isDelivering = true
            drainLocked()
        }
    }

    // MARK: Downstream

    @inlinable
    func request(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        specialised(self, .request(more))
    }

    @inlinable
    func cancel() { specialised(self, .cancel) }

    /// `request(_:)`'s body, specialised (see ``specialised``).
    @inlinable
    func requestNow(_ more: Subscribers.Demand) {
        lock.lock()
        guard !isTerminal, downstream != nil else { return lock.unlock() }
        demand += more
        let upstreams = State.forwardsDemand ? subscriptions : []
        if isDelivering {
            lock.unlock()
        } else {
            isDelivering = true
            drainLocked()
        }
        for subscription in upstreams { subscription?.request(more) }
    }

    /// `cancel()`'s body, specialised (see ``specialised``).
    @inlinable
    func cancelNow() {
        lock.lock()
        guard downstream != nil || !isTerminal else { return lock.unlock() }
        isTerminal = true
        let released = (downstream, state)
        downstream = nil
        state = emptyState
        pendingCompletion = nil
        let upstreams = takeSubscriptionsLocked()
        lock.unlock()
        for subscription in upstreams { subscription?.cancel() }
        _ = released
    }

    // MARK: Delivery loop

    /// Empties `subscriptions` and returns what it held, to be cancelled outside the lock.
    @inlinable
    func takeSubscriptionsLocked() -> [(any Subscription)?] {
        let taken = subscriptions
        for index in subscriptions.indices { subscriptions[index] = nil }
        return taken
    }

    /// Ends the stream with `completion` (lock held; returns with it released): the sources still running are
    /// cancelled, the state is released, and the completion is delivered now or by the running deliverer.
    @inlinable
    func endLocked(_ completion: Subscribers.Completion<Failure>) {
        guard !isTerminal, downstream != nil else { return lock.unlock() }
        isTerminal = true
        pendingCompletion = completion
        let released = state
        state = emptyState
        let upstreams = takeSubscriptionsLocked()
        let delivers = !isDelivering
        isDelivering = true
        lock.unlock()
        _ = released
        for subscription in upstreams { subscription?.cancel() }
        if delivers {
            lock.lock()
            drainLocked()
        }
    }

    /// The loop (lock held, `isDelivering` set by the caller; returns with the lock released): delivers the
    /// pending completion, else the next output while there is demand, else finishes when no output can come.
    @inlinable
    func drainLocked() {
        while true {
            if let completion = pendingCompletion {
                pendingCompletion = nil
                let target = downstream
                downstream = nil
                let released = state
                state = emptyState
                lock.unlock()
                _ = released
                target?.receive(completion: completion)
                return
            }
            guard let downstream else {
                isDelivering = false
                return lock.unlock()
            }
            if demand > .none, let output = state.next() {
                if demand != .unlimited { demand -= 1 }
                lock.unlock()
                let more = downstream.receive(output)
                lock.lock()
                if more > .none {
                    demand += more
                    if State.forwardsDemand {
                        let upstreams = subscriptions
                        lock.unlock()
                        for subscription in upstreams { subscription?.request(more) }
                        lock.lock()
                    }
                }
                continue
            }
            if !isTerminal && finishedCount > 0 && state.isExhausted(finished: finished) {
                // No output can come any more: cancel the sources still running, then finish.
                isTerminal = true
                pendingCompletion = .finished
                let upstreams = takeSubscriptionsLocked()
                lock.unlock()
                for subscription in upstreams { subscription?.cancel() }
                lock.lock()
                continue
            }
            isDelivering = false
            return lock.unlock()
        }
    }
}

// `request(_:)` and `cancel()` run `requestNow(_:)` and `cancelNow()` through `specialised`.
extension CombiningCore: SpecialisedSubscription {}
