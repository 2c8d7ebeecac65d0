extension Subscribers {
    /// A subscriber that writes each value to a key path of an object.
    ///
    /// Holds the object strongly until cancelled or completed (as Combine does); cancel releases it.
    /// - Threading: writes happen on the thread the publisher delivers on. The subscriber's own state (the upstream
    ///   subscription and ``object``) is under `link`'s lock; the object itself is written without synchronisation.
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible, @unchecked Sendable {
        /// Never fails.
        public typealias Failure = Never

        /// The upstream subscription, and the one lock of this subscriber: it guards `target`
        /// (`@exclusivity(unchecked)`: each access is under it, or in `init`).
        @usableFromInline
        let link = UpstreamLink()
        /// The object written to; `nil` once completed or cancelled. Guarded by `link`'s lock.
        @usableFromInline
        @exclusivity(unchecked)
        var target: Root?
        /// The key path written on ``object``.
        public let keyPath: ReferenceWritableKeyPath<Root, Input>

        /// The object values are written to; `nil` once the subscriber has completed or been cancelled.
        @inlinable
        public var object: Root? { link.withLock { target } }

        /// Creates a subscriber that assigns to `keyPath` on `object`.
        @inlinable
        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            target = object
            self.keyPath = keyPath
        }

        /// Stores the subscription and requests `.unlimited`.
        @inlinable
        public func receive(subscription: any Subscription) {
            if link.attach(subscription) { subscription.request(.unlimited) }
        }

        /// Assigns the value.
        @inlinable
        public func receive(_ input: Input) -> Subscribers.Demand {
            if let object = link.withLock({ target }) { object[keyPath: keyPath] = input }
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
            link.lock()
            let upstream = link.cancelLocked()
            let released = target
            target = nil
            link.unlock()
            upstream?.cancel()
            _ = released  // released here, outside the lock
        }

        @inlinable
        func release() {
            let released = link.withLock { () -> Root? in
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
