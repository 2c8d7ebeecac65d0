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
            upstream.receive(subscriber: ReplaceEmptyStage(downstream: subscriber, output: output))
        }
    }
}

/// The subscriber `replaceEmpty` attaches upstream: a stage (see ``StageLink``). Whether a value has come is the
/// link's state, which only the upstream's serial calls touch, so a value costs one relaxed load of the link's phase
/// and the call downstream; only the first one also drops the replacement, under ``ReplaceEmptyCore``'s lock. The end
/// of an empty stream meets the downstream's request and cancel there too: the replacement waits for demand.
@usableFromInline
struct ReplaceEmptyStage<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    /// The values' way downstream. The core keeps a copy of it for the completion and the replacement, which
    /// may go from the thread of the first request.
    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let core: ReplaceEmptyCore<Downstream>

    @inlinable
    init(downstream: Downstream, output: Input) {
        self.downstream = downstream
        self.core = ReplaceEmptyCore(downstream: downstream, output: output)
    }

    @usableFromInline
    var description: String { "ReplaceEmpty" }
    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(core) }

    @inlinable
    func receive(subscription: any Subscription) {
        guard core.link.attach(subscription) else { return }
        downstream.receive(subscription: core)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        // `core.link` read where it is each time: bound to a local, the reference is retained and released per value.
        guard core.link.isLive else { return .none }
        if !core.link.state {
            core.link.state = true
            core.dropReplacement()
        }
        return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let link = core.link
        guard link.finish() else { return }
        guard case .finished = completion, !link.state else {
            core.release()?.receive(completion: completion)
            return
        }
        core.finishedEmpty()
    }
}

/// The subscription `replaceEmpty` hands downstream (see ``ReplaceEmptyStage``): its upstream link, whose state says
/// whether a value has come, and what an empty stream's end shares with the downstream's request and cancel, under
/// `lock`.
@usableFromInline
final class ReplaceEmptyCore<Downstream: Subscriber>: Subscription, CustomStringConvertible, @unchecked Sendable {
    @usableFromInline
    typealias Input = Downstream.Input

    /// The upstream subscription; its state, owned by the upstream's serial calls, is whether a value has come.
    @usableFromInline
    let link: StageLink<Bool, NoStageHooks>
    /// Guards every `var` below (`@exclusivity(unchecked)`: every access is under it, or in `init`).
    @usableFromInline
    let lock = Lock()
    /// For the completion and the replacement; `nil` once one was sent or the downstream cancelled. Guarded by
    /// `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    /// The replacement, until it is published or no longer needed. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var output: Input?
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
        self.link = StageLink(.replaceEmpty, state: false, hooks: NoStageHooks())
        self.downstream = downstream
        self.output = output
    }

    @usableFromInline
    var description: String { "ReplaceEmpty" }

    /// The first value came: the replacement is no longer needed (released outside the lock).
    @inlinable
    func dropReplacement() {
        lock.lock()
        let replacement = output.take()
        lock.unlock()
        _ = replacement
    }

    /// The upstream finished without a value (its call, after ending the link): the replacement goes now if the
    /// subscriber has asked for anything, or waits for its first request.
    @inlinable
    func finishedEmpty() {
        lock.lock()
        guard downstream != nil else { return lock.unlock() }  // cancelled
        guard hasDemand else {
            isHolding = true
            return lock.unlock()
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

    /// Publishes the replacement and `.finished`, unless the subscriber cancelled meanwhile (including from inside
    /// `receive(_:)` of the replacement).
    @inlinable
    func deliverReplacement() {
        lock.lock()
        guard let downstream, let replacement = output.take() else { return lock.unlock() }
        lock.unlock()
        _ = downstream.receive(replacement)
        release()?.receive(completion: .finished)
    }

    /// Takes the downstream out (once) and drops the replacement, outside the lock; `nil` if already released.
    @inlinable
    func release() -> Downstream? {
        lock.lock()
        let released = downstream.take()
        let replacement = output.take()
        isHolding = false
        lock.unlock()
        _ = replacement
        return released
    }
}

/// Equal when the upstreams and the replacements are equal, as in Combine.
extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}
