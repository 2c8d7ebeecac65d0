extension Publisher {
    /// Keeps up to `size` values the downstream has not asked for yet, and republishes them as it asks.
    ///
    /// As Combine's (checked against OpenCombine's tests):
    /// - Demand: when subscribed, asks upstream for `.max(size)` (`.keepFull`) or `.unlimited` (`.byRequest`),
    ///   *before* passing the subscription downstream. With `.keepFull` every value delivered is asked for
    ///   again, so the buffer is refilled (returned from `receive(_:)` when it is delivered there, else
    ///   requested); `.byRequest` asks for nothing more. Values are delivered only against the downstream's
    ///   demand, oldest first.
    /// - When full: a value arriving with `size` values waiting is dropped (`.dropNewest`), pushes out the
    ///   oldest (`.dropOldest`), or (`.customError`) cancels the upstream and fails with the closure's error.
    ///   That failure waits behind the buffered values: the next request delivers what it allows, then the
    ///   failure.
    /// - Completion: a failure from upstream follows the buffered values the demand allows and drops the
    ///   rest (with no demand: at once). `.finished` follows the last buffered value, once the downstream
    ///   has demand (as in Combine, a subscriber that received exactly what it asked for gets `.finished` at
    ///   its next request). Events after a completion are ignored.
    /// - Threading: values are delivered on the thread that makes them deliverable (the upstream's for a
    ///   value, the requester's for a request), one at a time; a request from inside `receive(_:)` is served
    ///   after it returns, never nested.
    /// - Cancellation: cancels the upstream and drops the buffered values and the closure; nothing is
    ///   delivered afterwards.
    /// - Precondition: `size >= 0`.
    ///
    /// ```swift
    /// let c = fastSource.buffer(size: 100, prefetch: .byRequest, whenFull: .dropOldest).sink { process($0) }
    /// ```
    @inlinable
    public func buffer(
        size: Int, prefetch: Publishers.PrefetchStrategy, whenFull: Publishers.BufferingStrategy<Failure>
    ) -> Publishers.Buffer<Self> {
        Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
    }
}

extension Publishers {
    /// How ``Publisher/buffer(size:prefetch:whenFull:)`` asks its upstream for values.
    ///
    /// ```swift
    /// let buffered = source.buffer(size: 10, prefetch: .keepFull, whenFull: .dropNewest)
    /// ```
    public enum PrefetchStrategy: Equatable, Hashable, Sendable {
        /// Ask for `size` values when subscribed, and for one more each time a value is delivered, so the
        /// buffer stays full.
        case keepFull
        /// Ask for `.unlimited` when subscribed (as Combine does); the buffer absorbs what the downstream
        /// has not asked for yet.
        case byRequest
    }

    /// What ``Publisher/buffer(size:prefetch:whenFull:)`` does with a value that finds the buffer full.
    ///
    /// ```swift
    /// let strict = source.buffer(size: 10, prefetch: .byRequest, whenFull: .customError { .overflow })
    /// ```
    public enum BufferingStrategy<Failure: Error> {
        /// Drop the value that arrived.
        case dropNewest
        /// Drop the oldest buffered value and keep the new one.
        case dropOldest
        /// Cancel the upstream and fail with the closure's error (after the buffered values).
        case customError(() -> Failure)
    }

    /// The publisher returned by ``Publisher/buffer(size:prefetch:whenFull:)``: see there for the contract.
    public struct Buffer<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are buffered.
        public let upstream: Upstream
        /// The most values kept.
        public let size: Int
        /// How the upstream is asked for values.
        public let prefetch: Publishers.PrefetchStrategy
        /// What happens to a value that finds the buffer full.
        public let whenFull: Publishers.BufferingStrategy<Failure>

        /// Creates the operator; prefer ``Publisher/buffer(size:prefetch:whenFull:)``. `size` must not be
        /// negative.
        @inlinable
        public init(
            upstream: Upstream, size: Int, prefetch: Publishers.PrefetchStrategy,
            whenFull: Publishers.BufferingStrategy<Failure>
        ) {
            precondition(size >= 0, "buffer(size:prefetch:whenFull:): size must not be negative")
            self.upstream = upstream
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        /// Attaches `subscriber` through a buffering subscription.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let inner = BufferInner(downstream: subscriber, size: size, prefetch: prefetch, whenFull: whenFull)
            upstream.receive(subscriber: inner)
        }
    }
}

