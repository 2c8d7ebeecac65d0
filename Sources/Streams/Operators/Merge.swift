extension Publisher {
    /// Republishes the values of this publisher and `other`, interleaved as they arrive.
    ///
    /// - Demand: never more values than the downstream requested, in total (each source is asked for
    ///   one value at a time while that demand is bounded, for `.unlimited` once it is unlimited).
    /// - Completion: finishes when both have finished; the first failure cancels the other source and
    ///   is delivered once.
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
    /// Same contract as ``merge(with:)``: demand respected in total, serial delivery, finishes when
    /// all have finished, the first failure cancels the others.
    ///
    /// ```swift
    /// let c = a.merge(with: b, c).sink { print($0) }
    /// ```
    @inlinable
    public func merge<B: Publisher, C: Publisher>(with b: B, _ c: C) -> Publishers.Merge3<Self, B, C>
    where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure {
        Publishers.Merge3(self, b, c)
    }

    /// Republishes the values of this publisher, `b`, `c` and `d`, interleaved as they arrive.
    ///
    /// Same contract as ``merge(with:)``. For more sources of one type use ``Publishers/MergeMany``.
    ///
    /// ```swift
    /// let c = a.merge(with: b, c, d).sink { print($0) }
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
}

extension Publishers {
    /// Merges two publishers of the same output and failure; returned by ``Publisher/merge(with:)``.
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
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let core = MergeSources(downstream: subscriber)
            core.start { add in
                add(a)
                add(b)
            }
        }
    }

    /// Merges three publishers of the same output and failure.
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
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            MergeSources(downstream: subscriber).start { add in
                add(a)
                add(b)
                add(c)
            }
        }
    }

    /// Merges four publishers of the same output and failure.
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
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            MergeSources(downstream: subscriber).start { add in
                add(a)
                add(b)
                add(c)
                add(d)
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
    /// let c = Publishers.MergeMany(a, b, c).sink { print($0) }
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

/// The subscription of `merge` and `MergeMany`: a ``MergeCore`` fed by a fixed list of sources. It adds no
/// state: the engine's is guarded by its `lock`.
@usableFromInline
final class MergeSources<Output, Failure: Error, Downstream: Subscriber>: MergeCore<Output, Failure, Downstream>,
    @unchecked Sendable
where Downstream.Input == Output, Downstream.Failure == Failure {
    /// Sends the subscription downstream, subscribes every source `subscribeAll` adds, then marks
    /// the list complete (so an empty list, or sources that all finished at once, finish now).
    @inlinable
    func start(_ subscribeAll: ((any Publisher<Output, Failure>) -> Void) -> Void) {
        // The box is retained under `lock`: a `cancel` during this call may release the stored reference.
        lock.lock()
        let box = downstream
        lock.unlock()
        box?.value.receive(subscription: self)
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
