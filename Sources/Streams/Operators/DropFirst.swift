extension Publisher {
    /// Skips the first `count` values, then republishes the rest.
    ///
    /// - Demand: each skipped value gives its demand back upstream (asks for one more), so the
    ///   downstream still receives as many values as it requested.
    /// - Precondition: `count >= 0`.
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher.dropFirst().sink { print($0) }   // 2 3
    /// ```
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        precondition(count >= 0, "dropFirst(_:): count must not be negative")
        return Publishers.Drop(upstream: self, count: count)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/dropFirst(_:)``.
    public struct Drop<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose first values are skipped.
        public let upstream: Upstream
        /// How many values to skip.
        public let count: Int

        /// Creates the operator. `count` must not be negative.
        @inlinable
        public init(upstream: Upstream, count: Int) {
            precondition(count >= 0, "dropFirst(_:): count must not be negative")
            self.upstream = upstream
            self.count = count
        }

        /// Attaches `subscriber`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: DropInner(downstream: subscriber, count: count))
        }
    }
}

@usableFromInline
final class DropInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable
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
    var remaining: Int

    @inlinable
    init(downstream: Downstream, count: Int) {
        self.downstream = downstream
        self.remaining = count
    }

    @usableFromInline
    var description: String { "Drop" }

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
        guard let downstream else {
            lock.unlock()
            return .none
        }
        if remaining > 0 {
            remaining -= 1
            lock.unlock()
            return .max(1)
        }
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
        let released = downstream
        downstream = nil
        lock.unlock()
        return released
    }
}
