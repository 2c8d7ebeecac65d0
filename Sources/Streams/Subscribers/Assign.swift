extension Subscribers {
    /// A subscriber that writes each value to a key path of an object.
    ///
    /// Holds the object strongly until cancelled or completed (as Combine does); cancel releases it.
    /// - Threading: writes happen on the thread the publisher delivers on. The subscriber's own state is in
    ///   `link` and `target`, each under its lock; the object itself is written without synchronisation.
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible, @unchecked Sendable {
        /// Never fails.
        public typealias Failure = Never

        @usableFromInline
        let link = UpstreamLink()
        @usableFromInline
        let target: Locked<(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>)?>

        /// Creates a subscriber that assigns to `keyPath` on `object`.
        @inlinable
        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            target = Locked((object, keyPath))
        }

        /// Stores the subscription and requests `.unlimited`.
        @inlinable
        public func receive(subscription: any Subscription) {
            if link.attach(subscription) { subscription.request(.unlimited) }
        }

        /// Assigns the value.
        @inlinable
        public func receive(_ input: Input) -> Subscribers.Demand {
            if let (object, keyPath) = target.withLock({ $0 }) { object[keyPath: keyPath] = input }
            return .none
        }

        /// Releases the object.
        @inlinable
        public func receive(completion: Subscribers.Completion<Never>) {
            guard link.finish() else { return }
            release()
        }

        /// Cancels upstream and releases the object.
        @inlinable
        public func cancel() {
            link.cancel()
            release()
        }

        @inlinable
        func release() {
            let released = target.withLock { target in
                defer { target = nil }
                return target
            }
            _ = released
        }

        /// `Assign`.
        public var description: String { "Assign" }
    }
}

extension Publisher where Failure == Never {
    /// Assigns each value to `keyPath` on `object`.
    ///
    /// ```swift
    /// let c = subject.assign(to: \.title, on: model)
    /// ```
    @inlinable
    public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root) -> AnyCancellable {
        let assign = Subscribers.Assign(object: object, keyPath: keyPath)
        subscribe(assign)
        return ObjectCancellable(assign)
    }
}
