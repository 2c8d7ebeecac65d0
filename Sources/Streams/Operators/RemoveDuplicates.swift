extension Publisher where Output: Equatable {
    /// Republishes a value only if it differs from the previous value published.
    ///
    /// - Demand: a dropped duplicate gives its demand back upstream (asks for one more).
    ///
    /// ```swift
    /// let c = [1, 1, 2, 2, 1].publisher.removeDuplicates().sink { print($0) }   // 1 2 1
    /// ```
    @inlinable
    public consuming func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        removeDuplicates(by: ==)
    }
}

extension Publisher {
    /// Republishes a value only if `predicate(previous, value)` is `false`, where `previous` is the
    /// last value *published* (as in Combine, a dropped duplicate does not become `previous`).
    ///
    /// - Demand: a dropped duplicate gives its demand back upstream (asks for one more).
    /// - Threading: `predicate` runs on the upstream's thread, never under a lock.
    ///
    /// ```swift
    /// let c = names.removeDuplicates { $0.lowercased() == $1.lowercased() }.sink { print($0) }
    /// ```
    @inlinable
    public consuming func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool)
        -> Publishers.RemoveDuplicates<Self>
    {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/removeDuplicates()`` and ``Publisher/removeDuplicates(by:)``.
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose duplicates are removed.
        public let upstream: Upstream
        /// Returns `true` when the second value duplicates the first.
        public let predicate: (Output, Output) -> Bool

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public consuming func receive<S: Subscriber>(subscriber: consuming S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: RemoveDuplicatesStage<S>(downstream: subscriber, predicate: predicate))
        }
    }
}

/// `removeDuplicates`' subscriber: a stage (see ``StageLink``). The last value published is the link's
/// state, which only the upstream's serial calls touch, so a value costs no lock.
@usableFromInline
struct RemoveDuplicatesStage<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let downstream: Downstream
    /// Its state is the last value published (`nil` before the first).
    @usableFromInline
    let link: StageLink<Input?, NoStageHooks>
    @usableFromInline
    let predicate: (Input, Input) -> Bool

    @inlinable
    init(downstream: Downstream, predicate: @escaping (Input, Input) -> Bool) {
        self.downstream = downstream
        self.link = StageLink(.removeDuplicates, state: nil, hooks: NoStageHooks())
        self.predicate = predicate
    }

    @usableFromInline
    var description: String { "RemoveDuplicates" }
    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(link) }

    @inlinable
    func receive(subscription: any Subscription) { link.attach(subscription, handingTo: downstream) }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard link.isLive else { return .none }
        if let previous = link.state, predicate(previous, input) { return .max(1) }
        guard link.isLive else { return .none }  // cancelled while comparing: deliver nothing more
        link.state = input
        return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { link.forward(completion, to: downstream) }
}
