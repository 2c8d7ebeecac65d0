extension Publisher {
    /// Pairs the n-th value of this publisher with the n-th value of `other`.
    ///
    /// - Buffering: values are kept per source until the other source has a value to pair them with.
    /// - Demand: the downstream's demand is forwarded to both sources (each tuple uses one value of
    ///   each), so a source never gets further ahead than the downstream asked.
    /// - Completion: finishes as soon as a source has finished and none of its values is left to pair
    ///   (no more tuples are possible), cancelling the other. A failure of either is delivered at
    ///   once (values still buffered are dropped) and cancels the other.
    /// - Cancellation: cancelling cancels both sources and releases the buffered values; nothing is
    ///   delivered after `cancel()` returns.
    /// - Threading: delivered serially, on the thread of the source that completes a tuple.
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher.zip(["a", "b"].publisher).sink { print($0) }   // (1, "a") (2, "b")
    /// ```
    @inlinable
    public func zip<Other: Publisher>(_ other: Other) -> Publishers.Zip<Self, Other> where Other.Failure == Failure {
        Publishers.Zip(self, other)
    }

    /// Like ``zip(_:)``, passing each pair through `transform`.
    ///
    /// Same contract as ``zip(_:)``; `transform` runs once per delivered pair, on the delivering thread.
    ///
    /// ```swift
    /// let sums = a.zip(b) { $0 + $1 }
    /// ```
    @inlinable
    public func zip<Other: Publisher, T>(
        _ other: Other, _ transform: @escaping (Output, Other.Output) -> T
    ) -> Publishers.Map<Publishers.Zip<Self, Other>, T> where Other.Failure == Failure {
        Publishers.Zip(self, other).map(transform)
    }

    /// Combines the n-th values of this publisher, `b` and `c` into a tuple.
    ///
    /// - Buffering: values are kept per source until every other source has a value to combine them with.
    /// - Demand: the downstream's demand is forwarded to every source (each tuple uses one value of
    ///   each), so no source gets further ahead than the downstream asked.
    /// - Completion: finishes as soon as a source has finished and none of its values is left to
    ///   combine (no more tuples are possible), cancelling the others. The first failure is delivered at
    ///   once (values still buffered are dropped) and cancels the others.
    /// - Cancellation: cancelling cancels every source and releases the buffered values; nothing is
    ///   delivered after `cancel()` returns.
    /// - Threading: delivered serially, on the thread of the source that completes a tuple.
    ///
    /// ```swift
    /// let c = [1, 2].publisher.zip(["a", "b"].publisher, [true].publisher).sink { print($0) }   // (1, "a", true)
    /// ```
    @inlinable
    public func zip<B: Publisher, C: Publisher>(
        _ b: B, _ c: C
    ) -> Publishers.Zip3<Self, B, C> where B.Failure == Failure, C.Failure == Failure {
        Publishers.Zip3(self, b, c)
    }

    /// Like `zip(_:_:)`, passing each triple through `transform`.
    ///
    /// Same contract as `zip(_:_:)`; `transform` runs once per delivered triple, on the delivering
    /// thread.
    ///
    /// ```swift
    /// let sums = a.zip(b, c) { $0 + $1 + $2 }
    /// ```
    @inlinable
    public func zip<B: Publisher, C: Publisher, T>(
        _ b: B, _ c: C, _ transform: @escaping (Output, B.Output, C.Output) -> T
    ) -> Publishers.Map<Publishers.Zip3<Self, B, C>, T> where B.Failure == Failure, C.Failure == Failure {
        Publishers.Zip3(self, b, c).map(transform)
    }

    /// Combines the n-th values of this publisher, `b`, `c` and `d` into a tuple.
    ///
    /// - Buffering: values are kept per source until every other source has a value to combine them with.
    /// - Demand: the downstream's demand is forwarded to every source (each tuple uses one value of
    ///   each), so no source gets further ahead than the downstream asked.
    /// - Completion: finishes as soon as a source has finished and none of its values is left to
    ///   combine (no more tuples are possible), cancelling the others. The first failure is delivered at
    ///   once (values still buffered are dropped) and cancels the others.
    /// - Cancellation: cancelling cancels every source and releases the buffered values; nothing is
    ///   delivered after `cancel()` returns.
    /// - Threading: delivered serially, on the thread of the source that completes a tuple.
    ///
    /// ```swift
    /// let c = ids.zip(names, prices, stock).sink { print($0) }   // (id₁, name₁, price₁, stock₁), …
    /// ```
    @inlinable
    public func zip<B: Publisher, C: Publisher, D: Publisher>(
        _ b: B, _ c: C, _ d: D
    ) -> Publishers.Zip4<Self, B, C, D> where B.Failure == Failure, C.Failure == Failure, D.Failure == Failure {
        Publishers.Zip4(self, b, c, d)
    }

    /// Like `zip(_:_:_:)`, passing each quadruple through `transform`.
    ///
    /// Same contract as `zip(_:_:_:)`; `transform` runs once per delivered quadruple, on the delivering
    /// thread.
    ///
    /// ```swift
    /// let products = ids.zip(names, prices, stock) { Product(id: $0, name: $1, price: $2, stock: $3) }
    /// ```
    @inlinable
    public func zip<B: Publisher, C: Publisher, D: Publisher, T>(
        _ b: B, _ c: C, _ d: D, _ transform: @escaping (Output, B.Output, C.Output, D.Output) -> T
    ) -> Publishers.Map<Publishers.Zip4<Self, B, C, D>, T>
    where B.Failure == Failure, C.Failure == Failure, D.Failure == Failure {
        Publishers.Zip4(self, b, c, d).map(transform)
    }
}

