extension Publisher {
    /// Republishes the values of this publisher and `other`, interleaved as they arrive.
    ///
    /// - Demand: never more values than the downstream requested, in total (each source is asked for
    ///   one value at a time while that demand is bounded, for `.unlimited` once it is unlimited).
    /// - Completion: finishes when both have finished; the first failure cancels the other source and
    ///   is delivered once.
    /// - Cancellation: cancelling cancels both sources; nothing is delivered after `cancel()` returns.
    /// - Threading: values are delivered serially, never concurrently.
    ///
    /// ```swift
    /// let c = taps.merge(with: keys).sink { print($0) }
    /// ```
    @inlinable
    public func merge<Other: Publisher>(with other: Other) -> Publishers.Merge<Self, Other>
    where Other.Output == Output, Other.Failure == Failure {
        Publishers.Merge(self, other)
    }

    /// Republishes the values of this publisher, `b` and `c`, interleaved as they arrive.
    ///
    /// - Demand: never more values than the downstream requested, in total (each source is asked for
    ///   one value at a time while that demand is bounded, for `.unlimited` once it is unlimited).
    /// - Completion: finishes when all three have finished; the first failure cancels the other
    ///   sources and is delivered once.
    /// - Cancellation: cancelling cancels every source; nothing is delivered after `cancel()` returns.
    /// - Threading: values are delivered serially, never concurrently.
    ///
    /// ```swift
    /// let cancellable = a.merge(with: b, c).sink { print($0) }
    /// ```
    @inlinable
    public func merge<B: Publisher, C: Publisher>(with b: B, _ c: C) -> Publishers.Merge3<Self, B, C>
    where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure {
        Publishers.Merge3(self, b, c)
    }

    /// Republishes the values of this publisher, `b`, `c` and `d`, interleaved as they arrive.
    ///
    /// - Demand: never more values than the downstream requested, in total (each source is asked for
    ///   one value at a time while that demand is bounded, for `.unlimited` once it is unlimited).
    /// - Completion: finishes when all four have finished; the first failure cancels the other
    ///   sources and is delivered once.
    /// - Cancellation: cancelling cancels every source; nothing is delivered after `cancel()` returns.
    /// - Threading: values are delivered serially, never concurrently.
    ///
    /// ```swift
    /// let cancellable = a.merge(with: b, c, d).sink { print($0) }
    /// ```
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher>(
        with b: B, _ c: C, _ d: D
    ) -> Publishers.Merge4<Self, B, C, D>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
        D.Output == Output, D.Failure == Failure
    {
        Publishers.Merge4(self, b, c, d)
    }

