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
    /// - Threading: delivered serially, on the thread of the source that triggers it.
    ///
    /// ```swift
    /// let c = name.combineLatest(age).sink { print("\($0.0) is \($0.1)") }
    /// ```
    public func combineLatest<Other: Publisher>(_ other: Other) -> Publishers.CombineLatest<Self, Other>
    where Other.Failure == Failure {
        Publishers.CombineLatest(self, other)
    }

    /// Like `combineLatest(_:)`, passing the latest values through `transform`.
    ///
    /// ```swift
    /// let total = price.combineLatest(quantity) { $0 * Double($1) }
    /// ```
    public func combineLatest<Other: Publisher, T>(
        _ other: Other, _ transform: @escaping (Output, Other.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest<Self, Other>, T> where Other.Failure == Failure {
        Publishers.CombineLatest(self, other).map(transform)
    }

    /// Publishes a tuple of the latest values of this publisher, `b` and `c` whenever one emits, once
    /// all have emitted. Same contract as `combineLatest(_:)`.
    ///
    /// ```swift
    /// let c = r.combineLatest(g, b).sink { print($0) }
    /// ```
    public func combineLatest<B: Publisher, C: Publisher>(
        _ b: B, _ c: C
    ) -> Publishers.CombineLatest3<Self, B, C> where B.Failure == Failure, C.Failure == Failure {
        Publishers.CombineLatest3(self, b, c)
    }

    /// Like `combineLatest(_:_:)`, passing the latest values through `transform`.
    ///
    /// ```swift
    /// let color = r.combineLatest(g, b) { Color(red: $0, green: $1, blue: $2) }
    /// ```
    public func combineLatest<B: Publisher, C: Publisher, T>(
        _ b: B, _ c: C, _ transform: @escaping (Output, B.Output, C.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest3<Self, B, C>, T> where B.Failure == Failure, C.Failure == Failure {
        Publishers.CombineLatest3(self, b, c).map(transform)
    }
}

extension Publishers {
    /// The publisher returned by `combineLatest(_:)`.
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
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Attaches `subscriber`, then subscribes to `a` and `b` in that order.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = CombineLatestCore(slots: LatestPair<A.Output, B.Output>(), count: 2, downstream: subscriber)
            core.start()
            core.subscribe(a, slot: \.a, index: 0)
            core.subscribe(b, slot: \.b, index: 1)
        }
    }

    /// The publisher returned by `combineLatest(_:_:)`.
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
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Attaches `subscriber`, then subscribes to the sources in order.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = CombineLatestCore(
                slots: LatestTriple<A.Output, B.Output, C.Output>(), count: 3, downstream: subscriber)
            core.start()
            core.subscribe(a, slot: \.a, index: 0)
            core.subscribe(b, slot: \.b, index: 1)
            core.subscribe(c, slot: \.c, index: 2)
        }
    }
}

/// The latest value of each source of a `combineLatest`.
protocol LatestSlots {
    associatedtype Output
    /// All latest values as a tuple, or `nil` while a source has not emitted.
    var combined: Output? { get }
}

struct LatestPair<A, B>: LatestSlots {
    var a: A?
    var b: B?
    var combined: (A, B)? {
        guard let a, let b else { return nil }
        return (a, b)
    }
}

struct LatestTriple<A, B, C>: LatestSlots {
    var a: A?
    var b: B?
    var c: C?
    var combined: (A, B, C)? {
        guard let a, let b, let c else { return nil }
        return (a, b, c)
    }
}

/// The subscription of `combineLatest`; all state under `lock`, nothing called out under it.
final class CombineLatestCore<Slots: LatestSlots, Failure: Error, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Slots.Output, Downstream.Failure == Failure {
    final class Side<Input>: Subscriber, CustomStringConvertible, @unchecked Sendable {
        let core: CombineLatestCore
        let slot: WritableKeyPath<Slots, Input?>
        let index: Int

        init(core: CombineLatestCore, slot: WritableKeyPath<Slots, Input?>, index: Int) {
            self.core = core
            self.slot = slot
            self.index = index
        }