extension Publishers {
    /// The publisher returned by `zip(_:)`: the n-th values of two sources, paired.
    ///
    /// Its contract (buffering, demand, completion, cancellation, threading) is that of
    /// ``Publisher/zip(_:)``.
    ///
    /// ```swift
    /// let c = Publishers.Zip(a, b).sink { print($0) }
    /// ```
    public struct Zip<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        /// A tuple of the n-th values of both sources.
        public typealias Output = (A.Output, B.Output)
        /// The shared failure type.
        public typealias Failure = A.Failure

        /// The first source.
        public let a: A
        /// The second source.
        public let b: B

        /// Zips `a` and `b`.
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
                state: ZipPair<A.Output, B.Output>(), count: 2, downstream: subscriber)
            core.start()
            core.subscribe(a, index: 0) { $0.a.push($1) }
            core.subscribe(b, index: 1) { $0.b.push($1) }
        }
    }

    /// The publisher returned by `zip(_:_:)`: the n-th values of three sources, combined.
    ///
    /// Its contract (buffering, demand, completion, cancellation, threading) is that of
    /// `zip(_:_:)`.
    ///
    /// ```swift
    /// let cancellable = Publishers.Zip3(a, b, c).sink { print($0) }
    /// ```
    public struct Zip3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, A.Failure == C.Failure {
        /// A tuple of the n-th values of the three sources.
        public typealias Output = (A.Output, B.Output, C.Output)
        /// The shared failure type.
        public typealias Failure = A.Failure

        /// The first source.
        public let a: A
        /// The second source.
        public let b: B
        /// The third source.
        public let c: C

        /// Zips `a`, `b` and `c`.
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
                state: ZipTriple<A.Output, B.Output, C.Output>(), count: 3, downstream: subscriber)
            core.start()
            core.subscribe(a, index: 0) { $0.a.push($1) }
            core.subscribe(b, index: 1) { $0.b.push($1) }
            core.subscribe(c, index: 2) { $0.c.push($1) }
        }
    }

    /// The publisher returned by `zip(_:_:_:)`: the n-th values of four sources, combined.
    ///
    /// Its contract (buffering, demand, completion, cancellation, threading) is that of
    /// `zip(_:_:_:)`.
    ///
    /// ```swift
    /// let cancellable = Publishers.Zip4(a, b, c, d).sink { print($0) }
    /// ```
    public struct Zip4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, A.Failure == C.Failure, A.Failure == D.Failure {
        /// A tuple of the n-th values of the four sources.
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

        /// Zips `a`, `b`, `c` and `d`.
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
                state: ZipQuadruple<A.Output, B.Output, C.Output, D.Output>(), count: 4, downstream: subscriber)
            core.start()
            core.subscribe(a, index: 0) { $0.a.push($1) }
            core.subscribe(b, index: 1) { $0.b.push($1) }
            core.subscribe(c, index: 2) { $0.c.push($1) }
            core.subscribe(d, index: 3) { $0.d.push($1) }
        }
    }
}

