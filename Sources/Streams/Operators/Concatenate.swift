extension Publisher {
    /// Publishes `elements` first, then this publisher's values.
    ///
    /// - Demand: respected throughout; demand left over after the elements goes to this publisher,
    ///   which is subscribed only once the elements are delivered.
    ///
    /// ```swift
    /// let c = [3, 4].publisher.prepend(1, 2).sink { print($0) }   // 1 2 3 4
    /// ```
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
        prepend(Publishers.Sequence(sequence: elements))
    }

    /// Publishes the elements of `elements` first, then this publisher's values.
    ///
    /// ```swift
    /// let c = subject.prepend(1...3).sink { print($0) }
    /// ```
    @inlinable
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self>
    where S.Element == Output {
        prepend(Publishers.Sequence(sequence: elements))
    }

    /// Publishes `publisher`'s values until it finishes, then this publisher's values.
    ///
    /// - Subscription: this publisher is subscribed only after `publisher` finishes; a failure of
    ///   `publisher` ends the stream.
    ///
    /// ```swift
    /// let c = live.prepend(cached).sink { print($0) }
    /// ```
    @inlinable
    public func prepend<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<P, Self>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Concatenate(prefix: publisher, suffix: self)
    }

    /// Publishes this publisher's values, then `elements` once it finishes.
    ///
    /// ```swift
    /// let c = [1, 2].publisher.append(3, 4).sink { print($0) }   // 1 2 3 4
    /// ```
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Publishes this publisher's values, then the elements of `elements` once it finishes.
    ///
    /// ```swift
    /// let c = subject.append(["done"]).sink { print($0) }
    /// ```
    @inlinable
    public func append<S: Sequence>(_ elements: S) -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>>
    where S.Element == Output {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Publishes this publisher's values, then `publisher`'s once this one finishes.
    ///
    /// ```swift
    /// let c = firstPage.append(secondPage).sink { print($0) }
    /// ```
    @inlinable
    public func append<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<Self, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Concatenate(prefix: self, suffix: publisher)
    }
}

extension Publishers {
    /// Publishes every value of `prefix`, then, once it finishes, every value of `suffix`.
    ///
    /// - Subscription: the downstream sees one subscription. `suffix` is subscribed only after `prefix`
    ///   finishes, and is asked for the demand the downstream requested and has not yet received.
    ///   A failure of either ends the stream; `cancel()` cancels whichever is current.
    ///
    /// ```swift
    /// let c = Publishers.Concatenate(prefix: Just(0), suffix: Just(1)).sink { print($0) }   // 0 1
    /// ```
    public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
    where Prefix.Output == Suffix.Output, Prefix.Failure == Suffix.Failure {
        /// The values' type.
        public typealias Output = Suffix.Output
        /// The failure type.
        public typealias Failure = Suffix.Failure

        /// The publisher published first.
        public let prefix: Prefix
        /// The publisher published after `prefix` finishes.
        public let suffix: Suffix

        /// Creates the operator.
        @inlinable
        public init(prefix: Prefix, suffix: Suffix) {
            self.prefix = prefix
            self.suffix = suffix
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let handoff = UpstreamHandoff(next: suffix, name: "Concatenate")
            prefix.receive(subscriber: ConcatenateFirstLeg(handoff: handoff, downstream: subscriber))
        }
    }
}

/// Feeds the prefix into the handoff; when it finishes, subscribes to the suffix.
@usableFromInline
struct ConcatenateFirstLeg<Downstream: Subscriber, Suffix: Publisher>: Subscriber, CustomStringConvertible
where Suffix.Output == Downstream.Input, Suffix.Failure == Downstream.Failure {
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let handoff: UpstreamHandoff<Suffix, Suffix?>
    @usableFromInline
    let downstream: Downstream

    @inlinable
    init(handoff: UpstreamHandoff<Suffix, Suffix?>, downstream: Downstream) {
        self.handoff = handoff
        self.downstream = downstream
    }

    @usableFromInline
    var description: String { handoff.description }
    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(handoff) }

    @inlinable
    func receive(subscription: any Subscription) { handoff.attach(subscription, from: .first, to: downstream) }
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand { handoff.receive(input, from: .first, to: downstream) }
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished:
            guard let suffix = handoff.handOff() else { return }
            suffix.receive(subscriber: HandoffSecondLeg(handoff: handoff, downstream: downstream))
        case .failure:
            handoff.complete(completion, from: .first, to: downstream)
        }
    }
}

// Equal when their parts are equal, as in Combine.
extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}
