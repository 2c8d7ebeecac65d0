extension Subscribers {
    /// A subscriber that requests unlimited values and hands each event to a closure.
    ///
    /// Created by ``Publisher/sink(receiveCompletion:receiveValue:)``. Cancelling it cancels the
    /// upstream subscription and releases both closures (and whatever they capture); so does receiving
    /// the completion.
    ///
    /// - Threading: the closures run on whatever thread the upstream delivers on, serially.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
        @unchecked Sendable
    {
        @usableFromInline
        struct Handlers {
            @usableFromInline
            var receiveValue: ((Input) -> Void)?
            @usableFromInline
            var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
            @inlinable
            init(
                receiveValue: ((Input) -> Void)? = nil,
                receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
            ) {
                self.receiveValue = receiveValue
                self.receiveCompletion = receiveCompletion
            }
        }

        @usableFromInline
        let link = UpstreamLink()
        @usableFromInline
        let handlers: Locked<Handlers>

        /// Creates a sink with a completion and a value handler.
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            handlers = Locked(Handlers(receiveValue: receiveValue, receiveCompletion: receiveCompletion))
        }

        /// Stores the subscription and requests `.unlimited`.
        @inlinable
        public func receive(subscription: any Subscription) {
            if link.attach(subscription) { subscription.request(.unlimited) }
        }

        /// Calls the value handler (unless cancelled).
        @inlinable
        public func receive(_ input: Input) -> Subscribers.Demand {
            // Explicit lock/unlock: returning the closure through the generic `withLock` would
            // reabstract it, allocating a thunk per value.
            handlers.lock()
            let receiveValue = handlers.state.receiveValue
            handlers.unlock()
            receiveValue?(input)
            return .none
        }

        /// Calls the completion handler once, then releases both handlers.
        @inlinable
        public func receive(completion: Subscribers.Completion<Failure>) {
            guard link.finish() else { return }
            let handler = handlers.withLock { handlers -> ((Subscribers.Completion<Failure>) -> Void)? in
                defer { handlers = Handlers() }
                return handlers.receiveCompletion
            }
            handler?(completion)
        }

        /// Cancels upstream and releases the handlers. Idempotent.
        public func cancel() {
            link.cancel()
            let released = handlers.withLock { handlers -> Handlers in
                defer { handlers = Handlers() }
                return handlers
            }
            _ = released  // the closures are destroyed here, outside the lock
        }

        /// `Sink`.
        public var description: String { "Sink" }
    }
}

extension Publisher {
    /// Subscribes with closures for the values and the completion, requesting unlimited values.
    ///
    /// Returns an ``AnyCancellable``: keep it, or the subscription is cancelled at once.
    /// - Threading: closures run on the thread the publisher delivers on.
    ///
    /// ```swift
    /// let c = [1, 2].publisher.sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    @inlinable
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable(sink)
    }
}

extension Publisher where Failure == Never {
    /// Subscribes with a closure for the values of a publisher that cannot fail.
    ///
    /// ```swift
    /// let c = subject.sink { print($0) }
    /// ```
    @inlinable
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}
