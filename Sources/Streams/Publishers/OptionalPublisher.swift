extension Optional {
    /// A publisher of this optional: its value then `.finished`, or just `.finished` when it is `nil` —
    /// Combine's `Optional.Publisher`.
    ///
    /// - Demand: the value waits for a request of at least one; `nil` finishes at once.
    ///
    /// ```swift
    /// let c = Int("42").publisher.sink { print($0) }   // 42
    /// ```
    public var publisher: Publisher { Publisher(output: self) }

    /// The publisher of an optional value: ``Optional/publisher``.
    public struct Publisher: Streams.Publisher {
        /// The wrapped type.
        public typealias Output = Wrapped
        /// Never fails.
        public typealias Failure = Never

        /// The value published, if any.
        public let output: Wrapped?

        /// A publisher of `output`'s value, if any.
        @inlinable
        public init(_ output: Wrapped?) { self.output = output }

        @inlinable
        init(output: Wrapped?) { self.output = output }

        /// Attaches `subscriber`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Wrapped, S.Failure == Never {
            switch output {
            case .some(let value):
                let subscription = JustSubscription<Wrapped?>(
                    value: value, downstream: copy subscriber, name: .optional)
                subscriber.receive(subscription: subscription)
            case .none: Empty<Wrapped, Never>().receive(subscriber: subscriber)
            }
        }
    }
}

extension Result {
    /// A publisher of this result: its success value then `.finished`, or its failure — Combine's
    /// `Result.Publisher`.
    ///
    /// - Demand: the value waits for a request of at least one; a failure is sent at once.
    ///
    /// ```swift
    /// let c = Result<Int, ParseError>.success(1).publisher.sink(receiveCompletion: { _ in }) { print($0) }
    /// ```
    public var publisher: Publisher { Publisher(self) }

    /// The publisher of a result: ``Result/publisher``.
    public struct Publisher: Streams.Publisher {
        /// The success type.
        public typealias Output = Success

        /// The result published.
        public let result: Result<Success, Failure>

        /// A publisher of `result`.
        @inlinable
        public init(_ result: Result<Success, Failure>) { self.result = result }

        /// A publisher of `output` as a success.
        @inlinable
        public init(_ output: Success) { self.init(.success(output)) }

        /// A publisher of `failure`.
        @inlinable
        public init(_ failure: Failure) { self.init(.failure(failure)) }

        /// Attaches `subscriber`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Success, S.Failure == Failure {
            switch result {
            case .success(let value):
                let subscription = JustSubscription<Success?>(value: value, downstream: copy subscriber, name: .once)
                subscriber.receive(subscription: subscription)
            case .failure(let error): Fail<Success, Failure>(error: error).receive(subscriber: subscriber)
            }
        }
    }
}

// Equal when their values are equal, as in Combine.
extension Optional.Publisher: Equatable where Wrapped: Equatable {}
extension Result.Publisher: Equatable where Success: Equatable, Failure: Equatable {}
