/// One event of a publisher, as a value: a value, a failure or the end.
///
/// ``Publisher/materialize()`` turns a publisher's values and completion into `Event`s, and
/// ``Publisher/dematerialize()`` turns them back. CombineExt's type, with the same cases.
///
/// ```swift
/// let events: [Event<Int, Never>] = [.value(1), .value(2), .finished]
/// let c = events.publisher.dematerialize().sink { print($0) }   // 1 2
/// // The values of a materialized stream (CombineExt's `values()`):
/// let d = events.publisher.compactMap { if case .value(let v) = $0 { v } else { nil } }.sink { print($0) }
/// ```
public enum Event<Output, Failure: Error> {
    /// A value the publisher delivered.
    case value(Output)
    /// The publisher failed with this error.
    case failure(Failure)
    /// The publisher finished.
    case finished
}

extension Event: Equatable where Output: Equatable, Failure: Equatable {}

extension Event: Sendable where Output: Sendable {}

extension Event: CustomStringConvertible {
    /// `value(…)`, `failure(…)` or `finished`.
    public var description: String {
        switch self {
        case .value(let value): "value(\(value))"
        case .failure(let error): "failure(\(error))"
        case .finished: "finished"
        }
    }
}

/// A type that can be read as an ``Event``: what ``Publisher/dematerialize()`` and ``Publisher/failures()``
/// accept. ``Event`` is the one conformance the package provides.
///
/// ```swift
/// extension Event: EventConvertible { public var event: Event<Output, Failure> { self } }
/// ```
public protocol EventConvertible {
    /// The value type of the event.
    associatedtype Output
    /// The error type of the event.
    associatedtype Failure: Error
    /// The event this value stands for.
    var event: Event<Output, Failure> { get }
}

extension Event: EventConvertible {
    /// The event itself.
    public var event: Event<Output, Failure> { self }
}

extension Publisher {
    /// Publishes this publisher's values and completion as ``Event``s, and never fails.
    ///
    /// Each value becomes `.value(value)`; the completion becomes a last event, `.finished` or
    /// `.failure(error)`, followed by `.finished`.
    /// - Demand: values pass through one for one (downstream requests go upstream unchanged). The
    ///   completion event needs a unit of demand of its own: if the upstream completes when the downstream
    ///   has no demand left, the event is held until the downstream requests more, then delivered with the
    ///   completion that follows it.
    /// - Threading: synchronous: events are delivered on the thread the upstream completes on, or, for a
    ///   held completion event, on the thread that requests.
    /// - Cancellation: cancels the upstream; a held completion event is dropped, nothing is delivered after.
    ///
    /// Same as CombineExt's `materialize()`.
    ///
    /// ```swift
    /// let c = fetch().materialize().sink { event in
    ///     switch event {
    ///     case .value(let value): show(value)
    ///     case .failure(let error): showError(error)
    ///     case .finished: break
    ///     }
    /// }
    /// ```
    @inlinable
    public func materialize() -> Publishers.Materialize<Self> {
        Publishers.Materialize(upstream: self)
    }
}

extension Publisher where Output: EventConvertible, Failure == Never {
    /// Turns a publisher of ``Event``s back into the stream they describe: `.value` events become values,
    /// a `.failure` event fails and a `.finished` event finishes.
    ///
    /// - Demand: passes straight through (one event in per value out; the completion event needs one
    ///   unit of upstream demand, as it does in ``materialize()``).
    /// - Completion: on a `.failure` or `.finished` event the upstream is cancelled and the downstream
    ///   completes once; the upstream's own `.finished` finishes the downstream.
    /// - Threading: synchronous, on the upstream's thread.
    ///
    /// Same as CombineExt's `dematerialize()`.
    ///
    /// ```swift
    /// let c = fetch().materialize().dematerialize().sink(receiveCompletion: { print($0) }) { print($0) }
    /// ```
    @inlinable
    public func dematerialize() -> Publishers.Dematerialize<Self> {
        Publishers.Dematerialize(upstream: self)
    }

