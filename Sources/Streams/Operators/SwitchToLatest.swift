extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Republishes the values of the most recent inner publisher: each new inner publisher from the
    /// upstream cancels the previous one.
    ///
    /// - Switching: when the upstream emits a publisher, the current inner subscription is cancelled
    ///   and its values (even ones already received but not yet delivered) are never published; then
    ///   the new publisher is subscribed.
    /// - Demand: the upstream of publishers is asked for `.unlimited`. The downstream's outstanding
    ///   demand (requested minus delivered) is requested from each new inner, and later requests are
    ///   forwarded to the current inner, so demand carries over across switches.
    /// - Completion: finishes when the upstream has finished and the current inner (if any) has
    ///   finished. A failure of the upstream or of the current inner cancels everything and is
    ///   delivered once.
    /// - Threading: delivered serially, on the thread of the inner that produces the value.
    ///
    /// ```swift
    /// let results = queries.map { api.search($0) }.switchToLatest()   // only the latest search
    /// ```
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publishers {
    /// The publisher returned by `switchToLatest()`.
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
    where Upstream.Output == P, P.Failure == Upstream.Failure {
        /// The inner publishers' output type.
        public typealias Output = P.Output
        /// The shared failure type.
        public typealias Failure = P.Failure

        /// The publisher of publishers.
        public let upstream: Upstream

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: SwitchInner(downstream: subscriber))
        }
    }
}

