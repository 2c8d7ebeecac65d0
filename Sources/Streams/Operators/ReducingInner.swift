/// What a reducing operator's step asks for after folding one value.
@usableFromInline
enum ReduceStep<Failure: Error> {
    /// Keep folding.
    case next
    /// The result is final (`first`, `contains` found their answer): cancel upstream and publish it.
    case finish
    /// The step failed (a `try` operator's closure threw): cancel upstream, drop the result and fail with
    /// this error at once.
    case fail(Failure)
}

/// The subscriber every *reducing* operator hands its upstream: `reduce`, `tryReduce`, `collect()`,
/// `count()`, `first()`, `first(where:)`, `tryFirst(where:)`, `last()`, `last(where:)`, `tryLast(where:)`,
/// `min`/`max` (`Comparison`, `TryComparison`), `contains`, `contains(where:)`, `tryContains(where:)`,
/// `allSatisfy`, `tryAllSatisfy`. With ``ReducingCore``, the subscription it hands downstream, one place for
/// Combine's demand rule for them:
///
/// - when subscribed it passes its subscription downstream, then requests `.unlimited` from upstream
///   (the downstream's demand is not forwarded: one result is published, whatever is asked);
/// - each value is folded into the result by `step`, on the upstream's thread, with no lock and no atomic
///   read-modify-write; a step that returns ``ReduceStep/finish`` ends the fold early and cancels upstream;
/// - when the fold ends (upstream finished, or the step finished it) the result, if any, is *held* until
///   the downstream has requested at least one value, then published, followed by `.finished`;
/// - a failure is forwarded at once and the partial result dropped: the upstream's (erased to `any Error`
///   for the `try` operators), or a step's ``ReduceStep/fail(_:)``, which first cancels upstream;
/// - nothing reaches the downstream after it cancels, not even the `.finished` that follows the result
///   when it cancels from inside `receive(_:)` of that result.
///
/// A stage (see ``StageLink``): the upstream's serial calls own the fold. The result so far is the link's
/// `state`, which only those calls touch (a step gets it `inout`, as an `Output?`, so an array grows in place:
/// `nil` for an operator that has found nothing yet, as `first`, `last`, `min`), and `step` lives in this struct,
/// which the upstream holds and releases, with the closure, when the stream completes or is cancelled (as in
/// Combine). A value costs one relaxed load of the link's phase and the step. Only the end of the fold meets the
/// downstream's request and cancel, which may come from any thread, in ``ReducingCore``'s lock.
@usableFromInline
struct ReducingInner<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline
    typealias Failure = UpstreamFailure
    @usableFromInline
    typealias Output = Downstream.Input
    /// Folds one value into the result so far.
    @usableFromInline
    typealias Step = (inout Output?, Input) -> ReduceStep<Downstream.Failure>

    @usableFromInline
    let core: ReducingCore<Downstream>
    @usableFromInline
    let step: Step
    /// Turns an upstream failure into the downstream's: the identity, or the erasure to `any Error` of
    /// the `try` operators (a closure that captures nothing).
    @usableFromInline
    let forwardedFailure: (UpstreamFailure) -> Downstream.Failure

    @inlinable
    init(
        downstream: Downstream, initial: Output?, name: String,
        forwardedFailure: @escaping (UpstreamFailure) -> Downstream.Failure, step: @escaping Step
    ) {
        self.core = ReducingCore(downstream: downstream, initial: initial, name: name)
        self.step = step
        self.forwardedFailure = forwardedFailure
    }

    /// The inner of an operator with its upstream's failure type.
    @inlinable
    init(downstream: Downstream, initial: Output?, name: String, step: @escaping Step)
    where UpstreamFailure == Downstream.Failure {
        self.init(downstream: downstream, initial: initial, name: name, forwardedFailure: { $0 }, step: step)
    }

    /// The inner of a `try` operator: its failure type is `any Error`, the upstream's failure is erased to it,
    /// and `step` returns ``ReduceStep/fail(_:)`` with what its closure threw.
    @inlinable
    init(downstream: Downstream, initial: Output?, name: String, erasingFailure step: @escaping Step)
    where Downstream.Failure == any Error {
        self.init(downstream: downstream, initial: initial, name: name, forwardedFailure: { $0 }, step: step)
    }

    @usableFromInline
    var description: String { core.description }
    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(core) }

    @inlinable
    func receive(subscription: any Subscription) {
        guard core.link.attach(subscription) else { return }
        core.handOver()
        core.link.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        // `core.link` read where it is each time: bound to a local, the reference is retained and released per value.
        guard core.link.isLive else { return .none }
        switch step(&core.link.state, input) {
        case .next:
            break
        case .finish:
            if core.link.finishAndCancel() { core.foldEnded() }
        case .fail(let error):
            // Upstream is cancelled before the downstream hears of the failure (as in Combine).
            if core.link.finishAndCancel() { core.fail(error) }
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard core.link.finish() else { return }
        switch completion {
        case .failure(let error):
            core.fail(forwardedFailure(error))
        case .finished:
            core.foldEnded()
        }
    }
}