    /// The failures of a materialized publisher: `.failure` events, unwrapped; value and finished events
    /// are dropped (the output finishes when the upstream does).
    ///
    /// - Demand: as `compactMap`: a dropped event asks the upstream for one more.
    /// - Threading: synchronous, on the upstream's thread.
    ///
    /// Same as CombineExt's `failures()`. CombineExt's companion `values()` is not provided: `values` is
    /// already the publisher's async sequence (as in Combine); use `compactMap` (see ``Event``) instead.
    ///
    /// ```swift
    /// let c = fetch().materialize().failures().sink { print("failed:", $0) }
    /// ```
    @inlinable
    public func failures() -> Publishers.CompactMap<Self, Output.Failure> {
        compactMap { element in
            if case .failure(let error) = element.event { return error }
            return nil
        }
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/materialize()``: see there for the contract.
    public struct Materialize<Upstream: Publisher>: Publisher {
        /// Every event of the upstream, as a value.
        public typealias Output = Event<Upstream.Output, Upstream.Failure>
        /// Never fails: the upstream's failure is an event.
        public typealias Failure = Never

        /// The publisher whose events are published.
        public let upstream: Upstream

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Never {
            upstream.receive(subscriber: MaterializeInner(downstream: subscriber))
        }
    }

    /// The publisher returned by ``Publisher/dematerialize()``: see there for the contract.
    public struct Dematerialize<Upstream: Publisher>: Publisher
    where Upstream.Output: EventConvertible, Upstream.Failure == Never {
        /// The value type of the events.
        public typealias Output = Upstream.Output.Output
        /// The error type of the events.
        public typealias Failure = Upstream.Output.Failure

        /// The publisher of events.
        public let upstream: Upstream

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: DematerializeInner<Upstream.Output, S>(downstream: subscriber))
        }
    }
}

/// `materialize`'s subscriber and subscription. The upstream subscription is held by `link`; `downstream`,
/// `demand` and `pending` are guarded by `link`'s lock.
///
/// The subscriber and the held completion are kept in ``OptionalSlot`` parameters (`Downstream?`,
/// `Subscribers.Completion<UpstreamFailure>?`), so the unspecialised `deinit` destroys them without a metadata lookup.
@usableFromInline
final class MaterializeInner<
    Input, UpstreamFailure: Error, Downstream: Subscriber, HeldDownstream: OptionalSlot, Pending: OptionalSlot
