extension Publisher {
    /// Publishes a tuple of the latest values of this publisher and `other` whenever either emits,
    /// once both have emitted at least once.
    ///
    /// - Demand: both sources are asked for `.unlimited`; their latest values are kept. A combination
    ///   produced while the downstream has demand is delivered (in order, none lost); while it has none,
    ///   only the newest combination is kept and delivered when demand arrives. (Combine leaves this
    ///   case loosely specified; this is our precise rule.)
    /// - Completion: finishes when both have finished, or at once when one finishes without ever having
    ///   emitted (no combination can follow). A kept combination is delivered before `.finished`.
    ///   A failure of either cancels the other and is delivered at once.
    /// - Cancellation: cancelling cancels both sources and releases the kept values; nothing is
    ///   delivered after `cancel()` returns.
    /// - Threading: delivered serially, on the thread of the source that triggers it.
    ///
    /// ```swift
    /// let c = name.combineLatest(age).sink { print("\($0.0) is \($0.1)") }
    /// ```
    @inlinable
    public func combineLatest<Other: Publisher>(_ other: Other) -> Publishers.CombineLatest<Self, Other>
    where Other.Failure == Failure {
        Publishers.CombineLatest(self, other)
    }

    /// Like ``combineLatest(_:)``, passing the latest values through `transform`.
    ///
    /// Same contract as ``combineLatest(_:)``; `transform` runs once per delivered combination, on the
    /// delivering thread.
    ///
    /// ```swift
    /// let total = price.combineLatest(quantity) { $0 * Double($1) }
    /// ```
    @inlinable
    public func combineLatest<Other: Publisher, T>(
        _ other: Other, _ transform: @escaping (Output, Other.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest<Self, Other>, T> where Other.Failure == Failure {
        Publishers.CombineLatest(self, other).map(transform)
    }

    /// Publishes a tuple of the latest values of this publisher, `b` and `c` whenever one emits, once
    /// all three have emitted at least once.
    ///
    /// - Demand: every source is asked for `.unlimited`; their latest values are kept. A combination
    ///   produced while the downstream has demand is delivered (in order, none lost); while it has none,
    ///   only the newest combination is kept and delivered when demand arrives.
    /// - Completion: finishes when all three have finished, or at once when one finishes without ever
    ///   having emitted (no combination can follow), cancelling the others. A kept combination is
    ///   delivered before `.finished`. The first failure cancels the others and is delivered at once.
    /// - Cancellation: cancelling cancels every source and releases the kept values; nothing is
    ///   delivered after `cancel()` returns.
    /// - Threading: delivered serially, on the thread of the source that triggers it.
    ///
    /// ```swift
    /// let c = r.combineLatest(g, b).sink { print($0) }   // (r, g, b) whenever one of them changes
    /// ```
    @inlinable
    public func combineLatest<B: Publisher, C: Publisher>(
        _ b: B, _ c: C
    ) -> Publishers.CombineLatest3<Self, B, C> where B.Failure == Failure, C.Failure == Failure {
        Publishers.CombineLatest3(self, b, c)
    }

    /// Like `combineLatest(_:_:)`, passing the latest values through `transform`.
    ///
    /// Same contract as `combineLatest(_:_:)`; `transform` runs once per delivered combination, on
    /// the delivering thread.
    ///
    /// ```swift
    /// let color = r.combineLatest(g, b) { Color(red: $0, green: $1, blue: $2) }
    /// ```
    @inlinable
    public func combineLatest<B: Publisher, C: Publisher, T>(
        _ b: B, _ c: C, _ transform: @escaping (Output, B.Output, C.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest3<Self, B, C>, T> where B.Failure == Failure, C.Failure == Failure {
        Publishers.CombineLatest3(self, b, c).map(transform)
    }

    /// Publishes a tuple of the latest values of this publisher, `b`, `c` and `d` whenever one emits,
    /// once all four have emitted at least once.
    ///
    /// - Demand: every source is asked for `.unlimited`; their latest values are kept. A combination
    ///   produced while the downstream has demand is delivered (in order, none lost); while it has none,
    ///   only the newest combination is kept and delivered when demand arrives.
    /// - Completion: finishes when all four have finished, or at once when one finishes without ever
    ///   having emitted (no combination can follow), cancelling the others. A kept combination is
    ///   delivered before `.finished`. The first failure cancels the others and is delivered at once.
    /// - Cancellation: cancelling cancels every source and releases the kept values; nothing is
    ///   delivered after `cancel()` returns.
    /// - Threading: delivered serially, on the thread of the source that triggers it.
    ///
    /// ```swift
    /// let c = query.combineLatest(sort, page, filter).sink { print($0) }   // a 4-tuple on every change
    /// ```
    @inlinable
    public func combineLatest<B: Publisher, C: Publisher, D: Publisher>(
        _ b: B, _ c: C, _ d: D
    ) -> Publishers.CombineLatest4<Self, B, C, D>
    where B.Failure == Failure, C.Failure == Failure, D.Failure == Failure {
        Publishers.CombineLatest4(self, b, c, d)
    }

    /// Like `combineLatest(_:_:_:)`, passing the latest values through `transform`.
    ///
    /// Same contract as `combineLatest(_:_:_:)`; `transform` runs once per delivered combination, on
    /// the delivering thread.
    ///
    /// ```swift
    /// let search = query.combineLatest(sort, page, filter) { Search(query: $0, sort: $1, page: $2, filter: $3) }
    /// ```
    @inlinable
    public func combineLatest<B: Publisher, C: Publisher, D: Publisher, T>(
        _ b: B, _ c: C, _ d: D, _ transform: @escaping (Output, B.Output, C.Output, D.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest4<Self, B, C, D>, T>
    where B.Failure == Failure, C.Failure == Failure, D.Failure == Failure {
        Publishers.CombineLatest4(self, b, c, d).map(transform)
    }
}

extension Publishers {
    /// The publisher returned by `combineLatest(_:)`: the latest values of two sources, whenever one of
    /// them emits, once both have emitted.
    ///
    /// Its contract (demand, completion, cancellation, threading) is that of
    /// ``Publisher/combineLatest(_:)``.
    ///
    /// ```swift
    /// let c = Publishers.CombineLatest(name, age).sink { print($0) }
    /// ```
    public struct CombineLatest<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        /// A tuple of both latest values.
        public typealias Output = (A.Output, B.Output)
        /// The shared failure type.
        public typealias Failure = A.Failure

        /// The first source.
        public let a: A
        /// The second source.
        public let b: B

        /// Combines `a` and `b`.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Attaches `subscriber`, then subscribes to `a` and `b` in that order.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let core = CombineLatestCore(slots: LatestPair<A.Output, B.Output>(), count: 2, downstream: subscriber)
            core.start()
            core.subscribe(a, index: 0, store: { $0.a = $1 }, isEmpty: { $0.a == nil })
            core.subscribe(b, index: 1, store: { $0.b = $1 }, isEmpty: { $0.b == nil })
        }
    }

    /// The publisher returned by `combineLatest(_:_:)`: the latest values of three sources, whenever
    /// one of them emits, once all three have emitted.
    ///
    /// Its contract (demand, completion, cancellation, threading) is that of
    /// `combineLatest(_:_:)`.
    ///
    /// ```swift
    /// let c = Publishers.CombineLatest3(r, g, b).sink { print($0) }
    /// ```
    public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, A.Failure == C.Failure {
        /// A tuple of the three latest values.
        public typealias Output = (A.Output, B.Output, C.Output)
        /// The shared failure type.
        public typealias Failure = A.Failure

        /// The first source.
        public let a: A
        /// The second source.
        public let b: B
        /// The third source.
        public let c: C

        /// Combines `a`, `b` and `c`.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Attaches `subscriber`, then subscribes to the sources in order.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let core = CombineLatestCore(
                slots: LatestTriple<A.Output, B.Output, C.Output>(), count: 3, downstream: subscriber)
            core.start()
            core.subscribe(a, index: 0, store: { $0.a = $1 }, isEmpty: { $0.a == nil })
            core.subscribe(b, index: 1, store: { $0.b = $1 }, isEmpty: { $0.b == nil })
            core.subscribe(c, index: 2, store: { $0.c = $1 }, isEmpty: { $0.c == nil })
        }
    }

    /// The publisher returned by `combineLatest(_:_:_:)`: the latest values of four sources, whenever
    /// one of them emits, once all four have emitted.
    ///
    /// Its contract (demand, completion, cancellation, threading) is that of
    /// `combineLatest(_:_:_:)`.
    ///
    /// ```swift
    /// let cancellable = Publishers.CombineLatest4(a, b, c, d).sink { print($0) }
    /// ```
    public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, A.Failure == C.Failure, A.Failure == D.Failure {
        /// A tuple of the four latest values.
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        /// The shared failure type.
        public typealias Failure = A.Failure

        /// The first source.
        public let a: A
        /// The second source.
        public let b: B
        /// The third source.
        public let c: C
        /// The fourth source.
        public let d: D

        /// Combines `a`, `b`, `c` and `d`.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Attaches `subscriber`, then subscribes to the sources in order.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let core = CombineLatestCore(
                slots: LatestQuadruple<A.Output, B.Output, C.Output, D.Output>(), count: 4, downstream: subscriber)
            core.start()
            core.subscribe(a, index: 0, store: { $0.a = $1 }, isEmpty: { $0.a == nil })
            core.subscribe(b, index: 1, store: { $0.b = $1 }, isEmpty: { $0.b == nil })
            core.subscribe(c, index: 2, store: { $0.c = $1 }, isEmpty: { $0.c == nil })
            core.subscribe(d, index: 3, store: { $0.d = $1 }, isEmpty: { $0.d == nil })
        }
    }
}

