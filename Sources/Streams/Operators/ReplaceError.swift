import Synchronization

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
            upstream.receive(
                subscriber: ReplaceErrorStage<Upstream.Failure, S>(
                    downstream: copy subscriber, link: ReplaceErrorLink(downstream: subscriber, output: output)))
        }
    }
}

/// `replaceError`'s subscriber: a stage (see ``StageLink``) whose values take no lock. The link counts the
/// downstream's outstanding demand in an atomic, so that an upstream failure knows whether the replacement may
/// go now or must wait for a request.
@usableFromInline
struct ReplaceErrorStage<Failure: Error, Downstream: Subscriber>: Subscriber, CustomStringConvertible
where Downstream.Failure == Never {
    @usableFromInline
    typealias Input = Downstream.Input

    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let link: ReplaceErrorLink<Downstream, Downstream?, Downstream.Input?>

    @inlinable
    init(downstream: Downstream, link: ReplaceErrorLink<Downstream, Downstream?, Downstream.Input?>) {
        self.downstream = downstream
        self.link = link
    }

    @usableFromInline
    var description: String { "ReplaceError" }
    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(link) }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        downstream.receive(subscription: link)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard link.isLive else { return .none }
        link.take()
        let more = downstream.receive(input)
        if more > .none { link.add(more) }
        return more
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished:
            if link.finish() { downstream.receive(completion: .finished) }
        case .failure:
            link.fail()
        }
    }
}

/// The downstream's subscription of `replaceError`: forwards demand upstream and counts what is outstanding;
/// on an upstream failure, delivers the replacement and `.finished` at once if there is demand, or holds them
/// until the next request.
///
/// `phase` (`live` → `holding` → `ended`, or `live` → `ended`) is one atomic; `demand` another. The
/// upstream subscription is written once, before the downstream can see this link, and only read after. The
/// downstream and the replacement (`held`, `heldOutput`), kept here for the failure path, belong to the one call that
/// moves `phase` to `ended` (the end, a cancel, or the replacement's delivery): it delivers or releases them. No lock.
/// A failure and a racing request decide who delivers with sequentially consistent steps (each writes its
/// own atomic, then reads the other's), and hand over with one compare-exchange, so the replacement goes
/// exactly once.
@usableFromInline
final class ReplaceErrorLink<Downstream: Subscriber, HeldDownstream: OptionalSlot, HeldOutput: OptionalSlot>:
    Subscription, HoldsDownstreamInSlot, CustomStringConvertible, @unchecked Sendable
