extension Publisher {
    /// Republishes every value and `.finished`; a failure from upstream stops the program.
    ///
    /// A programmer-error trap by design, as in Combine: use it where a failure would be a bug (a publisher
    /// that is known not to fail but has a failure type), not to handle errors. The trap is active in every
    /// build configuration, release builds included, like `fatalError`.
    ///
    /// - Failure: the failure type becomes `Never`. When the upstream fails, the process stops with a fatal
    ///   error whose message is `prefix` (followed by `": "` unless it is empty) and the error, reported at
    ///   `file` and `line` (by default, where `assertNoFailure` was called).
    /// - Demand and timing: untouched; the subscription is the upstream's own (no lock, no allocation).
    /// - Cancellation: the upstream's own; a failure after a cancel never reaches this operator's check
    ///   if the upstream honours the cancel.
    ///
    /// ```swift
    /// let c = loadBundledCatalogue().assertNoFailure("bundled catalogue").sink { show($0) }
    /// ```
    @inlinable
    public func assertNoFailure(_ prefix: String = "", file: StaticString = #file, line: UInt = #line)
        -> Publishers.AssertNoFailure<Self>
    {
        Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/assertNoFailure(_:file:line:)``.
    public struct AssertNoFailure<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// It never fails: an upstream failure stops the program.
        public typealias Failure = Never

        /// The publisher checked.
        public let upstream: Upstream
        /// The start of the fatal error's message.
        public let prefix: String
        /// The file the fatal error is reported in.
        public let file: StaticString
        /// The line the fatal error is reported at.
        public let line: UInt

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
            self.upstream = upstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: AssertNoFailureInner<Upstream.Failure, S>(
                    downstream: subscriber, prefix: prefix, file: file, line: line))
        }
    }
}

/// Forwards values and `.finished`; traps on a failure. Stateless: the upstream's subscription is passed on.
@usableFromInline
struct AssertNoFailureInner<Failure: Error, Downstream: Subscriber>: Subscriber, CustomStringConvertible
where Downstream.Failure == Never {
    @usableFromInline
    typealias Input = Downstream.Input

    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let prefix: String
    @usableFromInline
    let file: StaticString
    @usableFromInline
    let line: UInt

    @inlinable
    init(downstream: Downstream, prefix: String, file: StaticString, line: UInt) {
        self.downstream = downstream
        self.prefix = prefix
        self.file = file
        self.line = line
    }

    @usableFromInline
    var description: String { "AssertNoFailure" }

    @inlinable
    func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(input) }
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished:
            downstream.receive(completion: .finished)
        case .failure(let error):
            fatalError("\(prefix.isEmpty ? "" : prefix + ": ")\(error)", file: file, line: line)
        }
    }
}