        var description: String { "CombineLatest" }

        func receive(subscription: any Subscription) { core.sideReceived(index, subscription: subscription) }
        func receive(_ input: Input) -> Subscribers.Demand {
            core.sideReceived(self, value: input)
            return .none
        }
        func receive(completion: Subscribers.Completion<Failure>) {
            core.sideReceived(self, completion: completion)
        }
    }

    let lock = Lock()
    var downstream: Downstream?
    var slots: Slots
    /// Empty slots, swapped in on completion or cancel so the latest values are released at once.
    let emptySlots: Slots
    var subscriptions: [(any Subscription)?]
    var finished: [Bool]
    var demand = Subscribers.Demand.none
    var isDelivering = false
    /// Combinations produced while the downstream had demand for them, not yet delivered.
    var queue: [Slots.Output] = []
    /// A combination is due but there was no demand: deliver `slots.combined` when demand arrives.
    var latestPending = false
    var isTerminal = false
    var pendingCompletion: Subscribers.Completion<Failure>?

    init(slots: Slots, count: Int, downstream: Downstream) {
        self.slots = slots
        self.emptySlots = slots
        self.downstream = downstream
        subscriptions = Array(repeating: nil, count: count)
        finished = Array(repeating: false, count: count)
    }

    var description: String { "CombineLatest" }

    func start() { downstream?.receive(subscription: self) }

    func subscribe<P: Publisher>(_ publisher: P, slot: WritableKeyPath<Slots, P.Output?>, index: Int)
    where P.Failure == Failure {
        guard !lock.withLock({ isTerminal }) else { return }
        publisher.receive(subscriber: Side(core: self, slot: slot, index: index))
    }

    // MARK: Sides

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

    func sideReceived<Input>(_ side: Side<Input>, value: Input) {
        lock.lock()
        guard !isTerminal, !finished[side.index] else { return lock.unlock() }
        slots[keyPath: side.slot] = value
        guard let combination = slots.combined else { return lock.unlock() }
        if !latestPending && demand > queue.count {
            queue.append(combination)
        } else {
            latestPending = true
        }
        if isDelivering { return lock.unlock() }
        isDelivering = true
        drainLocked()
    }

    func sideReceived<Input>(_ side: Side<Input>, completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard !isTerminal, !finished[side.index] else { return lock.unlock() }
        finished[side.index] = true
        subscriptions[side.index] = nil
        switch completion {
        case .failure(let error):
            endLocked(.failure(error))
        case .finished:
            if slots[keyPath: side.slot] == nil {
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

    func request(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        lock.lock()
        guard !isTerminal, downstream != nil else { return lock.unlock() }
        demand += more
        if isDelivering { return lock.unlock() }
        isDelivering = true
        drainLocked()
    }

    func cancel() {
        lock.lock()
        guard downstream != nil || !isTerminal else { return lock.unlock() }
        isTerminal = true
        let released = (downstream, queue, slots)
        downstream = nil
        slots = emptySlots
        queue = []
        latestPending = false
        pendingCompletion = nil
        let upstreams = subscriptions
        subscriptions = subscriptions.map { _ in nil }
        lock.unlock()
        for subscription in upstreams { subscription?.cancel() }
        _ = released
    }

    // MARK: Engine

    /// Ends now with `completion` (dropping undelivered combinations) and cancels the sources still
    /// live. Lock held on entry, released on return.
    func endLocked(_ completion: Subscribers.Completion<Failure>) {
        guard !isTerminal, downstream != nil else { return lock.unlock() }
        isTerminal = true
        pendingCompletion = completion
        let dropped = queue
        queue = []
        latestPending = false
        let upstreams = subscriptions
        subscriptions = subscriptions.map { _ in nil }
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
                if !queue.isEmpty {
                    next = queue.removeFirst()
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
            if !isTerminal && queue.isEmpty && !latestPending && !finished.contains(false) {
                isTerminal = true
                pendingCompletion = .finished
                continue
            }
            isDelivering = false
            return lock.unlock()
        }
    }
}
