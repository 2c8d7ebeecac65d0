extension Publisher {
    /// Combines each upstream value with the latest value of `other`, through `resultSelector`.
    ///
    /// - Values: each upstream value is passed to `resultSelector` with the latest value `other` has published,
    ///   and the result is published. Upstream values that arrive before `other` has published anything are
    ///   dropped. Values of `other` alone publish nothing.
    /// - Demand: the upstream is asked for exactly what the subscriber asks for; a value dropped because
    ///   `other` has no value yet is asked for again (one more), so the subscriber's demand is never used up
    ///   by values it did not get and never exceeded. `other` is asked for `.unlimited` (only its latest value
    ///   is kept).
    /// - Order: the subscriber gets its subscription first, then `other` is subscribed, then the upstream, so a
    ///   synchronous `other` (`Just`, a `CurrentValueSubject`) provides its value before the upstream's first.
    /// - Completion: the upstream's completion is forwarded and cancels `other`. A failure of `other` cancels the
    ///   upstream and is forwarded. `other` finishing changes nothing: its last value keeps being used.
    /// - Cancellation: cancels both; nothing reaches the subscriber after it.
    /// - Threading: `other` may publish on any thread; calls to the subscriber never overlap (a failure of
    ///   `other` during a delivery is sent when the delivery returns).
    /// - Difference from CombineExt: CombineExt subscribes the upstream only once `other` has published, asks
    ///   it for `.unlimited` and buffers for the subscriber's demand; here the upstream is subscribed at once
    ///   and asked only for what the subscriber asks for (RxSwift's behaviour: early values are dropped).
    ///
    /// ```swift
    /// let c = submitTaps.withLatestFrom(textField) { _, text in text }.sink { send($0) }
    /// ```
    /// - Parameters:
    ///   - other: The publisher whose latest value is combined with each upstream value.
    ///   - resultSelector: Combines an upstream value and `other`'s latest value.
    @inlinable
    public func withLatestFrom<Other: Publisher, Result>(
        _ other: Other, resultSelector: @escaping (Output, Other.Output) -> Result
    ) -> Publishers.WithLatestFrom<Self, Other, Result> where Other.Failure == Failure {
        Publishers.WithLatestFrom(upstream: self, other: other, resultSelector: resultSelector)
    }

    /// Publishes the latest value of `other` each time the upstream publishes a value.
    ///
    /// As CombineExt's (and RxSwift's) spelling: the upstream's value itself is discarded; use
    /// ``withLatestFrom(_:resultSelector:)`` to keep it. Demand, order, completion, cancellation and threading
    /// are those of ``withLatestFrom(_:resultSelector:)``.
    ///
    /// ```swift
    /// let c = saveTaps.withLatestFrom(document).sink { save($0) }   // the document as of each tap
    /// ```
    /// - Parameter other: The publisher whose latest value is published.
    @inlinable
    public func withLatestFrom<Other: Publisher>(
        _ other: Other
    ) -> Publishers.WithLatestFrom<Self, Other, Other.Output> where Other.Failure == Failure {
        Publishers.WithLatestFrom(upstream: self, other: other, resultSelector: { $1 })
    }

    /// Combines each upstream value with the latest values of `other` and `other1`, through `resultSelector`.
    ///
    /// Upstream values are dropped until both have published. The two are watched through
    /// `combineLatest(_:)` (asked for `.unlimited`); either failing fails the whole, their finishing changes
    /// nothing. Otherwise as ``withLatestFrom(_:resultSelector:)``.
    ///
    /// ```swift
    /// let c = taps.withLatestFrom(name, age) { _, person in "\(person.0) (\(person.1))" }.sink { print($0) }
    /// ```
    /// - Parameters:
    ///   - other: The first publisher whose latest value is used.
    ///   - other1: The second publisher whose latest value is used.
    ///   - resultSelector: Combines an upstream value and the two latest values.
    @inlinable
    public func withLatestFrom<Other: Publisher, Other1: Publisher, Result>(
        _ other: Other, _ other1: Other1, resultSelector: @escaping (Output, (Other.Output, Other1.Output)) -> Result
    ) -> Publishers.WithLatestFrom<Self, Publishers.CombineLatest<Other, Other1>, Result>
    where Other.Failure == Failure, Other1.Failure == Failure {
        Publishers.WithLatestFrom(
            upstream: self, other: Publishers.CombineLatest(other, other1), resultSelector: resultSelector)
    }

    /// Publishes the latest values of `other` and `other1`, as a tuple, each time the upstream publishes a value.
    ///
    /// The upstream's value is discarded (CombineExt's spelling). Otherwise as
    /// ``withLatestFrom(_:_:resultSelector:)``.
    ///
    /// ```swift
    /// let c = taps.withLatestFrom(name, age).sink { name, age in print(name, age) }
    /// ```
    /// - Parameters:
    ///   - other: The first publisher whose latest value is published.
    ///   - other1: The second publisher whose latest value is published.
    @inlinable
    public func withLatestFrom<Other: Publisher, Other1: Publisher>(
        _ other: Other, _ other1: Other1
    ) -> Publishers.WithLatestFrom<Self, Publishers.CombineLatest<Other, Other1>, (Other.Output, Other1.Output)>
    where Other.Failure == Failure, Other1.Failure == Failure {
        Publishers.WithLatestFrom(
            upstream: self, other: Publishers.CombineLatest(other, other1), resultSelector: { $1 })
    }

    /// Combines each upstream value with the latest values of three other publishers, through `resultSelector`.
    ///
    /// Upstream values are dropped until all three have published. The three are watched through
    /// `combineLatest(_:_:)` (asked for `.unlimited`); any failing fails the whole, their finishing changes
    /// nothing. Otherwise as ``withLatestFrom(_:resultSelector:)``.
    ///
    /// ```swift
    /// let c = taps.withLatestFrom(a, b, c) { tap, latest in (tap, latest.0 + latest.1 + latest.2) }
    ///     .sink { print($0) }
    /// ```
    /// - Parameters:
    ///   - other: The first publisher whose latest value is used.
    ///   - other1: The second publisher whose latest value is used.
    ///   - other2: The third publisher whose latest value is used.
    ///   - resultSelector: Combines an upstream value and the three latest values.
    @inlinable
    public func withLatestFrom<Other: Publisher, Other1: Publisher, Other2: Publisher, Result>(
        _ other: Other, _ other1: Other1, _ other2: Other2,
        resultSelector: @escaping (Output, (Other.Output, Other1.Output, Other2.Output)) -> Result
    ) -> Publishers.WithLatestFrom<Self, Publishers.CombineLatest3<Other, Other1, Other2>, Result>
    where Other.Failure == Failure, Other1.Failure == Failure, Other2.Failure == Failure {
        Publishers.WithLatestFrom(
            upstream: self, other: Publishers.CombineLatest3(other, other1, other2), resultSelector: resultSelector)
    }

    /// Publishes the latest values of three other publishers, as a tuple, each time the upstream publishes a
    /// value.
    ///
    /// The upstream's value is discarded (CombineExt's spelling). Otherwise as
    /// ``withLatestFrom(_:_:_:resultSelector:)``.
    ///
    /// ```swift
    /// let c = taps.withLatestFrom(a, b, c).sink { print($0.0, $0.1, $0.2) }
    /// ```
    /// - Parameters:
    ///   - other: The first publisher whose latest value is published.
    ///   - other1: The second publisher whose latest value is published.
    ///   - other2: The third publisher whose latest value is published.
    @inlinable
    public func withLatestFrom<Other: Publisher, Other1: Publisher, Other2: Publisher>(
        _ other: Other, _ other1: Other1, _ other2: Other2
    )
        -> Publishers.WithLatestFrom<
            Self, Publishers.CombineLatest3<Other, Other1, Other2>, (Other.Output, Other1.Output, Other2.Output)
        > where Other.Failure == Failure, Other1.Failure == Failure, Other2.Failure == Failure
    {
        Publishers.WithLatestFrom(
            upstream: self, other: Publishers.CombineLatest3(other, other1, other2), resultSelector: { $1 })
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/withLatestFrom(_:resultSelector:)`` and its variants.
    public struct WithLatestFrom<Upstream: Publisher, Other: Publisher, Output>: Publisher
    where Upstream.Failure == Other.Failure {
        /// The shared failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are combined and published.
        public let upstream: Upstream
        /// The publisher whose latest value is combined with each upstream value.
        public let other: Other
        /// Combines an upstream value with `other`'s latest value.
        public let resultSelector: (Upstream.Output, Other.Output) -> Output

        /// Creates the operator.
        @inlinable
        public init(
            upstream: Upstream, other: Other, resultSelector: @escaping (Upstream.Output, Other.Output) -> Output
        ) {
            self.upstream = upstream
            self.other = other
            self.resultSelector = resultSelector
        }

        /// Attaches `subscriber`: hands it its subscription, then subscribes `other`, then the upstream.
        @inlinable
        @inline(__always)
        public consuming func receive<S: Subscriber>(subscriber: consuming S)
        where S.Input == Output, S.Failure == Failure {
            let inner = WithLatestFromInner<
                Upstream.Output, Other.Output, S, S?, Other.Output?, Subscribers.Completion<Failure>?
            >(downstream: subscriber, resultSelector: resultSelector)
            inner.start()
            other.receive(subscriber: WithLatestFromOtherSubscriber(receiver: inner))
            upstream.receive(subscriber: inner)
        }
    }
}

/// The subscriber `withLatestFrom` attaches to the other publisher: forwards its events to the operator.
@usableFromInline
struct WithLatestFromOtherSubscriber<Input, UpstreamOutput, Downstream: Subscriber>: Subscriber,
    CustomStringConvertible
{
    @usableFromInline
    typealias Failure = Downstream.Failure

    /// Weak: a publisher that keeps its subscriber after the end (as a subject may until it completes) must
    /// not keep the operator alive; the operator is held by its upstream and its downstream while it matters.
    @usableFromInline
    weak var receiver: Receiver?

    @usableFromInline
    typealias Receiver = WithLatestFromInner<
        UpstreamOutput, Input, Downstream, Downstream?, Input?, Subscribers.Completion<Downstream.Failure>?
    >

    @inlinable
    init(receiver: Receiver) { self.receiver = receiver }

    @usableFromInline
    var description: String { "WithLatestFrom.Other" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard let receiver else { return subscription.cancel() }
        receiver.otherReceive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        receiver?.otherReceive(input)
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { receiver?.otherReceive(completion: completion) }
}

/// The subscriber `withLatestFrom` attaches upstream (and, through a ``WithLatestFromOtherSubscriber``, to the
/// other publisher), and the downstream's subscription. Shared across threads: the upstream subscription is held
/// by `link`; every `var` is guarded by `link`'s lock. Calls out (to the downstream, the selector, a subscription)
/// are made with the lock released.
///
/// The other publisher may fail on another thread while an upstream value is being delivered: whoever finds no
/// delivery in progress takes the downstream and sends the failure; otherwise the delivering thread sends it
/// when its call returns, so calls to the downstream never overlap. A delivery holds the ``DeliveryTurn``: when
/// nobody marked it meanwhile (no failure is waiting), the delivering thread gives it back without the lock.
///
/// The subscriber, the other's latest value and a pending failure are kept in ``OptionalSlot`` parameters
/// (`Downstream?`, `OtherOutput?`, `Subscribers.Completion<Failure>?`), so the unspecialised `deinit` destroys them
/// without a metadata lookup.
@usableFromInline
final class WithLatestFromInner<
    Input, OtherOutput, Downstream: Subscriber, HeldDownstream: OptionalSlot, Latest: OptionalSlot,
    Pending: OptionalSlot
>: Subscriber, Subscription, HoldsDownstreamInSlot, CustomStringConvertible, @unchecked Sendable
where
    HeldDownstream.Wrapped == Downstream, Latest.Wrapped == OtherOutput,
    Pending.Wrapped == Subscribers.Completion<Downstream.Failure>
{
    @usableFromInline
    typealias Failure = Downstream.Failure

    /// The upstream subscription, and the one lock of this subscription: it guards every `var` below
    /// (`@exclusivity(unchecked)`: each access is under it, or in `init`).
    @usableFromInline
    let link = UpstreamLink()
    /// The subscriber (``HoldsDownstreamInSlot/downstream``). Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var held: HeldDownstream
    /// Released at the end. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var resultSelector: ((Input, OtherOutput) -> Downstream.Input)?
    /// The other publisher's latest value (``latest``). Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var heldLatest: Latest
    /// The other publisher's subscription. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var other = TriggerLink.waiting
    /// Taken while an upstream value is being delivered (by the upstream's thread, outside the lock); marked by a
    /// failure of the other publisher meanwhile (see ``DeliveryTurn``). Taken and marked under `link`'s lock.
    @usableFromInline
    let turn = DeliveryTurn()
    /// The other publisher failed during a delivery: the delivering thread sends it when it returns. Guarded
    /// by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var heldFailure: Pending

    /// Runs `request(_:)` and `cancel()` as specialised code (see ``SpecialisedCall``): their bodies test and clear
    /// `Optional`s of generic types, each a runtime metadata lookup if run unspecialised. Immutable.
    @usableFromInline
    let specialised: (WithLatestFromInner, SpecialisedCall) -> Void

    @inlinable
    init(downstream: Downstream, resultSelector: @escaping (Input, OtherOutput) -> Downstream.Input)
    where HeldDownstream == Downstream?, Latest == OtherOutput?, Pending == Subscribers.Completion<Failure>? {
        held = downstream
        heldLatest = nil
        heldFailure = nil
        self.resultSelector = resultSelector
        specialised = SpecialisedCall.forwarding()
    }

    /// ``heldLatest`` as a plain `Optional`. Guarded by `link`'s lock.
    @inlinable
    var latest: OtherOutput? {
        get { heldLatest.wrapped }
        set { heldLatest.wrapped = newValue }
    }

    /// ``heldFailure`` as a plain `Optional`. Guarded by `link`'s lock.
    @inlinable
    var pendingFailure: Subscribers.Completion<Failure>? {
        get { heldFailure.wrapped }
        set { heldFailure.wrapped = newValue }
    }

    @usableFromInline
    var description: String { "WithLatestFrom" }

    /// Before anything is subscribed: hands the subscriber its subscription (its requests wait in the link
    /// until the upstream subscription arrives).
    @inlinable
    func start() {
        link.lock()
        let downstream = self.downstream
        link.unlock()
        downstream?.receive(subscription: self)
    }

    // MARK: The upstream

    @inlinable
    func receive(subscription: any Subscription) {
        _ = link.attach(subscription)  // forwards what the subscriber has requested so far
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        link.lock()
        guard let downstream, let resultSelector else {
            link.unlock()
            return .none
        }
        guard let latest else {
            link.unlock()
            return .max(1)  // dropped: the subscriber did not get it, so ask for one more in its place
        }
        turn.takeLocked()  // free: only this serial path takes it
        link.unlock()
        let more = downstream.receive(resultSelector(input, latest))
        if turn.endsAtOnce() { return more }  // unmarked: no failure is waiting
        link.lock()
        turn.endLocked()
        let failure = pendingFailure
        pendingFailure = nil
        link.unlock()
        guard let failure else { return more }
        release().downstream?.receive(completion: failure)  // nil if the subscriber cancelled meanwhile
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        let (downstream, other) = release()
        other?.cancel()
        downstream?.receive(completion: completion)
    }

    // MARK: The downstream

    /// `request(_:)`'s body, specialised (see ``specialised``).
    @inlinable
    func requestNow(_ demand: Subscribers.Demand) { link.request(demand) }

    /// `cancel()`'s body, specialised (see ``specialised``).
    @inlinable
    func cancelNow() {
        link.cancel()
        release().other?.cancel()
    }

    // MARK: The other publisher

    @inlinable
    func otherReceive(subscription: any Subscription) {
        link.lock()
        let accepted = other.accept(subscription, isWanted: downstream != nil)
        link.unlock()
        if accepted { subscription.request(.unlimited) } else { subscription.cancel() }
    }

    @inlinable
    func otherReceive(_ input: OtherOutput) {
        link.lock()
        guard other.isLive else { return link.unlock() }
        let previous = latest
        latest = input
        link.unlock()
        _ = previous  // released outside the lock
    }

    @inlinable
    func otherReceive(completion: Subscribers.Completion<Failure>) {
        guard case .failure = completion else {
            link.lock()
            let ended = other.end()  // finishing changes nothing: the latest value stays
            link.unlock()
            _ = ended
            return
        }
        link.lock()
        guard other.isLive else { return link.unlock() }
        let ended = other.end()
        link.unlock()
        _ = ended
        guard link.finishAndCancel() else { return }  // the upstream completed first, or the subscriber cancelled
        link.lock()
        if turn.markIfTakenLocked() {
            pendingFailure = completion  // sent by the delivering thread when its call returns
            link.unlock()
            return
        }
        // Taken in the same critical section that saw no delivery, so none can start before the failure is sent.
        let (downstream, selector, value, _) = releaseLocked()
        link.unlock()
        _ = selector
        _ = value
        downstream?.receive(completion: completion)
    }

    /// Takes the downstream out (once), drops the selector and the latest value, and ends the other's link;
    /// returns the downstream (`nil` if already released) and the other's subscription if it was live, for the
    /// caller to cancel. What is dropped is released after the lock.
    @inlinable
    func release() -> (downstream: Downstream?, other: (any Subscription & AnyObject)?) {
        link.lock()
        let (released, selector, value, live) = releaseLocked()
        link.unlock()
        _ = selector
        _ = value
        return (released, live)
    }

    /// ``release()``'s work, lock held: returns what it took out, for the caller to release after the lock.
    @inlinable
    func releaseLocked() -> (
        downstream: Downstream?, selector: ((Input, OtherOutput) -> Downstream.Input)?, latest: OtherOutput?,
        other: (any Subscription & AnyObject)?
    ) {
        let released = downstream
        downstream = nil
        let selector = resultSelector
        resultSelector = nil
        let value = latest
        latest = nil
        let live = other.end()
        pendingFailure = nil
        return (released, selector, value, live)
    }
}

// `request(_:)` and `cancel()` run `requestNow(_:)` and `cancelNow()` through `specialised`.
extension WithLatestFromInner: SpecialisedSubscription {}