    /// Republishes the values of this publisher, `b`, `c`, `d` and `e`, interleaved as they arrive.
    ///
    /// - Demand: never more values than the downstream requested, in total (each source is asked for
    ///   one value at a time while that demand is bounded, for `.unlimited` once it is unlimited).
    /// - Completion: finishes when all five have finished; the first failure cancels the other
    ///   sources and is delivered once.
    /// - Cancellation: cancelling cancels every source; nothing is delivered after `cancel()` returns.
    /// - Threading: values are delivered serially, never concurrently.
    ///
    /// ```swift
    /// let cancellable = a.merge(with: b, c, d, e).sink { print($0) }
    /// ```
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E
    ) -> Publishers.Merge5<Self, B, C, D, E>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
        D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure
    {
        Publishers.Merge5(self, b, c, d, e)
    }

    /// Republishes the values of this publisher, `b`, `c`, `d`, `e` and `f`, interleaved as they arrive.
    ///
    /// - Demand: never more values than the downstream requested, in total (each source is asked for
    ///   one value at a time while that demand is bounded, for `.unlimited` once it is unlimited).
    /// - Completion: finishes when all six have finished; the first failure cancels the other
    ///   sources and is delivered once.
    /// - Cancellation: cancelling cancels every source; nothing is delivered after `cancel()` returns.
    /// - Threading: values are delivered serially, never concurrently.
    ///
    /// ```swift
    /// let cancellable = a.merge(with: b, c, d, e, f).sink { print($0) }
    /// ```
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F
    ) -> Publishers.Merge6<Self, B, C, D, E, F>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
        D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure,
        F.Output == Output, F.Failure == Failure
    {
        Publishers.Merge6(self, b, c, d, e, f)
    }

    /// Republishes the values of this publisher, `b`, `c`, `d`, `e`, `f` and `g`, interleaved as they arrive.
    ///
    /// - Demand: never more values than the downstream requested, in total (each source is asked for
    ///   one value at a time while that demand is bounded, for `.unlimited` once it is unlimited).
    /// - Completion: finishes when all seven have finished; the first failure cancels the other
    ///   sources and is delivered once.
    /// - Cancellation: cancelling cancels every source; nothing is delivered after `cancel()` returns.
    /// - Threading: values are delivered serially, never concurrently.
    ///
    /// ```swift
    /// let cancellable = a.merge(with: b, c, d, e, f, g).sink { print($0) }
    /// ```
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G
    ) -> Publishers.Merge7<Self, B, C, D, E, F, G>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
        D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure,
        F.Output == Output, F.Failure == Failure, G.Output == Output, G.Failure == Failure
    {
        Publishers.Merge7(self, b, c, d, e, f, g)
    }

    /// Republishes the values of this publisher, `b`, `c`, `d`, `e`, `f`, `g` and `h`, interleaved as they arrive.
    ///
    /// - Demand: never more values than the downstream requested, in total (each source is asked for
    ///   one value at a time while that demand is bounded, for `.unlimited` once it is unlimited).
    /// - Completion: finishes when all eight have finished; the first failure cancels the other
    ///   sources and is delivered once.
    /// - Cancellation: cancelling cancels every source; nothing is delivered after `cancel()` returns.
    /// - Threading: values are delivered serially, never concurrently.
    ///
    /// For more sources, or a number known only at run time, use ``Publishers/MergeMany``.
    ///
    /// ```swift
    /// let cancellable = a.merge(with: b, c, d, e, f, g, h).sink { print($0) }
    /// ```
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
    ) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
        D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure,
        F.Output == Output, F.Failure == Failure, G.Output == Output, G.Failure == Failure,
        H.Output == Output, H.Failure == Failure
    {
        Publishers.Merge8(self, b, c, d, e, f, g, h)
    }
}

extension Publishers {
    /// Merges two publishers of the same output and failure; returned by ``Publisher/merge(with:)``.
    ///
    /// Its contract (demand, completion, cancellation, threading) is that of ``Publisher/merge(with:)``.
    ///
    /// ```swift
    /// let c = Publishers.Merge(taps, keys).sink { print($0) }
    /// ```
    public struct Merge<A: Publisher, B: Publisher>: Publisher
    where A.Output == B.Output, A.Failure == B.Failure {
        /// The shared output type.
        public typealias Output = A.Output
        /// The shared failure type.
        public typealias Failure = A.Failure

        /// The first source.
        public let a: A
        /// The second source.
        public let b: B

        /// Merges `a` and `b`.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Attaches `subscriber`, then subscribes to `a` and `b` in that order.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let core = MergeSources(downstream: subscriber)
            core.start { add in
                add(a)
                add(b)
            }
        }

        /// A ``Publishers/Merge3`` of this merge's sources and `c`: one flat merge, as in Combine,
        /// not a merge of merges.
        ///
        /// Same contract as ``Publisher/merge(with:_:)``.
        ///
        /// ```swift
        /// let cancellable = a.merge(with: b).merge(with: c).sink { print($0) }
        /// ```
        @inlinable
        public func merge<C: Publisher>(with c: C) -> Merge3<A, B, C>
        where C.Output == Output, C.Failure == Failure {
            Merge3(a, b, c)
        }

        /// A ``Publishers/Merge4`` of this merge's sources, `c` and `d`: one flat merge,
        /// as in Combine, not a merge of merges.
        ///
        /// Same contract as ``Publisher/merge(with:_:_:)``.
        ///
        /// ```swift
        /// let cancellable = a.merge(with: b).merge(with: c, d).sink { print($0) }
        /// ```
        @inlinable
        public func merge<C: Publisher, D: Publisher>(with c: C, _ d: D) -> Merge4<A, B, C, D>
        where C.Output == Output, C.Failure == Failure, D.Output == Output, D.Failure == Failure {
            Merge4(a, b, c, d)
        }

