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

/// The subscriber and subscription of every *reducing* operator: `reduce`, `tryReduce`, `collect()`,
/// `count()`, `first()`, `first(where:)`, `tryFirst(where:)`, `last()`, `last(where:)`, `tryLast(where:)`,
/// `min`/`max` (`Comparison`, `TryComparison`), `contains`, `contains(where:)`, `tryContains(where:)`,
/// `allSatisfy`, `tryAllSatisfy`. One place for Combine's demand rule for them:
///
/// - when subscribed it passes its subscription downstream, then requests `.unlimited` from upstream
///   (the downstream's demand is not forwarded: one result is published, whatever is asked);
/// - each value is folded into the result by `step`, on the upstream's thread, never under the lock; a step
///   that returns ``ReduceStep/finish`` ends the fold early and cancels upstream;
/// - when the fold ends (upstream finished, or the step finished it) the result, if any, is *held* until
///   the downstream has requested at least one value, then published, followed by `.finished`;
/// - a failure is forwarded at once and the partial result dropped: the upstream's (erased to `any Error`
///   for the `try` operators), or a step's ``ReduceStep/fail(_:)``, which first cancels upstream;
/// - nothing reaches the downstream after it cancels, not even the `.finished` that follows the result
///   when it cancels from inside `receive(_:)` of that result.
///
/// A step receives the result so far as an `Output?` taken out of this object (so an array grows in place):
/// `nil` for an operator that has found nothing yet (`first`, `last`, `min`), and it leaves there what is to
/// be published.
@usableFromInline
final class ReducingInner<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, @unchecked Sendable
{
    @usableFromInline
    typealias Failure = UpstreamFailure
    @usableFromInline
    typealias Output = Downstream.Input
    /// Folds one value into the result so far.
    @usableFromInline
    typealias Step = (inout Output?, Input) -> ReduceStep<Downstream.Failure>

    @usableFromInline
    let link = UpstreamLink()
    /// Guards every `var` below (`@exclusivity(unchecked)`: each access is under it, or by the one
    /// upstream call in flight for `result`, which is taken out under it first).
    @usableFromInline
    let lock = Lock()
    /// Until the result is published, the upstream fails, or the downstream cancels. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    /// The fold, until it ends (then released, outside the lock). Guarded by `lock`: read under it, and
    /// called only by the one upstream call in flight, outside it.
    @usableFromInline
    @exclusivity(unchecked)
    var step: Step?
    /// The result so far (`nil` while `step` runs with it, and for an operator that has found nothing).
    /// Guarded by `lock`; the one upstream call in flight takes it out under the lock and puts it back.
    @usableFromInline
    @exclusivity(unchecked)
    var result: Output?
    /// The downstream requested at least one value. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var hasDemand = false
    /// The fold ended; the result waits for demand. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var isHolding = false
    /// The downstream cancelled (checked after it received the result, before `.finished`). Guarded by
    /// `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var isCancelled = false
    /// Turns an upstream failure into the downstream's: the identity, or the erasure to `any Error` of
    /// the `try` operators (a closure that captures nothing).
    @usableFromInline
    let forwardedFailure: (UpstreamFailure) -> Downstream.Failure
    @usableFromInline
    let description: String

    @inlinable
    init(
        downstream: Downstream, initial: Output?, name: String,
        forwardedFailure: @escaping (UpstreamFailure) -> Downstream.Failure, step: @escaping Step
    ) {
        self.downstream = downstream
        self.result = initial
        self.step = step
        self.forwardedFailure = forwardedFailure
        self.description = name
    }

    /// The inner of an operator with its upstream's failure type.
    @inlinable
    convenience init(downstream: Downstream, initial: Output?, name: String, step: @escaping Step)
    where UpstreamFailure == Downstream.Failure {
        self.init(downstream: downstream, initial: initial, name: name, forwardedFailure: { $0 }, step: step)
    }

    /// The inner of a `try` operator: its failure type is `any Error`, the upstream's failure is erased to it,
    /// and `step` returns ``ReduceStep/fail(_:)`` with what its closure threw.
    @inlinable
    convenience init(downstream: Downstream, initial: Output?, name: String, erasingFailure step: @escaping Step)
    where Downstream.Failure == any Error {
        self.init(downstream: downstream, initial: initial, name: name, forwardedFailure: { $0 }, step: step)
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        lock.lock()
        let downstream = self.downstream
        lock.unlock()
        downstream?.receive(subscription: self)
        link.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard downstream != nil, let step else {  // `step` is released once the fold ended
            lock.unlock()
            return .none
        }
        var partial = result.take()
        lock.unlock()
        let outcome = step(&partial, input)
        lock.lock()
        if downstream != nil { result = partial }
        lock.unlock()
        switch outcome {
        case .next:
            break
        case .finish:
            if link.finishAndCancel() { foldEnded() }
        case .fail(let error):
            // Upstream is cancelled before the downstream hears of the failure (as in Combine).
            if link.finishAndCancel() { release()?.downstream.receive(completion: .failure(error)) }
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        switch completion {
        case .failure(let error):
            release()?.downstream.receive(completion: .failure(forwardedFailure(error)))
        case .finished:
            foldEnded()
        }
    }

    /// Publishes the result now if the downstream has asked for it, or holds it until it does.
    @inlinable
    func foldEnded() {
        lock.lock()
        guard downstream != nil else { return lock.unlock() }
        guard hasDemand else {
            isHolding = true
            step = nil
            return lock.unlock()
        }
        lock.unlock()
        deliver()
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        lock.lock()
        guard downstream != nil else { return lock.unlock() }
        hasDemand = true
        let ready = isHolding
        lock.unlock()
        if ready { deliver() }
    }

    @inlinable
    func cancel() {
        link.cancel()
        lock.lock()
        isCancelled = true
        lock.unlock()
        _ = release()
    }

    /// Publishes the result (by whoever takes the downstream first), then `.finished` unless the downstream
    /// cancelled meanwhile.
    @inlinable
    func deliver() {
        guard let (downstream, result) = release() else { return }
        if let result {
            _ = downstream.receive(result)
            lock.lock()
            let cancelled = isCancelled
            lock.unlock()
            if cancelled { return }
        }
        downstream.receive(completion: .finished)
    }

    /// Takes the downstream and the result out (once), releasing the step closure outside the lock.
    @inlinable
    func release() -> (downstream: Downstream, result: Output?)? {
        lock.lock()
        let released = downstream.take()
        let last = result.take()
        let closure = step
        step = nil
        isHolding = false
        lock.unlock()
        _ = closure  // destroyed here, outside the lock
        guard let released else { return nil }
        return (released, last)
    }
}