// Equal when their sources are equal, as in Combine.
extension Publishers.Zip: Equatable where A: Equatable, B: Equatable {}
extension Publishers.Zip3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.Zip4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

/// A first-in first-out buffer that pops in O(1).
@usableFromInline
struct ZipQueue<Element> {
    @usableFromInline
    var items: [Element] = []
    @usableFromInline
    var head = 0

    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool { head == items.count }

    @inlinable
    mutating func push(_ element: Element) { items.append(element) }

    /// Removes the first element; the caller checked `isEmpty`.
    @inlinable
    mutating func pop() -> Element {
        let element = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32 && head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return element
    }
}

/// The state of a `zip` (run by ``CombiningCore``): the waiting values of each source, in order.
///
/// A tuple takes the oldest waiting value of every source, so each source is asked for exactly the
/// downstream's demand. No more tuples can come once a source has finished with no value waiting.
@usableFromInline
protocol ZipBuffers: CombiningState {
    /// Whether source `index` has no waiting value.
    func isEmpty(at index: Int) -> Bool
}

extension ZipBuffers {
    @inlinable
    static var name: String { "Zip" }

    @inlinable
    static var forwardsDemand: Bool { true }

    @inlinable
    func isExhausted(finished: FinishedSources) -> Bool {
        for index in finished.indices where finished[index] && isEmpty(at: index) { return true }
        return false
    }
}

@usableFromInline
struct ZipPair<A, B>: ZipBuffers {
    @usableFromInline
    var a = ZipQueue<A>()
    @usableFromInline
    var b = ZipQueue<B>()

    @inlinable
    init() {}

    @inlinable
    func isEmpty(at index: Int) -> Bool { index == 0 ? a.isEmpty : b.isEmpty }
    @inlinable
    var hasNext: Bool { !a.isEmpty && !b.isEmpty }
    @inlinable
    mutating func next() -> (A, B)? {
        guard !a.isEmpty, !b.isEmpty else { return nil }
        return (a.pop(), b.pop())
    }
}

@usableFromInline
struct ZipTriple<A, B, C>: ZipBuffers {
    @usableFromInline
    var a = ZipQueue<A>()
    @usableFromInline
    var b = ZipQueue<B>()
    @usableFromInline
    var c = ZipQueue<C>()

    @inlinable
    init() {}

    @inlinable
    func isEmpty(at index: Int) -> Bool {
        switch index {
        case 0: return a.isEmpty
        case 1: return b.isEmpty
        default: return c.isEmpty
        }
    }
    @inlinable
    var hasNext: Bool { !a.isEmpty && !b.isEmpty && !c.isEmpty }
    @inlinable
    mutating func next() -> (A, B, C)? {
        guard !a.isEmpty, !b.isEmpty, !c.isEmpty else { return nil }
        return (a.pop(), b.pop(), c.pop())
    }
}

@usableFromInline
struct ZipQuadruple<A, B, C, D>: ZipBuffers {
    @usableFromInline
    var a = ZipQueue<A>()
    @usableFromInline
    var b = ZipQueue<B>()
    @usableFromInline
    var c = ZipQueue<C>()
    @usableFromInline
    var d = ZipQueue<D>()

    @inlinable
    init() {}

    @inlinable
    func isEmpty(at index: Int) -> Bool {
        switch index {
        case 0: return a.isEmpty
        case 1: return b.isEmpty
        case 2: return c.isEmpty
        default: return d.isEmpty
        }
    }
    @inlinable
    var hasNext: Bool { !a.isEmpty && !b.isEmpty && !c.isEmpty && !d.isEmpty }
    @inlinable
    mutating func next() -> (A, B, C, D)? {
        guard !a.isEmpty, !b.isEmpty, !c.isEmpty, !d.isEmpty else { return nil }
        return (a.pop(), b.pop(), c.pop(), d.pop())
    }
}