        /// A ``Publishers/Merge5`` of this merge's sources, `c`, `d` and `e`: one flat merge,
        /// as in Combine, not a merge of merges.
        ///
        /// Same contract as ``Publisher/merge(with:_:_:_:)``.
        ///
        /// ```swift
        /// let cancellable = a.merge(with: b).merge(with: c, d, e).sink { print($0) }
        /// ```
        @inlinable
        public func merge<C: Publisher, D: Publisher, E: Publisher>(with c: C, _ d: D, _ e: E) -> Merge5<A, B, C, D, E>
        where
            C.Output == Output, C.Failure == Failure, D.Output == Output, D.Failure == Failure,
            E.Output == Output, E.Failure == Failure
        {
            Merge5(a, b, c, d, e)
        }

        /// A ``Publishers/Merge6`` of this merge's sources, `c`, `d`, `e` and `f`: one flat merge,
        /// as in Combine, not a merge of merges.
        ///
        /// Same contract as ``Publisher/merge(with:_:_:_:_:)``.
        ///
        /// ```swift
        /// let cancellable = a.merge(with: b).merge(with: c, d, e, f).sink { print($0) }
        /// ```
        @inlinable
        public func merge<C: Publisher, D: Publisher, E: Publisher, F: Publisher>(
            with c: C, _ d: D, _ e: E, _ f: F
        ) -> Merge6<A, B, C, D, E, F>
        where
            C.Output == Output, C.Failure == Failure, D.Output == Output, D.Failure == Failure,
            E.Output == Output, E.Failure == Failure, F.Output == Output, F.Failure == Failure
        {
            Merge6(a, b, c, d, e, f)
        }

        /// A ``Publishers/Merge7`` of this merge's sources, `c`, `d`, `e`, `f` and `g`: one flat merge,
        /// as in Combine, not a merge of merges.
        ///
        /// Same contract as ``Publisher/merge(with:_:_:_:_:_:)``.
        ///
        /// ```swift
        /// let cancellable = a.merge(with: b).merge(with: c, d, e, f, g).sink { print($0) }
        /// ```
        @inlinable
        public func merge<C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher>(
            with c: C, _ d: D, _ e: E, _ f: F, _ g: G
        ) -> Merge7<A, B, C, D, E, F, G>
        where
            C.Output == Output, C.Failure == Failure, D.Output == Output, D.Failure == Failure,
            E.Output == Output, E.Failure == Failure, F.Output == Output, F.Failure == Failure,
            G.Output == Output, G.Failure == Failure
        {
            Merge7(a, b, c, d, e, f, g)
        }