// Equal when their sources are equal, as in Combine.
extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {}
extension Publishers.CombineLatest3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.CombineLatest4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

/// The latest value of each source of a `combineLatest`.
@usableFromInline
protocol LatestSlots {
    associatedtype Output
    /// All latest values as a tuple, or `nil` while a source has not emitted.
    var combined: Output? { get }
}

@usableFromInline
struct LatestPair<A, B>: LatestSlots {
    @usableFromInline
    var a: A?
    @usableFromInline
    var b: B?

    @inlinable
    init() {}

    @inlinable
    var combined: (A, B)? {
        guard let a, let b else { return nil }
        return (a, b)
    }
}

@usableFromInline
struct LatestTriple<A, B, C>: LatestSlots {
    @usableFromInline
    var a: A?
    @usableFromInline
    var b: B?
    @usableFromInline
    var c: C?

    @inlinable
    init() {}

    @inlinable
    var combined: (A, B, C)? {
        guard let a, let b, let c else { return nil }
        return (a, b, c)
    }
}

@usableFromInline
struct LatestQuadruple<A, B, C, D>: LatestSlots {
    @usableFromInline
    var a: A?
    @usableFromInline
    var b: B?
    @usableFromInline
    var c: C?
    @usableFromInline
    var d: D?

    @inlinable
    init() {}