/// The subscription of `switchToLatest`. All state is guarded by `lock`; nothing is called out under it.
///
/// Invariant (bounded demand): the current side's outstanding request plus the values buffered from it
/// equals `demand`; a switch drops the buffer and requests `demand` from the new side.
@usableFromInline
final class SwitchInner<P: Publisher, Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable
where Downstream.Input == P.Output, Downstream.Failure == P.Failure {
    @usableFromInline
    typealias Input = P
    @usableFromInline
    typealias Failure = P.Failure

    /// The subscriber of one inner publisher. `parent` is immutable; `subscription` is guarded by the parent's
    /// `lock`.
    @usableFromInline
    final class Side: Subscriber, CustomStringConvertible, @unchecked Sendable {
        @usableFromInline
        typealias Input = P.Output
        @usableFromInline
        typealias Failure = P.Failure

        @usableFromInline
        let parent: SwitchInner
        /// Guarded by the parent's lock.
        @usableFromInline
        @exclusivity(unchecked)
        var subscription: (any Subscription)?

        @inlinable
        init(parent: SwitchInner) { self.parent = parent }

        @usableFromInline
        var description: String { "SwitchToLatest" }

        @inlinable
        func receive(subscription: any Subscription) { parent.sideReceived(self, subscription: subscription) }
        @inlinable
        func receive(_ input: P.Output) -> Subscribers.Demand { parent.sideReceived(self, value: input) }
        @inlinable
        func receive(completion: Subscribers.Completion<P.Failure>) {
            parent.sideReceived(self, completion: completion)
        }
    }

    /// Guards every `var` below (`@exclusivity(unchecked)`: each access is under it, or in `init`).
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    @usableFromInline
    @exclusivity(unchecked)
    var outer: (any Subscription)?
    @usableFromInline
    @exclusivity(unchecked)
    var hasOuter = false
    @usableFromInline
    @exclusivity(unchecked)
    var outerFinished = false
    @usableFromInline
    @exclusivity(unchecked)
    var current: Side?
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none
    @usableFromInline
    @exclusivity(unchecked)
    var isDelivering = false
    /// Values of the current side received while another delivery was in progress. Guarded by `lock`, like the
    /// `var`s below.
    @usableFromInline
    @exclusivity(unchecked)
    var buffer: [P.Output] = []
    @usableFromInline
    @exclusivity(unchecked)
    var bufferHead = 0
    @usableFromInline
    @exclusivity(unchecked)
    var isTerminal = false
    @usableFromInline
    @exclusivity(unchecked)
    var pendingCompletion: Subscribers.Completion<Failure>?

    @inlinable
    init(downstream: Downstream) { self.downstream = downstream }

    @usableFromInline
    var description: String { "SwitchToLatest" }

    // MARK: Outer

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard !hasOuter, !isTerminal, let downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        hasOuter = true
        outer = subscription
        lock.unlock()
        downstream.receive(subscription: self)
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ input: P) -> Subscribers.Demand {
        lock.lock()
        guard !isTerminal, downstream != nil else {
            lock.unlock()
            return .none
        }
        let previous = current?.subscription
        current?.subscription = nil
        let side = Side(parent: self)
        current = side
        let stale = takeBufferLocked()
        lock.unlock()
        _ = stale
        previous?.cancel()
        input.receive(subscriber: side)
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard !isTerminal, !outerFinished else { return lock.unlock() }
        outer = nil
        switch completion {
        case .finished:
            outerFinished = true
            finishIfDoneLocked()
        case .failure(let error):
            failLocked(error)
        }
    }

    // MARK: Inner

    @inlinable
    func sideReceived(_ side: Side, subscription: any Subscription) {
        lock.lock()
        guard side === current, !isTerminal, side.subscription == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        side.subscription = subscription
        let carried = demand
        lock.unlock()
        if carried > .none { subscription.request(carried) }
    }

    @inlinable
    func sideReceived(_ side: Side, value: P.Output) -> Subscribers.Demand {
        lock.lock()
        guard side === current, !isTerminal, let downstream else {
            lock.unlock()
            return .none
        }
        if isDelivering || demand == .none || bufferHead < buffer.count {
            buffer.append(value)
            if !isDelivering && demand > .none {
                isDelivering = true
                drainLocked()
            } else {
                lock.unlock()
            }
            return .none
        }
        isDelivering = true
        if demand != .unlimited { demand -= 1 }
        lock.unlock()
        let more = downstream.receive(value)
        lock.lock()
        // The extra demand goes to whichever side is current now (it may have switched re-entrantly).
        let forward = forwardLocked(more)
        let stillCurrent = side === current
        drainLocked()
        if stillCurrent { return more }
        forward?.request(more)
        return .none
    }

    @inlinable
    func sideReceived(_ side: Side, completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard side === current, !isTerminal else { return lock.unlock() }
        current = nil
        side.subscription = nil
        switch completion {
        case .finished: finishIfDoneLocked()
        case .failure(let error): failLocked(error)
        }
    }

    // MARK: Downstream

    @inlinable
    func request(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        lock.lock()
        guard !isTerminal, downstream != nil else { return lock.unlock() }
        let forward = forwardLocked(more)
        if isDelivering {
            lock.unlock()
        } else {
            isDelivering = true
            drainLocked()
        }
        forward?.request(more)
    }

    @inlinable
    func cancel() {
        lock.lock()
        guard downstream != nil || !isTerminal else { return lock.unlock() }
        isTerminal = true
        let released = (downstream, takeBufferLocked())
        let subscriptions = (outer, current?.subscription)
        downstream = nil
        outer = nil
        current?.subscription = nil
        current = nil
        pendingCompletion = nil
        lock.unlock()
        subscriptions.0?.cancel()
        subscriptions.1?.cancel()
        _ = released
    }

    // MARK: Engine

    /// Adds downstream demand; returns the current side's subscription to forward it to, if the
    /// side has one already (a side still waiting for its subscription will request `demand`). Lock held.
    @inlinable
    func forwardLocked(_ more: Subscribers.Demand) -> (any Subscription)? {
        guard more > .none else { return nil }
        demand += more
        return current?.subscription
    }

    @inlinable
    func takeBufferLocked() -> [P.Output] {
        let taken = buffer
        buffer = []
        bufferHead = 0
        return taken
    }

    /// Lock held on entry, released on return.
    @inlinable
    func finishIfDoneLocked() {
        if !isDelivering && !isTerminal && outerFinished && current == nil && bufferHead == buffer.count {
            isDelivering = true
            drainLocked()
        } else {
            lock.unlock()
        }
    }

    /// Lock held on entry, released on return.
    @inlinable
    func failLocked(_ error: Failure) {
        guard !isTerminal, downstream != nil else { return lock.unlock() }
        isTerminal = true
        pendingCompletion = .failure(error)
        let subscriptions = (outer, current?.subscription)
        outer = nil
        current?.subscription = nil
        current = nil
        let dropped = takeBufferLocked()
        let delivers = !isDelivering
        isDelivering = true
        lock.unlock()
        _ = dropped
        subscriptions.0?.cancel()
        subscriptions.1?.cancel()
        if delivers {
            lock.lock()
            drainLocked()
        }
    }

    /// The deliverer's loop (lock held, `isDelivering` set; returns with the lock released).
    @inlinable
    func drainLocked() {
        while true {
            if let completion = pendingCompletion {
                pendingCompletion = nil
                let target = downstream
                downstream = nil
                lock.unlock()
                target?.receive(completion: completion)
                return
            }
            guard let downstream else {
                isDelivering = false
                let dropped = takeBufferLocked()
                lock.unlock()
                _ = dropped
                return
            }
            if demand > .none && bufferHead < buffer.count {
                let value = buffer[bufferHead]
                bufferHead += 1
                if bufferHead == buffer.count {
                    buffer.removeAll(keepingCapacity: true)
                    bufferHead = 0
                }
                if demand != .unlimited { demand -= 1 }
                lock.unlock()
                let more = downstream.receive(value)
                lock.lock()
                if let forward = forwardLocked(more) {
                    lock.unlock()
                    forward.request(more)
                    lock.lock()
                }
                continue
            }
            if !isTerminal && outerFinished && current == nil && bufferHead == buffer.count {
                isTerminal = true
                pendingCompletion = .finished
                continue
            }
            isDelivering = false
            lock.unlock()
            return
        }
    }
}

extension Publisher where Failure == Never, Output: Publisher {
    /// `switchToLatest` from a publisher that cannot fail to inner publishers that can (the typical
    /// search box: text that never fails, requests that do). Same contract as the same-failure form.
    ///
    /// ```swift
    /// let results = queries.map { api.search($0) }.switchToLatest()   // queries: Never
    /// ```
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>> {
        setFailureType(to: Output.Failure.self).switchToLatest()
    }
}

extension Publisher where Failure == Never, Output: Publisher, Output.Failure == Never {
    /// `switchToLatest` when neither the upstream nor the inner publishers can fail.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// `switchToLatest` into inner publishers that cannot fail, from a publisher that can: each inner
    /// is re-typed with ``Publisher/setFailureType(to:)``.
    @inlinable
    public func switchToLatest()
        -> Publishers.SwitchToLatest<
            Publishers.SetFailureType<Output, Failure>, Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
        >
    {
        map { $0.setFailureType(to: Failure.self) }.switchToLatest()
    }
}