        /// A ``Publishers/Merge8`` of this merge's sources, `c`, `d`, `e`, `f`, `g` and `h`: one flat merge,
        /// as in Combine, not a merge of merges.
        ///
        /// Same contract as ``Publisher/merge(with:_:_:_:_:_:_:)``.
        ///
        /// ```swift
        /// let cancellable = a.merge(with: b).merge(with: c, d, e, f, g, h).sink { print($0) }
        /// ```
        @inlinable
        public func merge<C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher>(
            with c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
        ) -> Merge8<A, B, C, D, E, F, G, H>
        where
            C.Output == Output, C.Failure == Failure, D.Output == Output, D.Failure == Failure,
            E.Output == Output, E.Failure == Failure, F.Output == Output, F.Failure == Failure,
            G.Output == Output, G.Failure == Failure, H.Output == Output, H.Failure == Failure
        {
            Merge8(a, b, c, d, e, f, g, h)
        }
    }

    /// Merges three publishers of the same output and failure; returned by
    /// ``Publisher/merge(with:_:)``.
    ///
    /// Its contract (demand, completion, cancellation, threading) is that of
    /// ``Publisher/merge(with:_:)``.
    ///
    /// ```swift
    /// let cancellable = Publishers.Merge3(a, b, c).sink { print($0) }
    /// ```
    public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Output == B.Output, A.Failure == B.Failure, A.Output == C.Output, A.Failure == C.Failure {
        /// The shared output type.
        public typealias Output = A.Output
        /// The shared failure type.
        public typealias Failure = A.Failure

        /// The first source.
        public let a: A
        /// The second source.
        public let b: B
        /// The third source.
        public let c: C

        /// Merges `a`, `b` and `c`.
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
            MergeSources(downstream: subscriber).start { add in
                add(a)
                add(b)
                add(c)
            }
        }

        /// A ``Publishers/Merge4`` of this merge's sources and `d`: one flat merge, as in Combine,
        /// not a merge of merges.
        ///
        /// Same contract as ``Publisher/merge(with:_:_:)``.
        ///
        /// ```swift
        /// let cancellable = a.merge(with: b, c).merge(with: d).sink { print($0) }
        /// ```
        @inlinable
        public func merge<D: Publisher>(with d: D) -> Merge4<A, B, C, D>
        where D.Output == Output, D.Failure == Failure {
            Merge4(a, b, c, d)
        }

        /// A ``Publishers/Merge5`` of this merge's sources, `d` and `e`: one flat merge,
        /// as in Combine, not a merge of merges.
        ///
        /// Same contract as ``Publisher/merge(with:_:_:_:)``.
        ///
        /// ```swift
        /// let cancellable = a.merge(with: b, c).merge(with: d, e).sink { print($0) }
        /// ```
        @inlinable
        public func merge<D: Publisher, E: Publisher>(with d: D, _ e: E) -> Merge5<A, B, C, D, E>
        where D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure {
            Merge5(a, b, c, d, e)
        }

        /// A ``Publishers/Merge6`` of this merge's sources, `d`, `e` and `f`: one flat merge,
        /// as in Combine, not a merge of merges.
        ///
        /// Same contract as ``Publisher/merge(with:_:_:_:_:)``.
        ///
        /// ```swift
        /// let cancellable = a.merge(with: b, c).merge(with: d, e, f).sink { print($0) }
        /// ```
        @inlinable
        public func merge<D: Publisher, E: Publisher, F: Publisher>(
            with d: D, _ e: E, _ f: F
        ) -> Merge6<A, B, C, D, E, F>
        where
            D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure,
            F.Output == Output, F.Failure == Failure
        {
            Merge6(a, b, c, d, e, f)
        }

        /// A ``Publishers/Merge7`` of this merge's sources, `d`, `e`, `f` and `g`: one flat merge,
        /// as in Combine, not a merge of merges.
        ///
        /// Same contract as ``Publisher/merge(with:_:_:_:_:_:)``.
        ///
        /// ```swift
        /// let cancellable = a.merge(with: b, c).merge(with: d, e, f, g).sink { print($0) }
        /// ```
        @inlinable
        public func merge<D: Publisher, E: Publisher, F: Publisher, G: Publisher>(
            with d: D, _ e: E, _ f: F, _ g: G
        ) -> Merge7<A, B, C, D, E, F, G>
        where
            D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure,
            F.Output == Output, F.Failure == Failure, G.Output == Output, G.Failure == Failure
        {
            Merge7(a, b, c, d, e, f, g)
        }

        /// A ``Publishers/Merge8`` of this merge's sources, `d`, `e`, `f`, `g` and `h`: one flat merge,
        /// as in Combine, not a merge of merges.
        ///
        /// Same contract as ``Publisher/merge(with:_:_:_:_:_:_:)``.
        ///
        /// ```swift
        /// let cancellable = a.merge(with: b, c).merge(with: d, e, f, g, h).sink { print($0) }
        /// ```
        @inlinable
        public func merge<D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher>(
            with d: D, _ e: E, _ f: F, _ g: G, _ h: H
        ) -> Merge8<A, B, C, D, E, F, G, H>
        where
            D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure,
            F.Output == Output, F.Failure == Failure, G.Output == Output, G.Failure == Failure,
            H.Output == Output, H.Failure == Failure
        {
            Merge8(a, b, c, d, e, f, g, h)
        }
    }

    /// Merges four publishers of the same output and failure; returned by
    /// ``Publisher/merge(with:_:_:)``.
    ///
    /// Its contract (demand, completion, cancellation, threading) is that of
    /// ``Publisher/merge(with:_:_:)``.
    ///
    /// ```swift
    /// let cancellable = Publishers.Merge4(a, b, c, d).sink { print($0) }
    /// ```
    public struct Merge4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where
        A.Output == B.Output, A.Failure == B.Failure, A.Output == C.Output, A.Failure == C.Failure,
        A.Output == D.Output, A.Failure == D.Failure
    {
        /// The shared output type.
        public typealias Output = A.Output
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

        /// Merges `a`, `b`, `c` and `d`.
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
            MergeSources(downstream: subscriber).start { add in
                add(a)
                add(b)
                add(c)
                add(d)
            }
        }

        /// A ``Publishers/Merge5`` of this merge's sources and `e`: one flat merge, as in Combine,
        /// not a merge of merges.
        ///
        /// Same contract as ``Publisher/merge(with:_:_:_:)``.
        ///
        /// ```swift
        /// let cancellable = a.merge(with: b, c, d).merge(with: e).sink { print($0) }
        /// ```
        @inlinable
        public func merge<E: Publisher>(with e: E) -> Merge5<A, B, C, D, E>
        where E.Output == Output, E.Failure == Failure {
            Merge5(a, b, c, d, e)
        }

        /// A ``Publishers/Merge6`` of this merge's sources, `e` and `f`: one flat merge,
        /// as in Combine, not a merge of merges.
        ///
        /// Same contract as ``Publisher/merge(with:_:_:_:_:)``.
        ///
        /// ```swift
        /// let cancellable = a.merge(with: b, c, d).merge(with: e, f).sink { print($0) }
        /// ```
        @inlinable
        public func merge<E: Publisher, F: Publisher>(with e: E, _ f: F) -> Merge6<A, B, C, D, E, F>
        where E.Output == Output, E.Failure == Failure, F.Output == Output, F.Failure == Failure {
            Merge6(a, b, c, d, e, f)
        }

        /// A ``Publishers/Merge7`` of this merge's sources, `e`, `f` and `g`: one flat merge,
        /// as in Combine, not a merge of merges.
        ///
        /// Same contract as ``Publisher/merge(with:_:_:_:_:_:)``.
        ///
        /// ```swift
        /// let cancellable = a.merge(with: b, c, d).merge(with: e, f, g).sink { print($0) }
        /// ```
        @inlinable
        public func merge<E: Publisher, F: Publisher, G: Publisher>(
            with e: E, _ f: F, _ g: G
        ) -> Merge7<A, B, C, D, E, F, G>
        where
            E.Output == Output, E.Failure == Failure, F.Output == Output, F.Failure == Failure,
            G.Output == Output, G.Failure == Failure
        {
            Merge7(a, b, c, d, e, f, g)
        }

        /// A ``Publishers/Merge8`` of this merge's sources, `e`, `f`, `g` and `h`: one flat merge,
        /// as in Combine, not a merge of merges.
        ///
        /// Same contract as ``Publisher/merge(with:_:_:_:_:_:_:)``.
        ///
        /// ```swift
        /// let cancellable = a.merge(with: b, c, d).merge(with: e, f, g, h).sink { print($0) }
        /// ```
        @inlinable
        public func merge<E: Publisher, F: Publisher, G: Publisher, H: Publisher>(
            with e: E, _ f: F, _ g: G, _ h: H
        ) -> Merge8<A, B, C, D, E, F, G, H>
        where
            E.Output == Output, E.Failure == Failure, F.Output == Output, F.Failure == Failure,
            G.Output == Output, G.Failure == Failure, H.Output == Output, H.Failure == Failure
        {
            Merge8(a, b, c, d, e, f, g, h)
        }
    }

    /// Merges five publishers of the same output and failure; returned by
    /// ``Publisher/merge(with:_:_:_:)``.
    ///
    /// Its contract (demand, completion, cancellation, threading) is that of
    /// ``Publisher/merge(with:_:_:_:)``.
    ///
    /// ```swift
    /// let cancellable = Publishers.Merge5(a, b, c, d, e).sink { print($0) }
    /// ```
    public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher>: Publisher
    where
        A.Output == B.Output, A.Failure == B.Failure, A.Output == C.Output, A.Failure == C.Failure,
        A.Output == D.Output, A.Failure == D.Failure, A.Output == E.Output, A.Failure == E.Failure
    {
        /// The shared output type.
        public typealias Output = A.Output
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
        /// The fifth source.
        public let e: E

        /// Merges `a`, `b`, `c`, `d` and `e`.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
        }

        /// Attaches `subscriber`, then subscribes to the sources in order.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            MergeSources(downstream: subscriber).start { add in
                add(a)
                add(b)
                add(c)
                add(d)
                add(e)
            }
        }

        /// A ``Publishers/Merge6`` of this merge's sources and `f`: one flat merge, as in Combine,
        /// not a merge of merges.
        ///
        /// Same contract as ``Publisher/merge(with:_:_:_:_:)``.
        ///
        /// ```swift
        /// let cancellable = a.merge(with: b, c, d, e).merge(with: f).sink { print($0) }
        /// ```
        @inlinable
        public func merge<F: Publisher>(with f: F) -> Merge6<A, B, C, D, E, F>
        where F.Output == Output, F.Failure == Failure {
            Merge6(a, b, c, d, e, f)
        }

        /// A ``Publishers/Merge7`` of this merge's sources, `f` and `g`: one flat merge,
        /// as in Combine, not a merge of merges.
        ///
        /// Same contract as ``Publisher/merge(with:_:_:_:_:_:)``.
        ///
        /// ```swift
        /// let cancellable = a.merge(with: b, c, d, e).merge(with: f, g).sink { print($0) }
        /// ```
        @inlinable
        public func merge<F: Publisher, G: Publisher>(with f: F, _ g: G) -> Merge7<A, B, C, D, E, F, G>
        where F.Output == Output, F.Failure == Failure, G.Output == Output, G.Failure == Failure {
            Merge7(a, b, c, d, e, f, g)
        }

        /// A ``Publishers/Merge8`` of this merge's sources, `f`, `g` and `h`: one flat merge,
        /// as in Combine, not a merge of merges.
        ///
        /// Same contract as ``Publisher/merge(with:_:_:_:_:_:_:)``.
        ///
        /// ```swift
        /// let cancellable = a.merge(with: b, c, d, e).merge(with: f, g, h).sink { print($0) }
        /// ```
        @inlinable
        public func merge<F: Publisher, G: Publisher, H: Publisher>(
            with f: F, _ g: G, _ h: H
        ) -> Merge8<A, B, C, D, E, F, G, H>
        where
            F.Output == Output, F.Failure == Failure, G.Output == Output, G.Failure == Failure,
            H.Output == Output, H.Failure == Failure
        {
            Merge8(a, b, c, d, e, f, g, h)
        }
    }

    /// Merges six publishers of the same output and failure; returned by
    /// ``Publisher/merge(with:_:_:_:_:)``.
    ///
    /// Its contract (demand, completion, cancellation, threading) is that of
    /// ``Publisher/merge(with:_:_:_:_:)``.
    ///
    /// ```swift
    /// let cancellable = Publishers.Merge6(a, b, c, d, e, f).sink { print($0) }
    /// ```
    public struct Merge6<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>: Publisher
    where
        A.Output == B.Output, A.Failure == B.Failure, A.Output == C.Output, A.Failure == C.Failure,
        A.Output == D.Output, A.Failure == D.Failure, A.Output == E.Output, A.Failure == E.Failure,
        A.Output == F.Output, A.Failure == F.Failure
    {
        /// The shared output type.
        public typealias Output = A.Output
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
        /// The fifth source.
        public let e: E
        /// The sixth source.
        public let f: F

        /// Merges `a`, `b`, `c`, `d`, `e` and `f`.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
        }

        /// Attaches `subscriber`, then subscribes to the sources in order.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            MergeSources(downstream: subscriber).start { add in
                add(a)
                add(b)
                add(c)
                add(d)
                add(e)
                add(f)
            }
        }

        /// A ``Publishers/Merge7`` of this merge's sources and `g`: one flat merge, as in Combine,
        /// not a merge of merges.
        ///
        /// Same contract as ``Publisher/merge(with:_:_:_:_:_:)``.
        ///
        /// ```swift
        /// let cancellable = a.merge(with: b, c, d, e, f).merge(with: g).sink { print($0) }
        /// ```
        @inlinable
        public func merge<G: Publisher>(with g: G) -> Merge7<A, B, C, D, E, F, G>
        where G.Output == Output, G.Failure == Failure {
            Merge7(a, b, c, d, e, f, g)
        }

        /// A ``Publishers/Merge8`` of this merge's sources, `g` and `h`: one flat merge,
        /// as in Combine, not a merge of merges.
        ///
        /// Same contract as ``Publisher/merge(with:_:_:_:_:_:_:)``.
        ///
        /// ```swift
        /// let cancellable = a.merge(with: b, c, d, e, f).merge(with: g, h).sink { print($0) }
        /// ```
        @inlinable
        public func merge<G: Publisher, H: Publisher>(with g: G, _ h: H) -> Merge8<A, B, C, D, E, F, G, H>
        where G.Output == Output, G.Failure == Failure, H.Output == Output, H.Failure == Failure {
            Merge8(a, b, c, d, e, f, g, h)
        }
    }

    /// Merges seven publishers of the same output and failure; returned by
    /// ``Publisher/merge(with:_:_:_:_:_:)``.
    ///
    /// Its contract (demand, completion, cancellation, threading) is that of
    /// ``Publisher/merge(with:_:_:_:_:_:)``.
    ///
    /// ```swift
    /// let cancellable = Publishers.Merge7(a, b, c, d, e, f, g).sink { print($0) }
    /// ```
    public struct Merge7<
        A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher
    >: Publisher
    where
        A.Output == B.Output, A.Failure == B.Failure, A.Output == C.Output, A.Failure == C.Failure,
        A.Output == D.Output, A.Failure == D.Failure, A.Output == E.Output, A.Failure == E.Failure,
        A.Output == F.Output, A.Failure == F.Failure, A.Output == G.Output, A.Failure == G.Failure
    {
        /// The shared output type.
        public typealias Output = A.Output
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
        /// The fifth source.
        public let e: E
        /// The sixth source.
        public let f: F
        /// The seventh source.
        public let g: G

        /// Merges `a`, `b`, `c`, `d`, `e`, `f` and `g`.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
        }

        /// Attaches `subscriber`, then subscribes to the sources in order.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            MergeSources(downstream: subscriber).start { add in
                add(a)
                add(b)
                add(c)
                add(d)
                add(e)
                add(f)
                add(g)
            }
        }

        /// A ``Publishers/Merge8`` of this merge's sources and `h`: one flat merge, as in Combine,
        /// not a merge of merges.
        ///
        /// Same contract as ``Publisher/merge(with:_:_:_:_:_:_:)``.
        ///
        /// ```swift
        /// let cancellable = a.merge(with: b, c, d, e, f, g).merge(with: h).sink { print($0) }
        /// ```
        @inlinable
        public func merge<H: Publisher>(with h: H) -> Merge8<A, B, C, D, E, F, G, H>
        where H.Output == Output, H.Failure == Failure {
            Merge8(a, b, c, d, e, f, g, h)
        }
    }

    /// Merges eight publishers of the same output and failure; returned by
    /// ``Publisher/merge(with:_:_:_:_:_:_:)``.
    ///
    /// Its contract (demand, completion, cancellation, threading) is that of
    /// ``Publisher/merge(with:_:_:_:_:_:_:)``.
    ///
    /// ```swift
    /// let cancellable = Publishers.Merge8(a, b, c, d, e, f, g, h).sink { print($0) }
    /// ```
    public struct Merge8<
        A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher
    >: Publisher
    where
        A.Output == B.Output, A.Failure == B.Failure, A.Output == C.Output, A.Failure == C.Failure,
        A.Output == D.Output, A.Failure == D.Failure, A.Output == E.Output, A.Failure == E.Failure,
        A.Output == F.Output, A.Failure == F.Failure, A.Output == G.Output, A.Failure == G.Failure,
        A.Output == H.Output, A.Failure == H.Failure
    {
        /// The shared output type.
        public typealias Output = A.Output
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
        /// The fifth source.
        public let e: E
        /// The sixth source.
        public let f: F
        /// The seventh source.
        public let g: G
        /// The eighth source.
        public let h: H

        /// Merges `a`, `b`, `c`, `d`, `e`, `f`, `g` and `h`.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
            self.h = h
        }

        /// Attaches `subscriber`, then subscribes to the sources in order.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            MergeSources(downstream: subscriber).start { add in
                add(a)
                add(b)
                add(c)
                add(d)
                add(e)
                add(f)
                add(g)
                add(h)
            }
        }
    }
    /// Merges any number of publishers of one type, e.g. an array of requests.
    ///
    /// Same contract as ``Publisher/merge(with:)``: demand respected in total, serial delivery,
    /// finishes when all have finished (at once if there are none), the first failure cancels the
    /// others.
    ///
    /// ```swift
    /// let all = Publishers.MergeMany(ids.map { api.fetch($0) })
    /// let cancellable = Publishers.MergeMany(a, b, c).sink { print($0) }
    /// ```
    public struct MergeMany<Upstream: Publisher>: Publisher {
        /// The sources' output type.
        public typealias Output = Upstream.Output
        /// The sources' failure type.
        public typealias Failure = Upstream.Failure

        /// The sources, subscribed in this order.
        public let publishers: [Upstream]

        /// Merges the given publishers.
        @inlinable
        public init(_ upstream: Upstream...) { publishers = upstream }

        /// Merges the publishers of a sequence.
        @inlinable
        public init<S: Swift.Sequence>(_ upstream: S) where S.Element == Upstream { publishers = Array(upstream) }

        /// Attaches `subscriber`, then subscribes to the sources in order.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            MergeSources(downstream: subscriber).start { add in
                for publisher in publishers { add(publisher) }
            }
        }

        /// A `MergeMany` with `other` added as the last source.
        ///
        /// ```swift
        /// let more = Publishers.MergeMany(a, b).merge(with: c)
        /// ```
        @inlinable
        public func merge(with other: Upstream) -> MergeMany<Upstream> { MergeMany(publishers + [other]) }
    }
}