/// The subscription of a reducing operator (see ``ReducingInner``): its upstream link, whose `state` is the
/// fold's result, and what the end of the fold shares with the downstream's requests and cancel, under `lock`.
@usableFromInline
final class ReducingCore<Downstream: Subscriber>: Subscription, CustomStringConvertible, @unchecked Sendable {
    @usableFromInline
    typealias Output = Downstream.Input

    /// The upstream subscription; its `state` is the result so far, owned by the upstream's serial calls
    /// (see ``StageLink``) until the fold ends, when ``foldEnded()`` moves it to `held`.
    @usableFromInline
    let link: StageLink<Output?, NoStageHooks>
    /// Guards every `var` below (`@exclusivity(unchecked)`: each access is under it).
    @usableFromInline
    let lock = Lock()
    /// Until the result is published, the fold fails, or the downstream cancels. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    /// The result of an ended fold, waiting for the downstream's first request. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var held: Output?
    /// The downstream requested at least one value. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var hasDemand = false
    /// The fold ended; `held` waits for demand. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var isHolding = false
    /// The downstream cancelled (checked after it received the result, before `.finished`). Guarded by
    /// `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var isCancelled = false
    @usableFromInline
    let description: String

    @inlinable
    init(downstream: Downstream, initial: Output?, name: String) {
        self.link = StageLink(.reducing, state: initial, hooks: NoStageHooks())
        self.downstream = downstream
        self.description = name
    }

    /// Hands this subscription to the downstream (the upstream's call, once the link is attached).
    @inlinable
    func handOver() {
        lock.lock()
        let downstream = self.downstream
        lock.unlock()
        downstream?.receive(subscription: self)
    }

    /// The fold ended (the upstream's call, after ending the link): publishes the result now if the downstream
    /// has asked for it, or holds it until it does. The result is moved out of the link's `state`, which this
    /// call still owns, into `held`, which the lock guards from here on.
    @inlinable
    func foldEnded() {
        let result = link.state.take()
        lock.lock()
        guard let downstream = self.downstream else { return lock.unlock() }  // cancelled: `result` is dropped
        guard hasDemand else {
            held = result
            isHolding = true
            return lock.unlock()
        }
        self.downstream = nil
        lock.unlock()
        deliver(result, to: downstream)
    }

    /// The fold failed (the upstream's call, after ending the link): drops the result and forwards `error`,
    /// unless the downstream has cancelled.
    @inlinable
    func fail(_ error: Downstream.Failure) {
        link.state = nil
        lock.lock()
        let downstream = self.downstream.take()
        lock.unlock()
        downstream?.receive(completion: .failure(error))
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        lock.lock()
        guard let downstream = self.downstream else { return lock.unlock() }
        hasDemand = true
        guard isHolding else { return lock.unlock() }
        isHolding = false
        self.downstream = nil
        let result = held.take()
        lock.unlock()
        deliver(result, to: downstream)
    }

    /// Ends the link (cancelling upstream) and releases the downstream and any held result. The result of a fold
    /// still running stays with the link, which only the upstream's calls touch, until the upstream lets go of
    /// its subscriber.
    @inlinable
    func cancel() {
        link.cancel()
        lock.lock()
        isCancelled = true
        isHolding = false
        let released = (downstream.take(), held.take())
        lock.unlock()
        _ = released  // destroyed here, outside the lock
    }

    /// Publishes the result (the downstream was taken out, once), then `.finished` unless the downstream
    /// cancelled meanwhile.
    @inlinable
    func deliver(_ result: Output?, to downstream: Downstream) {
        if let result {
            _ = downstream.receive(result)
            lock.lock()
            let cancelled = isCancelled
            lock.unlock()
            if cancelled { return }
        }
        downstream.receive(completion: .finished)
    }
}
