extension Publisher {
    /// Republishes the upstream's values; if it finishes without having published any, publishes `output`
    /// and then finishes.
    ///
    /// - Demand: passes straight through, so the subscriber never gets more values than it requested.
    ///   (Combine also asks its upstream for `.unlimited` as soon as it is subscribed, and so can deliver
    ///   values the subscriber has not asked for; Streams does not.) The replacement needs demand: if the
    ///   upstream finishes empty before the subscriber has requested anything, `output` and `.finished` are
    ///   held until its first request, as in Combine.
    /// - Completion: a failure is forwarded at once (no replacement); a `.finished` after at least one value
    ///   is forwarded as is.
    /// - Cancellation: cancels upstream, or drops a held replacement; nothing reaches the subscriber after it.
    ///
    /// ```swift
    /// let c = [Double]().publisher.replaceEmpty(with: .nan).sink { print($0) }   // nan
    /// ```
    @inlinable
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/replaceEmpty(with:)``.
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The value published when the upstream finishes without publishing any.
        public let output: Upstream.Output
        /// The publisher whose emptiness is replaced.
        public let upstream: Upstream

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
            upstream.receive(subscriber: ReplaceEmptyInner(downstream: subscriber, output: output))
        }
    }
}

/// The subscriber `replaceEmpty` attaches upstream, and the downstream's subscription. Shared across
/// threads: the upstream subscription is held by `link`; `downstream`, `output` and the flags are guarded by
/// `lock`.
@usableFromInline
final class ReplaceEmptyInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable
{
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let link = UpstreamLink()
    /// Guards every `var` below (`@exclusivity(unchecked)`: every access is under it, or in `init`).
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    /// The replacement, until it is published or no longer needed. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var output: Input?
    /// The upstream has published a value: no replacement. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var hasValue = false
    /// The subscriber has requested at least one value. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var hasDemand = false
    /// The upstream finished empty before the subscriber requested anything: the replacement waits. Guarded
    /// by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var isHolding = false

    @inlinable
    init(downstream: Downstream, output: Input) {
        self.downstream = downstream
        self.output = output
    }

    @usableFromInline
    var description: String { "ReplaceEmpty" }

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
        hasValue = true
        let replacement = output.take()  // no longer needed: released outside the lock
        lock.unlock()
        _ = replacement
        return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        guard case .finished = completion else {
            release()?.receive(completion: completion)
            return
        }
        lock.lock()
        guard downstream != nil, !hasValue else {
            lock.unlock()
            release()?.receive(completion: .finished)
            return
        }
        guard hasDemand else {
            isHolding = true  // the replacement waits for the first request
            lock.unlock()
            return
        }
        lock.unlock()
        deliverReplacement()
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        lock.lock()
        hasDemand = true
        let ready = isHolding
        isHolding = false
        lock.unlock()
        if ready { deliverReplacement() } else { link.request(demand) }
    }

    @inlinable
    func cancel() {
        link.cancel()
        _ = release()
    }

    /// Publishes the replacement (if the upstream published nothing) and `.finished`, unless the subscriber
    /// cancelled meanwhile (including from inside `receive(_:)` of the replacement).
    @inlinable
    func deliverReplacement() {
        lock.lock()
        guard let downstream, let replacement = output.take() else {
            lock.unlock()
            return
        }
        lock.unlock()
        _ = downstream.receive(replacement)
        release()?.receive(completion: .finished)
    }

    /// Takes the downstream out (once) and drops the replacement, outside the lock; returns `nil` if already
    /// released.
    @inlinable
    func release() -> Downstream? {
        lock.lock()
        let released = downstream
        downstream = nil
        let replacement = output.take()
        isHolding = false
        lock.unlock()
        _ = replacement
        return released
    }
}

/// Equal when the upstreams and the replacements are equal, as in Combine.
extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}