>: Subscriber, Subscription, HoldsDownstreamInSlot, CustomStringConvertible, @unchecked Sendable
where
    Downstream.Input == Event<Input, UpstreamFailure>, Downstream.Failure == Never,
    HeldDownstream.Wrapped == Downstream, Pending.Wrapped == Subscribers.Completion<UpstreamFailure>
{
    @usableFromInline
    typealias Failure = UpstreamFailure

    /// The upstream subscription, and the one lock of this subscription: it guards every `var` below
    /// (`@exclusivity(unchecked)`: each access is under it, or in `init`). `downstream == nil` means ended.
    @usableFromInline
    let link = UpstreamLink()
    /// The subscriber (``HoldsDownstreamInSlot/downstream``); `nil` once ended. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var held: HeldDownstream
    /// Requested by the downstream and not yet delivered (guarded by `link`'s lock).
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none
    /// The upstream's completion, held until the downstream has demand for its event (guarded by `link`'s lock).
    @usableFromInline
    @exclusivity(unchecked)
    var heldCompletion: Pending
    /// The downstream cancelled — possibly from inside the completion event's delivery, after which the
    /// `.finished` must not follow (guarded by `link`'s lock).
    @usableFromInline
    @exclusivity(unchecked)
    var isCancelled = false

    /// Runs `request(_:)` and `cancel()` as specialised code (see ``SpecialisedCall``): their bodies test and clear
    /// `Optional`s of generic types, each a runtime metadata lookup if run unspecialised. Immutable.
    @usableFromInline
    let specialised: (MaterializeInner, SpecialisedCall) -> Void

    @inlinable
    init(downstream: Downstream)
    where HeldDownstream == Downstream?, Pending == Subscribers.Completion<UpstreamFailure>? {
        held = downstream
        heldCompletion = nil
        specialised = SpecialisedCall.forwarding()
    }

    /// ``heldCompletion`` as a plain `Optional`. Guarded by `link`'s lock.
    @inlinable
    var pending: Subscribers.Completion<UpstreamFailure>? {
        get { heldCompletion.wrapped }
        set { heldCompletion.wrapped = newValue }
    }

    @usableFromInline
    var description: String { "Materialize" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        link.lock()
        let downstream = self.downstream
        link.unlock()
        downstream?.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        link.lock()
        guard let downstream else {
            link.unlock()
            return .none
        }
        if demand > .none { demand -= 1 }
        link.unlock()
        let more = downstream.receive(.value(input))
        if more > .none {
            link.lock()
            if self.downstream != nil { demand += more }
            link.unlock()
        }
        return more
    }

    @inlinable
    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        guard link.finish() else { return }
        link.lock()
        guard let downstream, demand > .none else {
            if self.downstream != nil { pending = completion }  // delivered by the next request
            link.unlock()
            return
        }
        self.downstream = nil
        link.unlock()
        deliver(completion, to: downstream)
    }

    /// `request(_:)`'s body, specialised (see ``specialised``).
    @inlinable
    func requestNow(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        link.lock()
        guard let downstream else { return link.unlock() }
        if let completion = pending {
            pending = nil
            self.downstream = nil
            link.unlock()
            deliver(completion, to: downstream)
            return
        }
        demand += more
        link.unlock()
        link.request(more)
    }

    /// `cancel()`'s body, specialised (see ``specialised``).
    @inlinable
    func cancelNow() {
        link.lock()
        let upstream = link.cancelLocked()
        let released = (downstream, pending)
        downstream = nil
        pending = nil
        isCancelled = true
        link.unlock()
        upstream?.cancel()
        _ = released
    }

    /// Delivers the completion's event, then `.finished` unless the downstream cancelled while receiving the
    /// event. Called with the lock released, once.
    @inlinable
    func deliver(_ completion: Subscribers.Completion<UpstreamFailure>, to downstream: Downstream) {
        switch completion {
        case .finished: _ = downstream.receive(.finished)
        case .failure(let error): _ = downstream.receive(.failure(error))
        }
        link.lock()
        let cancelled = isCancelled
        link.unlock()
        if !cancelled { downstream.receive(completion: .finished) }
    }
}

/// `dematerialize`'s subscriber and subscription. The upstream subscription is held by `link`; `downstream` is
/// guarded by `link`'s lock.
@usableFromInline
final class DematerializeInner<Input: EventConvertible, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Input.Output, Downstream.Failure == Input.Failure {
    @usableFromInline
    typealias Failure = Never

    /// The upstream subscription, and the one lock of this subscription: it guards `downstream`
    /// (`@exclusivity(unchecked)`: each access is under it, or in `init`).
    @usableFromInline
    let link = UpstreamLink()
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
    }

    @usableFromInline
    var description: String { "Dematerialize" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        link.lock()
        let downstream = self.downstream
        link.unlock()
        downstream?.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        switch input.event {
        case .value(let value):
            link.lock()
            let downstream = self.downstream
            link.unlock()
            return downstream?.receive(value) ?? .none
        case .failure(let error):
            guard link.finishAndCancel() else { return .none }
            release()?.receive(completion: .failure(error))
            return .none
        case .finished:
            guard link.finishAndCancel() else { return .none }
            release()?.receive(completion: .finished)
            return .none
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Never>) {
        guard link.finish() else { return }
        release()?.receive(completion: .finished)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) { link.request(demand) }

    @inlinable
    func cancel() {
        link.cancel()
        _ = release()
    }

    /// Takes the downstream out; `nil` if already released.
    @inlinable
    func release() -> Downstream? {
        link.lock()
        let released = downstream
        downstream = nil
        link.unlock()
        return released
    }
}

// `request(_:)` and `cancel()` run `requestNow(_:)` and `cancelNow()` through `specialised`.
extension MaterializeInner: SpecialisedSubscription {}
