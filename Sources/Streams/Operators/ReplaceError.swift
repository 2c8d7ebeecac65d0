extension Publisher {
    /// Replaces a failure with one last value, `output`, followed by `.finished`.
    ///
    /// - Demand: the replacement counts against the downstream's demand: if the failure arrives when
    ///   the downstream has no demand left, the replacement is held until it requests, then delivered
    ///   and followed by `.finished`. A normal `.finished` is forwarded as is.
    ///
    /// ```swift
    /// let c = fetch().replaceError(with: []).sink { print($0) }
    /// ```
    @inlinable
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/replaceError(with:)``.
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// It never fails.
        public typealias Failure = Never

        /// The publisher whose failure is replaced.
        public let upstream: Upstream
        /// The value published in place of a failure.
        public let output: Output

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ReplaceErrorInner<Upstream.Failure, S>(downstream: subscriber, output: output))
        }
    }
}

/// `replaceError(with:)`'s subscriber and subscription. Every `var` is guarded by `lock`; the upstream
/// subscription is held by `link`.
@usableFromInline
final class ReplaceErrorInner<Failure: Error, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, @unchecked Sendable
where Downstream.Failure == Never {
    @usableFromInline
    typealias Input = Downstream.Input

    @usableFromInline
    let link = UpstreamLink()
    /// Guards every `var` below (`@exclusivity(unchecked)`: each access is under it).
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    @usableFromInline
    @exclusivity(unchecked)
    var output: Input?
    /// What the downstream requested and has not received yet. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none
    /// Upstream failed; the replacement waits for demand. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var isHolding = false
    /// The downstream cancelled (checked after it received the replacement, before `.finished`). Guarded by
    /// `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var isCancelled = false

    @inlinable
    init(downstream: Downstream, output: Input) {
        self.downstream = downstream
        self.output = output
    }

    @usableFromInline
    var description: String { "ReplaceError" }

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
        demand -= 1
        lock.unlock()
        let more = downstream.receive(input)
        lock.lock()
        if self.downstream != nil { demand += more }
        lock.unlock()
        return more
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        switch completion {
        case .finished:
            release()?.downstream.receive(completion: .finished)
        case .failure:
            lock.lock()
            guard downstream != nil else { return lock.unlock() }
            guard demand > .none else {
                isHolding = true
                return lock.unlock()
            }
            lock.unlock()
            deliverReplacement()
        }
    }

    @inlinable
    func request(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        lock.lock()
        guard downstream != nil else { return lock.unlock() }
        if isHolding {
            lock.unlock()
            return deliverReplacement()
        }
        demand += more
        lock.unlock()
        link.request(more)
    }

    @inlinable
    func cancel() {
        link.cancel()
        lock.withLock { isCancelled = true }
        _ = release()
    }

    @inlinable
    func deliverReplacement() {
        guard let (downstream, output) = release() else { return }
        if let output {
            _ = downstream.receive(output)
            // Nothing after a cancel, even one from inside `receive(_:)` of the replacement.
            if lock.withLock({ isCancelled }) { return }
        }
        downstream.receive(completion: .finished)
    }

    @inlinable
    func release() -> (downstream: Downstream, output: Input?)? {
        lock.lock()
        let released = (downstream, output)
        downstream = nil
        output = nil
        isHolding = false
        lock.unlock()
        guard let downstream = released.0 else { return nil }
        return (downstream, released.1)
    }
}
