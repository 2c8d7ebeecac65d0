extension Publisher {
    /// Drops every value and forwards only the completion.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed (as Combine does), after handing its
    ///   subscription downstream; a downstream request passes through (it changes nothing: no value is ever
    ///   published).
    /// - Completion: `.finished` or the failure is forwarded at once; it needs no demand.
    /// - Cancellation: cancels upstream; nothing reaches the subscriber afterwards, not even a completion.
    ///
    /// ```swift
    /// let c = [1, 2].publisher.ignoreOutput().sink(receiveCompletion: { print($0) }) { _ in }   // finished
    /// ```
    @inlinable
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/ignoreOutput()``.
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        /// No value is ever published.
        public typealias Output = Never
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose completion is forwarded.
        public let upstream: Upstream

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: IgnoreOutputInner<Upstream.Output, S>(downstream: subscriber))
        }
    }
}

/// The subscriber and subscription of `ignoreOutput()`: requests `.unlimited`, drops the values, forwards the
/// completion once, and nothing after a cancel. Sound as `@unchecked Sendable`: its upstream is in an
/// `UpstreamLink` and `downstream` is guarded by `lock`.
@usableFromInline
final class IgnoreOutputInner<Input, Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable
where Downstream.Input == Never {
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let link = UpstreamLink()
    /// Guards `downstream` (`@exclusivity(unchecked)`: each access is under it).
    @usableFromInline
    let lock = Lock()
    /// Until the upstream completes or the downstream cancels. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?

    @inlinable
    init(downstream: Downstream) { self.downstream = downstream }

    @usableFromInline
    var description: String { "IgnoreOutput" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        lock.lock()
        let downstream = self.downstream
        lock.unlock()
        downstream?.receive(subscription: self)
        link.request(.unlimited)  // ignored if the downstream cancelled meanwhile
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand { .none }

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

    /// Takes the downstream out (once); it is released by the caller, outside the lock.
    @inlinable
    func release() -> Downstream? {
        lock.lock()
        let released = downstream.take()
        lock.unlock()
        return released
    }
}