    @inlinable
    var combined: (A, B, C, D)? {
        guard let a, let b, let c, let d else { return nil }
        return (a, b, c, d)
    }
}

/// The subscription of `combineLatest`; all state under `lock`, nothing called out under it.
///
/// `@inlinable` throughout, so a pipeline's `combineLatest` is specialised for its types. Each side writes
/// its slot through a closure formed in that specialised code (not a key path, which is interpreted at
/// run time).
@usableFromInline
final class CombineLatestCore<Slots: LatestSlots, Failure: Error, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Slots.Output, Downstream.Failure == Failure {
    /// The subscriber attached to one source. Immutable after `init`; what it receives goes straight to
    /// the core, which takes `lock`.
    @usableFromInline
    final class Side<Input>: Subscriber, CustomStringConvertible, @unchecked Sendable {
        @usableFromInline
        let core: CombineLatestCore
        @usableFromInline
        let index: Int
        /// Writes this source's latest value into the slots (lock held).
        @usableFromInline
        let store: (inout Slots, Input) -> Void
        /// Whether this source's slot is still empty (lock held).
        @usableFromInline
        let isEmpty: (Slots) -> Bool

        @inlinable
        init(
            core: CombineLatestCore, index: Int, store: @escaping (inout Slots, Input) -> Void,
            isEmpty: @escaping (Slots) -> Bool
        ) {
            self.core = core
            self.index = index
            self.store = store
            self.isEmpty = isEmpty
        }

