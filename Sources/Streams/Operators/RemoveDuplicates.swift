extension Publisher where Output: Equatable {
    /// Republishes a value only if it differs from the previous value published.
    ///
    /// - Demand: a dropped duplicate gives its demand back upstream (asks for one more).
    ///
    /// ```swift
    /// let c = [1, 1, 2, 2, 1].publisher.removeDuplicates().sink { print($0) }   // 1 2 1
    /// ```
    @inlinable
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
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
    public func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool)
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
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: RemoveDuplicatesInner(downstream: subscriber, predicate: predicate))
        }
    }
}

@usableFromInline
final class RemoveDuplicatesInner<Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, @unchecked Sendable
{
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let link = UpstreamLink()
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    @usableFromInline
    @exclusivity(unchecked)
    var predicate: ((Input, Input) -> Bool)?
    @usableFromInline
    @exclusivity(unchecked)
    var previous: Input?

    @inlinable
    init(downstream: Downstream, predicate: @escaping (Input, Input) -> Bool) {
        self.downstream = downstream
        self.predicate = predicate
    }

    @usableFromInline
    var description: String { "RemoveDuplicates" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        lock.lock()
        let downstream = self.downstream
        lock.unlock()
        downstream?.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard let downstream, let predicate else {
            lock.unlock()
            return .none
        }
        let previous = self.previous
        lock.unlock()
        if let previous, predicate(previous, input) { return .max(1) }
        lock.lock()
        guard self.downstream != nil else {
            lock.unlock()
            return .none
        }
        self.previous = input
        lock.unlock()
        return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        release()?.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) { link.request(demand) }

    @inlinable
    func cancel() {
        link.cancel()
        _ = release()
    }

    @inlinable
    func release() -> Downstream? {
        lock.lock()
        // One `take()` each rather than a tuple: this runs unspecialised (`cancel` arrives through the
        // `Subscription` witness), where a tuple type costs one more metadata lookup.
        // A closure is copied and cleared rather than `take()`n: `take()` would look up the metadata of its
        // function type.
        let released = downstream.take()
        let closure = predicate
        predicate = nil
        let last = previous.take()
        lock.unlock()
        _ = closure  // both destroyed here, outside the lock
        _ = last
        return released
    }
}
