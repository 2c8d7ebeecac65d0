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
            let core = CombiningCore(
                state: LatestValues(LatestPair<A.Output, B.Output>()), count: 2, downstream: subscriber)
            core.start()
            core.subscribe(a, index: 0) { $0.slots.a = $1 }
            core.subscribe(b, index: 1) { $0.slots.b = $1 }
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
            let core = CombiningCore(
                state: LatestValues(LatestTriple<A.Output, B.Output, C.Output>()), count: 3, downstream: subscriber)
            core.start()
            core.subscribe(a, index: 0) { $0.slots.a = $1 }
            core.subscribe(b, index: 1) { $0.slots.b = $1 }
            core.subscribe(c, index: 2) { $0.slots.c = $1 }
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
            let core = CombiningCore(
                state: LatestValues(LatestQuadruple<A.Output, B.Output, C.Output, D.Output>()), count: 4,
                downstream: subscriber)
            core.start()
            core.subscribe(a, index: 0) { $0.slots.a = $1 }
            core.subscribe(b, index: 1) { $0.slots.b = $1 }
            core.subscribe(c, index: 2) { $0.slots.c = $1 }
            core.subscribe(d, index: 3) { $0.slots.d = $1 }
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
    /// No source has emitted yet.
    init()
    /// The tuple of the latest values, or `nil` while some source has not emitted.
    var combined: Output? { get }
    /// Whether source `index` has not emitted yet.
    func isEmpty(at index: Int) -> Bool
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

    @inlinable
    func isEmpty(at index: Int) -> Bool { index == 0 ? a == nil : b == nil }
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

    @inlinable
    func isEmpty(at index: Int) -> Bool {
        switch index {
        case 0: a == nil
        case 1: b == nil
        default: c == nil
        }
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

    @inlinable
    func isEmpty(at index: Int) -> Bool {
        switch index {
        case 0: a == nil
        case 1: b == nil
        case 2: c == nil
        default: d == nil
        }
    }
}

/// The state of a `combineLatest` (run by ``CombiningCore``): the latest value of each source, and the
/// combinations owed to the downstream.
///
/// A combination formed while the downstream has demand for it is queued (in order, none lost); one formed
/// while it has none only marks the latest values as pending, so the downstream gets the newest combination
/// when it asks. No more can come once every source has finished, or once one has finished without ever
/// emitting.
@usableFromInline
struct LatestValues<Slots: LatestSlots>: CombiningState {
    @usableFromInline
    var slots: Slots
    /// The oldest combination the downstream has demand for and has not yet received; `nil` when none is owed. Kept
    /// apart from `queue`, which holds the ones after it: one owed at a time, the common case, never touches the
    /// array (an append and a removal per value otherwise, each a uniqueness check and a generic range replace).
    @usableFromInline
    var first: Slots.Output?
    /// The combinations owed after `first`, oldest first, from `queueHead`; empty whenever `first` is `nil`.
    @usableFromInline
    var queue: [Slots.Output] = []
    @usableFromInline
    var queueHead = 0
    /// Whether `slots.combined` is owed (formed while the downstream had no demand for it).
    @usableFromInline
    var latestPending = false

    @inlinable
    init(_ slots: Slots) { self.slots = slots }

    @inlinable
    init() { self.init(Slots()) }

    @inlinable
    static var name: String { "CombineLatest" }

    @inlinable
    static var forwardsDemand: Bool { false }

    @inlinable
    @inline(__always)
    mutating func didStore(demand: Subscribers.Demand) {
        guard let combination = slots.combined else { return }
        guard !latestPending else { return }
        if first == nil {
            if demand > .none { first = combination } else { latestPending = true }
        } else if demand > 1 + queue.count - queueHead {
            queue.append(combination)
        } else {
            latestPending = true
        }
    }

    @inlinable
    @inline(__always)
    mutating func next() -> Slots.Output? {
        if let combination = first {
            if queueHead < queue.count {
                first = queue[queueHead]
                queueHead += 1
                if queueHead == queue.count {
                    queue.removeAll(keepingCapacity: queue.count <= 64)
                    queueHead = 0
                }
            } else {
                first = nil
            }
            return combination
        }
        guard latestPending else { return nil }
        latestPending = false
        return slots.combined
    }

    @inlinable
    var hasNext: Bool { first != nil || latestPending }

    @inlinable
    func isExhausted(finished: FinishedSources) -> Bool {
        guard first == nil, !latestPending else { return false }
        var everyFinished = true
        for index in finished.indices {
            guard finished[index] else {
                everyFinished = false
                continue
            }
            if slots.isEmpty(at: index) { return true }  // it never emitted: no combination can ever form
        }
        return everyFinished
    }
}
