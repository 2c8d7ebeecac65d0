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
        /// The link to upstream and both handlers, in one lock-protected object per sink.
        @usableFromInline
        struct State {
            @usableFromInline
            enum Upstream {
                case waiting
                case subscribed(any Subscription)
                case terminal
            }

            @usableFromInline
            var upstream = Upstream.waiting
            @usableFromInline
            var receiveValue: ((Input) -> Void)?
            @usableFromInline
            var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?

            @inlinable
            init(
                receiveValue: @escaping (Input) -> Void,
                receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
            ) {
                self.receiveValue = receiveValue
                self.receiveCompletion = receiveCompletion
            }
        }

        @usableFromInline
        let guarded: Locked<State>

        /// Creates a sink with a completion and a value handler.
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            guarded = Locked(State(receiveValue: receiveValue, receiveCompletion: receiveCompletion))
        }

        /// Stores the subscription and requests `.unlimited` (cancels it if one is already stored, or
        /// the sink has ended).
        @inlinable
        public func receive(subscription: any Subscription) {
            guarded.lock()
            guard case .waiting = guarded.state.upstream else {
                guarded.unlock()
                subscription.cancel()
                return
            }
            guarded.state.upstream = .subscribed(subscription)
            guarded.unlock()
            subscription.request(.unlimited)
        }

        /// Calls the value handler (unless cancelled).
        @inlinable
        public func receive(_ input: Input) -> Subscribers.Demand {
            // Explicit lock/unlock: returning the closure through the generic `withLock` would
            // reabstract it, allocating a thunk per value.
            guarded.lock()
            let receiveValue = guarded.state.receiveValue
            guarded.unlock()
            receiveValue?(input)
            return .none
        }

        /// Calls the completion handler once, then releases both handlers.
        @inlinable
        public func receive(completion: Subscribers.Completion<Failure>) {
            guarded.lock()
            if case .terminal = guarded.state.upstream {
                guarded.unlock()
                return
            }
            guarded.state.upstream = .terminal
            let handler = guarded.state.receiveCompletion
            let released = guarded.state.receiveValue
            guarded.state.receiveValue = nil
            guarded.state.receiveCompletion = nil
            guarded.unlock()
            _ = released
            handler?(completion)
        }

        /// Cancels upstream and releases the handlers. Idempotent.
        public func cancel() {
            guarded.lock()
            let upstream = guarded.state.upstream
            guarded.state.upstream = .terminal
            let released = (guarded.state.receiveValue, guarded.state.receiveCompletion)
            guarded.state.receiveValue = nil
            guarded.state.receiveCompletion = nil
            guarded.unlock()
            if case .subscribed(let subscription) = upstream { subscription.cancel() }
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
