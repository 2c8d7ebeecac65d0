extension Publisher {
    /// Publishes each intermediate result of folding the values with `nextPartialResult`.
    ///
    /// - Demand: one result out per value in; demand passes straight through.
    /// - Threading: `nextPartialResult` runs on the upstream's thread, never under a lock.
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher.scan(0, +).sink { print($0) }   // 1 3 6
    /// ```
    @inlinable
    public consuming func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
        -> Publishers.Scan<Self, T>
    {
        Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/scan(_:_:)``.
    public struct Scan<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are folded.
        public let upstream: Upstream
        /// The value the fold starts from.
        public let initialResult: Output
        /// Combines the previous result with a new value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates the operator.
        @inlinable
        public init(
            upstream: Upstream, initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public consuming func receive<S: Subscriber>(subscriber: consuming S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: ScanStage<Upstream.Output, S>(
                    downstream: subscriber, initial: initialResult, nextPartialResult: nextPartialResult))
        }
    }
}

/// `scan`'s subscriber: a stage (see ``StageLink``). The running result is the link's state, which only the
/// upstream's serial calls touch, so a value costs no lock.
@usableFromInline
struct ScanStage<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline
    typealias Failure = Downstream.Failure
    @usableFromInline
    typealias Output = Downstream.Input

    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let link: StageLink<Output, NoStageHooks>
    @usableFromInline
    let nextPartialResult: (Output, Input) -> Output

    @inlinable
    init(downstream: Downstream, initial: Output, nextPartialResult: @escaping (Output, Input) -> Output) {
        self.downstream = downstream
        self.link = StageLink(.scan, state: initial, hooks: NoStageHooks())
        self.nextPartialResult = nextPartialResult
    }

    @usableFromInline
    var description: String { "Scan" }
    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(link) }

    @inlinable
    func receive(subscription: any Subscription) { link.attach(subscription, handingTo: downstream) }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard link.isLive else { return .none }
        let next = nextPartialResult(link.state, input)
        guard link.isLive else { return .none }  // cancelled while folding: deliver nothing more
        link.state = next
        return downstream.receive(next)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { link.forward(completion, to: downstream) }
}
