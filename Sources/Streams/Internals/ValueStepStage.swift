/// What a one-in, at-most-one-out operator does with one upstream value (the outcome of its step).
@usableFromInline
enum ValueStep<Output, Failure: Error> {
    /// Publish this value downstream; the downstream's answer is returned upstream.
    case publish(Output)
    /// Publish nothing and ask upstream for one more value in its place (`.max(1)`).
    case drop
    /// End the stream: cancel upstream, then send `.finished` (`prefix(while:)`, `output(in:)` past its range).
    case finish
    /// End the stream: cancel upstream, then fail with this error (a `try` operator's closure threw).
    case fail(Failure)
}

/// The subscriber of the operators that look at each value once and publish it, a value made from it, or
/// nothing, or end the stream: `drop(while:)`, `tryDrop(while:)`, `prefix(while:)`, `tryPrefix(while:)`,
/// `tryFilter`, `tryCompactMap`, `tryScan`, `tryRemoveDuplicates(by:)`, `output(at:)`, `output(in:)`, and
/// `receive(on:)` on an ``ImmediateScheduler`` (which publishes each value as it comes). A stage
/// (see ``StageLink``); one place for their contract:
///
/// - demand passes straight through (the downstream's subscription is the link); a value the step drops asks
///   upstream for one more in its place (`.max(1)`, as Combine's filters do);
/// - `step` runs on the upstream's thread, never under a lock, and only from `receive(_:)`, which the
///   upstream calls serially: a step may keep state of its own (a count, the previous value, the running
///   result) in a ``StepState`` its closure captures, made afresh for each subscription;
/// - a step that ends the stream (``ValueStep/finish``, ``ValueStep/fail(_:)``) cancels upstream first, then
///   sends the completion once; an upstream failure is forwarded through `forwardedFailure` (the identity,
///   or the erasure to `any Error` of the `try` operators);
/// - nothing reaches the downstream after it cancels; the step closure and the downstream are released with
///   this subscriber, which the upstream lets go of when the stream ends or is cancelled.
@usableFromInline
struct ValueStepStage<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline
    typealias Failure = UpstreamFailure
    /// Decides what to do with one value.
    @usableFromInline
    typealias Step = (Input) -> ValueStep<Downstream.Input, Downstream.Failure>

    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let link: StageLink<Void, NoStageHooks>
    /// The operator's decision per value.
    @usableFromInline
    let step: Step
    /// Turns an upstream failure into the downstream's: the identity, or the erasure to `any Error` of the
    /// `try` operators (a closure that captures nothing).
    @usableFromInline
    let forwardedFailure: (UpstreamFailure) -> Downstream.Failure

    @inlinable
    init(
        downstream: Downstream, name: StageName, forwardedFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
        step: @escaping Step
    ) {
        self.downstream = downstream
        self.link = StageLink(name, state: (), hooks: NoStageHooks())
        self.step = step
        self.forwardedFailure = forwardedFailure
    }

    /// The stage of an operator with its upstream's failure type.
    @inlinable
    init(downstream: Downstream, name: StageName, step: @escaping Step)
    where UpstreamFailure == Downstream.Failure {
        self.init(downstream: downstream, name: name, forwardedFailure: { $0 }, step: step)
    }

    /// The stage of a `try` operator: its failure type is `any Error`, the upstream's failure is erased to it,
    /// and `step` returns ``ValueStep/fail(_:)`` with what its closure threw.
    @inlinable
    init(downstream: Downstream, name: StageName, erasingFailure step: @escaping Step)
    where Downstream.Failure == any Error {
        self.init(downstream: downstream, name: name, forwardedFailure: { $0 }, step: step)
    }

    @usableFromInline
    var description: String { link.description }
    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(link) }

    @inlinable
    func receive(subscription: any Subscription) { link.attach(subscription, handingTo: downstream) }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard link.isLive else { return .none }
        switch step(input) {
        case .publish(let output):
            return downstream.receive(output)
        case .drop:
            return .max(1)
        case .finish:
            end(.finished)
        case .fail(let error):
            end(.failure(error))
        }
        return .none
    }

    /// The step ended the stream: upstream is cancelled before the downstream hears of it (as in Combine).
    @inlinable
    func end(_ completion: Subscribers.Completion<Downstream.Failure>) {
        guard link.finishAndCancel() else { return }
        downstream.receive(completion: completion)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        switch completion {
        case .finished:
            downstream.receive(completion: .finished)
        case .failure(let error):
            downstream.receive(completion: .failure(forwardedFailure(error)))
        }
    }
}

/// The state a step keeps between values (a count, the previous value, the running result), made afresh for each
/// subscription. A class rather than a `var` the step's closure captures: such a `var` lives in a box whose every
/// access the runtime checks for exclusivity (`swift_beginAccess`, half of `output(in:)`'s cost per value).
///
/// `@exclusivity(unchecked)` on `value`: sound because only the step touches it, the step runs only from the
/// stage's `receive(_:)`, which the upstream calls serially (Combine's contract), and each access ends before the
/// step returns (before the value reaches the downstream, so a re-entrant value cannot overlap it).
@usableFromInline
final class StepState<Value> {
    /// The state. Unchecked: only the step touches it, and the upstream calls the step serially (see the type's note).
    @usableFromInline
    @exclusivity(unchecked)
    var value: Value

    @inlinable
    init(_ value: Value) { self.value = value }
}