/// `buffer`'s subscriber and subscription. Sound as `@unchecked Sendable`: every `var` is guarded by `link`'s lock,
/// the upstream subscription is held by `link`, the `let`s are immutable. Values are delivered by
/// ``drain()``, one thread at a time (`isDelivering`), outside the lock.
///
/// `request(_:)` and `cancel()` run as specialised code (see ``SpecialisedCall``); the subscriber and the completion
/// are kept in ``OptionalSlot`` parameters (`HeldDownstream` is `Downstream?`, `Terminal` is
/// `Subscribers.Completion<Failure>?`), so the unspecialised `deinit` destroys them without a metadata lookup.
@usableFromInline
final class BufferInner<Downstream: Subscriber, HeldDownstream: OptionalSlot, Terminal: OptionalSlot>: Subscriber,
    Subscription, HoldsDownstreamInSlot, CustomStringConvertible, @unchecked Sendable
where HeldDownstream.Wrapped == Downstream, Terminal.Wrapped == Subscribers.Completion<Downstream.Failure> {
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    /// The upstream subscription, and the one lock of this subscription: it guards every `var` below
    /// (`@exclusivity(unchecked)`: each access is under it, or in `init`).
    @usableFromInline
    let link = UpstreamLink()
    /// The subscriber (``HoldsDownstreamInSlot/downstream``) until the completion is delivered or the downstream
    /// cancels. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var held: HeldDownstream
    /// The values waiting for demand, oldest first. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var values = RingBuffer<Downstream.Input>(capacity: nil)
    /// What the downstream may still receive. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none
    /// The completion to deliver after the buffered values (``terminal``: from upstream, or a full buffer's error).
    /// Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var heldTerminal: Terminal
    /// The strategy for a full buffer; `.dropNewest` once the subscription has ended, which releases a
    /// `.customError` closure. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var whenFull: Publishers.BufferingStrategy<Failure>
    /// The downstream has been handed its subscription: nothing is delivered before. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var isAttached = false
    /// `terminal` is a full buffer's error: delivered only by a request's drain (after what that request
    /// allows), never at once. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var failureAwaitsRequest = false
    /// A thread is in ``drain()``. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var isDelivering = false
    @usableFromInline
    let size: Int
    /// `prefetch == .keepFull`.
    @usableFromInline
    let keepsFull: Bool
    /// Runs `request(_:)` and `cancel()` as specialised code (see ``SpecialisedCall``): they work on the ring buffer
    /// and the optionals above, each a runtime metadata lookup if run unspecialised. Immutable.
    @usableFromInline
    let specialised: (BufferInner, SpecialisedCall) -> Void

    @inlinable
    init(
        downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
        whenFull: Publishers.BufferingStrategy<Failure>
    ) where HeldDownstream == Downstream?, Terminal == Subscribers.Completion<Failure>? {
        self.held = downstream
        heldTerminal = nil
        self.size = size
        keepsFull = prefetch == .keepFull
        self.whenFull = whenFull
        specialised = SpecialisedCall.forwarding()
    }

    /// ``heldTerminal`` as a plain `Optional`. Guarded by `link`'s lock.
    @inlinable
    var terminal: Subscribers.Completion<Failure>? {
        get { heldTerminal.wrapped }
        set { heldTerminal.wrapped = newValue }
    }

    @usableFromInline
    var description: String { "Buffer" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        let initial: Subscribers.Demand = keepsFull ? .max(size) : .unlimited
        if initial > .none { link.request(initial) }
        let downstream = link.withLock { () -> Downstream? in
            isAttached = true
            return self.downstream
        }
        downstream?.receive(subscription: self)
        // What arrived while the upstream was asked first (a failure, say) is delivered now.
        let refill = drain()
        if refill > .none { link.request(refill) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        link.lock()
        guard downstream != nil, terminal == nil else {
            link.unlock()
            return .none
        }
        guard values.count >= size else {
            // Nothing waiting and demand at hand: the value goes straight through, without the ring buffer and
            // drain's extra turn of the lock. Only an upstream that calls again from inside this delivery (values or
            // its completion, re-entrantly) leaves something for `drain` afterwards.
            if values.isEmpty, demand > .none, isAttached, !isDelivering, let downstream {
                demand -= 1
                isDelivering = true
                link.unlock()
                let more = downstream.receive(input)
                link.lock()
                if self.downstream != nil { demand += more }
                isDelivering = false
                let arrivedMeanwhile = !values.isEmpty || terminal != nil
                link.unlock()
                let refill = arrivedMeanwhile ? drain() : .none
                return keepsFull ? refill + .max(1) : refill
            }
            values.append(input)
            link.unlock()
            return drain()
        }
        switch whenFull {
        case .dropNewest:
            link.unlock()
            return .none
        case .dropOldest:
            guard size > 0 else {
                link.unlock()
                return .none
            }
            let dropped = values.popFirst()
            values.append(input)
            link.unlock()
            _ = dropped  // released here, outside the lock
            return drain()
        case .customError(let makeError):
            link.unlock()
            fail(with: makeError())
            return .none
        }
    }

    /// The buffer overflowed with `.customError`: cancels upstream and records `error`, delivered after the
    /// buffered values at the next request (as in Combine).
    @inlinable
    func fail(with error: Failure) {
        guard link.finishAndCancel() else { return }
        let released = link.withLock { () -> Publishers.BufferingStrategy<Failure> in
            if downstream != nil, terminal == nil {
                terminal = .failure(error)
                failureAwaitsRequest = true
            }
            defer { whenFull = .dropNewest }
            return whenFull
        }
        _ = released  // the closure, released here, outside the lock
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        let recorded = link.withLock { () -> Bool in
            guard downstream != nil, terminal == nil else { return false }
            terminal = completion
            return true
        }
        if recorded { _ = drain() }
    }

    @inlinable
    func request(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        specialised(self, .request(more))
    }

    /// `request(_:)`'s body, specialised (see ``specialised``).
    @inlinable
    func requestNow(_ more: Subscribers.Demand) {
        link.lock()
        guard downstream != nil else { return link.unlock() }
        demand += more
        link.unlock()
        let refill = drain(afterRequest: true)
        if refill > .none { link.request(refill) }
    }

    /// `cancel()`'s body, specialised (see ``specialised``).
    @inlinable
    func cancelNow() {
        link.lock()
        let upstream = link.cancelLocked()
        let released = (downstream, values, whenFull)
        downstream = nil
        values.removeAll()
        whenFull = .dropNewest
        link.unlock()
        upstream?.cancel()
        _ = released  // destroyed here, outside the lock
    }

    /// Delivers buffered values while the downstream has demand, then the completion when it is due (a
    /// failure once no value can be delivered — a full buffer's error only when `afterRequest` —, `.finished`
    /// once the buffer is empty and there is demand).
    /// Returns what `.keepFull` asks upstream for: one per value delivered here. One thread at a time: a
    /// call while another delivers (or from inside `receive(_:)`) returns `.none` at once, and that
    /// delivery serves what it came for.
    @inlinable
    func drain(afterRequest: Bool = false) -> Subscribers.Demand {
        var delivered = 0
        link.lock()
        guard isAttached, !isDelivering else {
            link.unlock()
            return .none
        }
        isDelivering = true
        while let downstream {
            if demand > .none, let value = values.popFirst() {
                demand -= 1
                link.unlock()
                let more = downstream.receive(value)
                delivered += 1
                link.lock()
                demand += more
                continue
            }
            guard let terminal,
                demand > .none || Self.isFailure(terminal) && (afterRequest || !failureAwaitsRequest)
            else { break }
            self.downstream = nil
            let released = (values, whenFull)
            values.removeAll()
            whenFull = .dropNewest
            isDelivering = false
            link.unlock()
            _ = released  // values a failure drops, and the closure, released here, outside the lock
            downstream.receive(completion: terminal)
            return keepsFull ? .max(delivered) : .none
        }
        isDelivering = false
        link.unlock()
        return keepsFull ? .max(delivered) : .none
    }

    /// Whether `completion` is a failure.
    @inlinable
    static func isFailure(_ completion: Subscribers.Completion<Failure>) -> Bool {
        if case .failure = completion { return true }
        return false
    }
}

// `request(_:)` and `cancel()` run `requestNow(_:)` and `cancelNow()` through `specialised`.
extension BufferInner: SpecialisedSubscription {}