// Equal when their sources are equal, as in Combine.
extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {}
extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.Merge4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
extension Publishers.Merge5: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {}
extension Publishers.Merge6: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable {}
extension Publishers.Merge7: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable {}
extension Publishers.Merge8: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable, H: Equatable {}
extension Publishers.MergeMany: Equatable where Upstream: Equatable {}

/// The subscription of `merge` and `MergeMany`: a ``MergeCore`` fed by a fixed list of sources. It adds no
/// state: the engine's is guarded by its `lock`.
@usableFromInline
final class MergeSources<Output, Failure: Error, Downstream: Subscriber>:
    MergeCore<Output, Failure, Downstream, Subscribers.Completion<Failure>?>, @unchecked Sendable
where Downstream.Input == Output, Downstream.Failure == Failure {
    /// Sends the subscription downstream, subscribes every source `subscribeAll` adds (none if the subscriber
    /// cancelled meanwhile), then marks the list complete (so an empty list, or sources that all finished at once,
    /// finish now).
    @inlinable
    func start(_ subscribeAll: ((any Publisher<Output, Failure>) -> Void) -> Void) {
        guard handOverSubscription() else { return }
        subscribeAll { publisher in
            lock.lock()
            guard let side = linkSideLocked() else { return lock.unlock() }
            lock.unlock()
            publisher.receive(subscriber: side)
        }
        lock.lock()
        sourcesDone = true
        finishIfDoneLocked()
    }
}
