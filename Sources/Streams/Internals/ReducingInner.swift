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
/// `allSatisfy`, `tryAllSatisfy`. With ``HeldResultCore``, the subscription it hands downstream, one place for
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
/// downstream's request and cancel, which may come from any thread, in ``HeldResultCore`` (an atomic byte of flags).
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
    let core: HeldResultCore<Downstream, Downstream?, Downstream.Input?>
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
        self.core = HeldResultCore(
            downstream: downstream, name: .reducing, initial: initial, forwardsDemand: false, description: name)
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
            if core.link.finishAndCancel() { core.publish(core.link.state.take()) }
        case .fail(let error):
            // Upstream is cancelled before the downstream hears of the failure (as in Combine).
            if core.link.finishAndCancel() { fail(error) }
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard core.link.finish() else { return }
        switch completion {
        case .failure(let error):
            fail(forwardedFailure(error))
        case .finished:
            core.publish(core.link.state.take())
        }
    }

    /// The fold failed (after the link ended): the partial result is dropped and `error` forwarded at once.
    @inlinable
    func fail(_ error: Downstream.Failure) {
        core.link.state = nil
        core.forward(.failure(error))
    }
}
