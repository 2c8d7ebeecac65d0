extension Publisher {
    /// Republishes at most the first `maxLength` values, then finishes.
    ///
    /// - Completion: as soon as the `maxLength`-th value has been delivered, the upstream is cancelled and
    ///   `.finished` is sent, without waiting for another value. `prefix(0)` cancels the
    ///   upstream and finishes right after handing over the subscription (unless the subscriber cancelled
    ///   in `receive(subscription:)`: nothing reaches a subscriber after it cancels). An earlier upstream completion is forwarded.
    /// - Demand: passes straight through.
    /// - Naming: Combine calls the returned type `Publishers.Output`; here it is ``Publishers/Prefix``.
    /// - Precondition: `maxLength >= 0`.
    ///
    /// ```swift
    /// let c = subject.prefix(2).sink { print($0) }   // the first two values, then finished
    /// ```
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Prefix<Self> {
        precondition(maxLength >= 0, "prefix(_:): maxLength must not be negative")
        return Publishers.Prefix(upstream: self, maxLength: maxLength)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/prefix(_:)``.
    public struct Prefix<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose first values are republished.
        public let upstream: Upstream
        /// How many values to republish.
        public let maxLength: Int

        /// Creates the operator. `maxLength` must not be negative.
        @inlinable
        public init(upstream: Upstream, maxLength: Int) {
            precondition(maxLength >= 0, "prefix(_:): maxLength must not be negative")
            self.upstream = upstream
            self.maxLength = maxLength
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: PrefixInner(downstream: subscriber, count: maxLength))
        }
    }
}

/// Republishes the first `count` values, then cancels upstream and finishes right after delivering the last
/// one. Demand passes straight through. `downstream` and `remaining` are guarded by `lock`; the upstream
/// subscription is held by `link`.
@usableFromInline
final class PrefixInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable
{
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let link = UpstreamLink()
    /// Guards `downstream` and `remaining` (`@exclusivity(unchecked)`: every access is under it).
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
    var description: String { "Prefix" }

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        let isEmpty = remaining == 0
        lock.unlock()
        guard isEmpty else {
            guard link.attach(subscription) else { return }
            lock.withLock { self.downstream }?.receive(subscription: self)
            return
        }
        // prefix(0): nothing to wait for, nothing to ask upstream for. The link is never attached (a request
        // meanwhile waits in it, and is dropped); a downstream that cancels in `receive(subscription:)` ends it
        // and gets nothing more.
        lock.withLock { self.downstream }?.receive(subscription: self)
        let isLive = link.finishAndCancel()
        subscription.cancel()
        if isLive { release()?.receive(completion: .finished) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard let downstream, remaining > 0 else {
            lock.unlock()
            return .none
        }
        remaining -= 1
        let isLast = remaining == 0
        lock.unlock()
        let more = downstream.receive(input)
        guard isLast else { return more }
        // The last value is delivered: end now rather than when another value arrives. If the downstream
        // cancelled from inside `receive`, the link is already terminal and nothing more is sent.
        if link.finishAndCancel() { release()?.receive(completion: .finished) }
        return .none
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
