#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Publisher {
    /// Stops in the debugger (raises `SIGTRAP`) when a closure says so for an event passing through.
    ///
    /// Without a debugger attached, `SIGTRAP` ends the program, as in Combine: use it while debugging only.
    /// Events pass through unchanged; the closures run on the event's thread.
    ///
    /// ```swift
    /// let c = prices.breakpoint(receiveOutput: { $0 < 0 }).sink { _ in }   // stops on a negative price
    /// ```
    @inlinable
    public func breakpoint(
        receiveSubscription: ((any Subscription) -> Bool)? = nil,
        receiveOutput: ((Output) -> Bool)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
    ) -> Publishers.Breakpoint<Self> {
        Publishers.Breakpoint(
            upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion)
    }

    /// Stops in the debugger (raises `SIGTRAP`) when the upstream fails.
    ///
    /// ```swift
    /// let c = request.breakpointOnError().sink(receiveCompletion: { _ in }) { _ in }
    /// ```
    @inlinable
    public func breakpointOnError() -> Publishers.Breakpoint<Self> {
        breakpoint(receiveCompletion: { completion in
            if case .failure = completion { true } else { false }
        })
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/breakpoint(receiveSubscription:receiveOutput:receiveCompletion:)``.
    public struct Breakpoint<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher watched.
        public let upstream: Upstream
        /// Stops when it returns `true` for the subscription.
        public let receiveSubscription: ((any Subscription) -> Bool)?
        /// Stops when it returns `true` for a value.
        public let receiveOutput: ((Output) -> Bool)?
        /// Stops when it returns `true` for the completion.
        public let receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)?

        /// Watches `upstream`'s events with the given closures.
        @inlinable
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Bool)? = nil,
            receiveOutput: ((Output) -> Bool)? = nil,
            receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
        }

        /// Attaches `subscriber`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let (onSubscription, onOutput, onCompletion) = (receiveSubscription, receiveOutput, receiveCompletion)
            upstream
                .handleEvents(
                    receiveSubscription: { if onSubscription?($0) == true { Self.stop() } },
                    receiveOutput: { if onOutput?($0) == true { Self.stop() } },
                    receiveCompletion: { if onCompletion?($0) == true { Self.stop() } }
                )
                .receive(subscriber: subscriber)
        }

        /// Raises `SIGTRAP`: the debugger stops here.
        @usableFromInline
        static func stop() { _ = raise(SIGTRAP) }
    }
}
