/// What a reducing operator's step asks for after folding one value.
@usableFromInline
enum ReduceStep {
    /// Keep folding.
    case next
    /// The result is final (`first`, `first(where:)` found their value): cancel upstream and publish it.
    case finish
}

/// The subscriber and subscription of every *reducing* operator: `reduce`, `collect()`, `first()`,
/// `first(where:)`. One place for Combine's demand rule for them:
///
/// - when subscribed it passes its subscription downstream, then requests `.unlimited` from upstream
///   (the downstream's demand is not forwarded: one result is published, whatever is asked);
/// - each value is folded into the result by `step`, on the upstream's thread, never under the lock; a step
///   that returns ``ReduceStep/finish`` ends the fold early and cancels upstream;
/// - when the fold ends (upstream finished, or the step finished it) the result, if any, is *held* until
///   the downstream has requested at least one value, then published, followed by `.finished`;
/// - a failure is forwarded at once and the partial result dropped;
/// - nothing reaches the downstream after it cancels, not even the `.finished` that follows the result
///   when it cancels from inside `receive(_:)` of that result.
///
/// A step receives the result so far as an `Output?` taken out of this object (so an array grows in place):
/// `nil` for an operator that has found nothing yet (`first`), and it leaves there what is to be published.
@usableFromInline
final class ReducingInner<Input, Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable
{
    @usableFromInline
    typealias Failure = Downstream.Failure
    @usableFromInline
    typealias Output = Downstream.Input

    @usableFromInline
    let link = UpstreamLink()
    /// Guards every `var` below (`@exclusivity(unchecked)`: each access is under it, or by the one
    /// upstream call in flight for `result`, which is taken out under it first).
    @usableFromInline
    let lock = Lock()
    /// Until the result is published, the upstream fails, or the downstream cancels.
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    @usableFromInline
    @exclusivity(unchecked)
    var step: ((inout Output?, Input) -> ReduceStep)?
    /// The result so far (`nil` while `step` runs with it, and for an operator that has found nothing).
    @usableFromInline
    @exclusivity(unchecked)
    var result: Output?
    /// The downstream requested at least one value.
    @usableFromInline
    @exclusivity(unchecked)
    var hasDemand = false
    /// The fold ended; the result waits for demand.
    @usableFromInline
    @exclusivity(unchecked)
    var isHolding = false
    /// The downstream cancelled (checked after it received the result, before `.finished`).
    @usableFromInline
    @exclusivity(unchecked)
    var isCancelled = false
    @usableFromInline
    let description: String

    @inlinable
    init(
        downstream: Downstream, initial: Output?, name: String,
        step: @escaping (inout Output?, Input) -> ReduceStep
    ) {
        self.downstream = downstream
        self.result = initial
        self.step = step
        self.description = name
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
        if case .finish = outcome, link.finishAndCancel() { foldEnded() }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        switch completion {
        case .failure:
            release()?.downstream.receive(completion: completion)
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