where Downstream.Failure == Never, HeldDownstream.Wrapped == Downstream, HeldOutput.Wrapped == Downstream.Input {
    @usableFromInline
    let phase = Atomic<UInt8>(ReplaceErrorPhase.live)
    /// Outstanding demand, raw (`UInt.max` = unlimited).
    @usableFromInline
    let demand = Atomic<UInt>(0)
    /// Set by every `cancel()`, so nothing follows one made inside the replacement's delivery.
    @usableFromInline
    let isCancelled = Atomic<Bool>(false)
    /// Written only once, by `attach`, before the downstream gets this link; read by `request` and `cancel`
    /// after. `@exclusivity(unchecked)` is sound by that invariant: the single write happens before every read,
    /// ordered by the hand-over of the link itself.
    @usableFromInline
    @exclusivity(unchecked)
    var upstream = SubscriptionSlot()
    /// The downstream (``HoldsDownstreamInSlot/downstream``) and the replacement, for the failure path; owned by the
    /// call that moves `phase` to `ended`, which its atomic exchange makes the only one (`@exclusivity(unchecked)`:
    /// every access is by that owner, or in `init`). Kept in ``OptionalSlot``
    /// parameters (`Downstream?`, `Downstream.Input?`): `cancel()` (reached through `any Subscription`) and `deinit`
    /// run unspecialised, where an `Optional` of a generic type is a runtime metadata lookup.
    @usableFromInline
    @exclusivity(unchecked)
    var held: HeldDownstream
    @usableFromInline
    @exclusivity(unchecked)
    var heldOutput: HeldOutput

    @inlinable
    init(downstream: Downstream, output: Downstream.Input)
    where HeldDownstream == Downstream?, HeldOutput == Downstream.Input? {
        self.held = downstream
        self.heldOutput = output
    }

    @usableFromInline
    var description: String { "ReplaceError" }

    @inlinable
    var isLive: Bool { phase.load(ordering: .relaxed) == ReplaceErrorPhase.live }

    /// Stores the upstream subscription (the first one only; any other is cancelled).
    @inlinable
    func attach(_ subscription: any Subscription) -> Bool {
        guard upstream.isEmpty, isLive else {  // empty until the first attach
            subscription.cancel()
            return false
        }
        upstream.store(subscription)
        return true
    }

    /// One value delivered: one less outstanding (unless unlimited; never below zero).
    @inlinable
    func take() { demand.takeOneDemand() }

    /// Adds to the outstanding demand, saturating at unlimited.
    @inlinable
    func add(_ more: Subscribers.Demand) { demand.addDemand(more, sequentiallyConsistent: true) }

    /// The upstream finished: ends the link. `true` if it was live (the caller forwards `.finished`).
    @inlinable
    func finish() -> Bool {
        guard phase.exchange(ReplaceErrorPhase.ended, ordering: .acquiringAndReleasing) == ReplaceErrorPhase.live
        else { return false }
        release()
        return true
    }

    /// The upstream failed: the replacement goes now if there is demand, or on the next request.
    @inlinable
    func fail() {
        guard
            phase.compareExchange(
                expected: ReplaceErrorPhase.live, desired: ReplaceErrorPhase.holding,
                ordering: .sequentiallyConsistent
            ).exchanged
        else { return }
        if demand.load(ordering: .sequentiallyConsistent) > 0 { deliverReplacement() }
    }

    @inlinable
    func request(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        add(more)
        switch phase.load(ordering: .sequentiallyConsistent) {
        case ReplaceErrorPhase.live: upstream.request(more)
        case ReplaceErrorPhase.holding: deliverReplacement()
        default: break
        }
    }

    @inlinable
    func cancel() {
        isCancelled.store(true, ordering: .releasing)
        let previous = phase.exchange(ReplaceErrorPhase.ended, ordering: .acquiringAndReleasing)
        guard previous != ReplaceErrorPhase.ended else { return }
        if previous == ReplaceErrorPhase.live { upstream.cancel() }
        release()
    }

    /// Delivers the held replacement and `.finished`, once: whoever moves `holding` → `ended`.
    @inlinable
    func deliverReplacement() {
        guard
            phase.compareExchange(
                expected: ReplaceErrorPhase.holding, desired: ReplaceErrorPhase.ended,
                ordering: .acquiringAndReleasing
            ).exchanged
        else { return }
        let output = heldOutput.wrapped.take()
        guard let downstream = self.downstream.take() else { return }
        if let output {
            _ = downstream.receive(output)
            // Nothing after a cancel, even one from inside `receive(_:)` of the replacement.
            if isCancelled.load(ordering: .acquiring) { return }
        }
        downstream.receive(completion: .finished)
    }

    /// Drops the downstream and the replacement (the call that moved `phase` to `ended`).
    @inlinable
    func release() {
        held = nil
        heldOutput = nil
    }
}

/// A mirror without children: the Swift runtime traps when it reflects a noncopyable stored property (an
/// atomic) of a generic class, which `dump` and test-failure messages would otherwise do.
extension ReplaceErrorLink: CustomReflectable {
    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// The phases of a ``ReplaceErrorLink``.
@usableFromInline
enum ReplaceErrorPhase {
    @usableFromInline static let live: UInt8 = 0
    @usableFromInline static let holding: UInt8 = 1
    @usableFromInline static let ended: UInt8 = 2
}

// Equal when their parts are equal, as in Combine.
extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}