        @usableFromInline
        var description: String { "CombineLatest" }

        @inlinable
        func receive(subscription: any Subscription) { core.sideReceived(index, subscription: subscription) }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            core.sideReceived(self, value: input)
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            core.sideReceived(self, completion: completion)
        }
    }

    /// Guards every `var` below (`@exclusivity(unchecked)`: each access is under it, or in `init`).
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    @usableFromInline
    @exclusivity(unchecked)
    var slots: Slots
    /// Empty slots, swapped in on completion or cancel so the latest values are released at once.
    @usableFromInline
    let emptySlots: Slots
    /// Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var subscriptions: [(any Subscription)?]
    @usableFromInline
    @exclusivity(unchecked)
    var finished: [Bool]
    /// Sources not finished yet. Guarded by `lock`, like the `var`s below.
    @usableFromInline
    @exclusivity(unchecked)
    var unfinishedCount: Int
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none
    @usableFromInline
    @exclusivity(unchecked)
    var isDelivering = false
    /// Combinations produced while the downstream had demand for them, not yet delivered (from
    /// `queueHead` on). Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var queue: [Slots.Output] = []
    @usableFromInline
    @exclusivity(unchecked)
    var queueHead = 0
    /// A combination is due but there was no demand: deliver `slots.combined` when demand arrives. Guarded
    /// by `lock`, like the `var`s below.
    @usableFromInline
    @exclusivity(unchecked)
    var latestPending = false
    @usableFromInline
    @exclusivity(unchecked)
    var isTerminal = false
    @usableFromInline
    @exclusivity(unchecked)
    var pendingCompletion: Subscribers.Completion<Failure>?

    @inlinable
    init(slots: Slots, count: Int, downstream: Downstream) {
        self.slots = slots
        self.emptySlots = slots
        self.downstream = downstream
        subscriptions = Array(repeating: nil, count: count)
        finished = Array(repeating: false, count: count)
        unfinishedCount = count
    }

    @usableFromInline
    var description: String { "CombineLatest" }

    /// Sends the subscription downstream. The downstream is copied under `lock` first: a `cancel` from another
    /// thread (or from inside this call) may clear the stored one meanwhile.
    @inlinable
    func start() {
        lock.lock()
        let downstream = self.downstream
        lock.unlock()
        downstream?.receive(subscription: self)
    }

    @inlinable
    func subscribe<P: Publisher>(
        _ publisher: P, index: Int, store: @escaping (inout Slots, P.Output) -> Void,
        isEmpty: @escaping (Slots) -> Bool
    ) where P.Failure == Failure {
        lock.lock()
        let ended = isTerminal
        lock.unlock()
        guard !ended else { return }
        publisher.receive(subscriber: Side(core: self, index: index, store: store, isEmpty: isEmpty))
    }

    /// Combinations waiting in `queue`.
    @inlinable
    var queuedCount: Int { queue.count - queueHead }

    // MARK: Sides

    @inlinable
    func sideReceived(_ index: Int, subscription: any Subscription) {
        lock.lock()
        guard !isTerminal, subscriptions[index] == nil, !finished[index] else {
            lock.unlock()
            subscription.cancel()
            return
        }
        subscriptions[index] = subscription
        lock.unlock()
        subscription.request(.unlimited)
    }

    @inlinable
    func sideReceived<Input>(_ side: Side<Input>, value: Input) {
        lock.lock()
        guard !isTerminal, !finished[side.index] else { return lock.unlock() }
        side.store(&slots, value)
        guard let combination = slots.combined else { return lock.unlock() }
        if !latestPending && demand > queuedCount {
            queue.append(combination)
        } else {
            latestPending = true
        }
        if isDelivering { return lock.unlock() }
        isDelivering = true
        drainLocked()
    }

    @inlinable
    func sideReceived<Input>(_ side: Side<Input>, completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard !isTerminal, !finished[side.index] else { return lock.unlock() }
        finished[side.index] = true
        unfinishedCount -= 1
        subscriptions[side.index] = nil
        switch completion {
        case .failure(let error):
            endLocked(.failure(error))
        case .finished:
            if side.isEmpty(slots) {
                endLocked(.finished)  // this source never emitted: no combination can ever follow
            } else if isDelivering {
                lock.unlock()
            } else {
                isDelivering = true
                drainLocked()
            }
        }
    }

    // MARK: Downstream

    @inlinable
    func request(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        lock.lock()
        guard !isTerminal, downstream != nil else { return lock.unlock() }
        demand += more
        if isDelivering { return lock.unlock() }
        isDelivering = true
        drainLocked()
    }

    @inlinable
    func cancel() {
        lock.lock()
        guard downstream != nil || !isTerminal else { return lock.unlock() }
        isTerminal = true
        let released = (downstream, takeQueueLocked(), slots)
        downstream = nil
        slots = emptySlots
        latestPending = false
        pendingCompletion = nil
        let upstreams = takeSubscriptionsLocked()
        lock.unlock()
        for subscription in upstreams { subscription?.cancel() }
        _ = released
    }

    // MARK: Engine

    /// Empties the queue and returns what it held (to release outside the lock). Lock held.
    @inlinable
    func takeQueueLocked() -> [Slots.Output] {
        let taken = queue
        queue = []
        queueHead = 0
        return taken
    }

    /// Clears the stored subscriptions and returns them (to cancel outside the lock). Lock held.
    @inlinable
    func takeSubscriptionsLocked() -> [(any Subscription)?] {
        let taken = subscriptions
        for index in subscriptions.indices { subscriptions[index] = nil }
        return taken
    }

    /// Ends now with `completion` (dropping undelivered combinations) and cancels the sources still
    /// live. Lock held on entry, released on return.
    @inlinable
    func endLocked(_ completion: Subscribers.Completion<Failure>) {
        guard !isTerminal, downstream != nil else { return lock.unlock() }
        isTerminal = true
        pendingCompletion = completion
        let dropped = takeQueueLocked()
        latestPending = false
        let upstreams = takeSubscriptionsLocked()
        let delivers = !isDelivering
        isDelivering = true
        lock.unlock()
        _ = dropped
        for subscription in upstreams { subscription?.cancel() }
        if delivers {
            lock.lock()
            drainLocked()
        }
    }

    /// The deliverer's loop (lock held, `isDelivering` set; returns with the lock released).
    @inlinable
    func drainLocked() {
        while true {
            if let completion = pendingCompletion {
                pendingCompletion = nil
                let target = downstream
                downstream = nil
                let released = slots
                slots = emptySlots
                lock.unlock()
                _ = released
                target?.receive(completion: completion)
                return
            }
            guard let downstream else {
                isDelivering = false
                return lock.unlock()
            }
            if demand > .none {
                var next: Slots.Output?
                if queueHead < queue.count {
                    next = queue[queueHead]
                    queueHead += 1
                    if queueHead == queue.count {
                        queue.removeAll(keepingCapacity: queue.count <= 64)
                        queueHead = 0
                    }
                } else if latestPending {
                    latestPending = false
                    next = slots.combined
                }
                if let next {
                    if demand != .unlimited { demand -= 1 }
                    lock.unlock()
                    let more = downstream.receive(next)
                    lock.lock()
                    demand += more
                    continue
                }
            }
            if !isTerminal && queueHead == queue.count && !latestPending && unfinishedCount == 0 {
                isTerminal = true
                pendingCompletion = .finished
                continue
            }
            isDelivering = false
            return lock.unlock()
        }
    }
}
