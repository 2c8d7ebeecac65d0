extension Publisher {
    /// Skips the first `count` values, then republishes the rest.
    ///
    /// - Demand: as Combine: the subscriber gets its subscription first; when the upstream subscription
    ///   arrives, `count` (the values to skip) plus whatever the subscriber has requested by then is asked
    ///   for in one request, so the skipped values are pulled even before the subscriber asks for any.
    ///   Later requests pass straight through.
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
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let inner = DropInner(downstream: subscriber, count: count)
            inner.start()
            upstream.receive(subscriber: inner)
        }
    }
}

/// The subscriber `dropFirst` attaches upstream, and the downstream's subscription. Shared across threads:
/// the upstream subscription is held by `link`, and `downstream` and `remaining` are guarded by `lock`.
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
    /// Guards `downstream` and `remaining` (`@exclusivity(unchecked)`: every access is under it, or in `init`).
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

    /// Before the upstream is subscribed: asks for the skipped values (kept by the link until the upstream
    /// subscription arrives, with what the subscriber requests meanwhile) and hands the subscriber its
    /// subscription.
    @inlinable
    func start() {
        lock.lock()
        let downstream = self.downstream
        let skipped = remaining
        lock.unlock()
        if skipped > 0 { link.request(.max(skipped)) }
        downstream?.receive(subscription: self)
    }

    @inlinable
    func receive(subscription: any Subscription) {
        _ = link.attach(subscription)  // forwards the skipped values plus the subscriber's demand so far
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard let downstream else {
            lock.unlock()
            return .none
        }
        if remaining > 0 {
            remaining -= 1  // requested up front in `start`
            lock.unlock()
            return .none
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
