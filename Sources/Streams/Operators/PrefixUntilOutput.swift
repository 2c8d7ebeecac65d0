extension Publisher {
    /// Republishes the upstream's values until `publisher` (the trigger) publishes a value, then finishes.
    ///
    /// - Order: the subscriber gets its subscription first, then the trigger is subscribed and asked for one
    ///   value, then the upstream is subscribed. (Combine subscribes the trigger first and hands the
    ///   subscription over from the upstream's, so a trigger that fires at once — `Just` — makes it send
    ///   `.finished` before the subscription; here the subscription always comes first.)
    /// - Completion: when the trigger fires, the upstream is cancelled and `.finished` sent. If a value is
    ///   being delivered on another thread at that moment, `.finished` follows it once it returns, so calls to
    ///   the subscriber never overlap. A trigger that completes without a value (finished or failed) changes
    ///   nothing; its failure type may differ from the upstream's. The upstream's completion is forwarded and
    ///   cancels the trigger.
    /// - Demand: passes straight through to the upstream.
    /// - Cancellation: cancels the upstream and a trigger that has not fired; nothing reaches the subscriber
    ///   after it. A trigger that has fired is released, not cancelled (as in Combine).
    /// - Threading: the trigger may fire on any thread.
    ///
    /// ```swift
    /// let c = ticks.prefix(untilOutputFrom: stopButtonTaps).sink { print($0) }
    /// ```
    @inlinable
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/prefix(untilOutputFrom:)``.
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are republished until the trigger fires.
        public let upstream: Upstream
        /// The trigger: its first value ends the stream.
        public let other: Other

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Attaches `subscriber`: hands it its subscription, then subscribes the trigger, then the upstream.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let inner = PrefixUntilOutputInner<Other.Failure, S>(downstream: subscriber)
            inner.start()
            other.receive(subscriber: TriggerSubscriber<Other.Output, _>(receiver: inner, name: "PrefixUntilOutput"))
            upstream.receive(subscriber: inner)
        }
    }
}

/// The subscriber `prefix(untilOutputFrom:)` attaches upstream (and, through a ``TriggerSubscriber``, to the
/// trigger), and the downstream's subscription. Shared across threads: the upstream subscription is held by
/// `link`; `downstream`, `trigger`, `isDelivering` and `finishPending` are guarded by `lock`.
///
/// The trigger may fire on another thread while a value is being delivered: whoever finds no delivery in
/// progress takes the downstream and sends `.finished`; otherwise the delivering thread sends it when its
/// call returns, so calls to the downstream never overlap.
@usableFromInline
final class PrefixUntilOutputInner<TriggerFailure: Error, Downstream: Subscriber>: Subscriber, Subscription,
    TriggerReceiver, CustomStringConvertible, @unchecked Sendable
{
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let link = UpstreamLink()
    /// Guards every `var` below (`@exclusivity(unchecked)`: every access is under it, or in `init`).
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    /// The trigger's subscription. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var trigger = TriggerLink.waiting
    /// An upstream value is being delivered (by the upstream's thread, outside the lock). Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var isDelivering = false
    /// The trigger fired during a delivery: the delivering thread sends `.finished` when it returns. Guarded
    /// by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var finishPending = false

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
    }

    @usableFromInline
    var description: String { "PrefixUntilOutput" }

    /// Before anything is subscribed: hands the subscriber its subscription (its requests wait in the link
    /// until the upstream subscription arrives).
    @inlinable
    func start() {
        lock.lock()
        let downstream = self.downstream
        lock.unlock()
        downstream?.receive(subscription: self)
    }

    // MARK: The upstream

    @inlinable
    func receive(subscription: any Subscription) {
        _ = link.attach(subscription)  // forwards what the subscriber has requested so far
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard let downstream else {
            lock.unlock()
            return .none
        }
        isDelivering = true
        lock.unlock()
        let more = downstream.receive(input)
        lock.lock()
        isDelivering = false
        let finish = finishPending
        finishPending = false
        lock.unlock()
        guard finish else { return more }
        release().downstream?.receive(completion: .finished)  // nil if the subscriber cancelled meanwhile
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        let (downstream, trigger) = release()
        trigger?.cancel()
        downstream?.receive(completion: completion)
    }

    // MARK: The downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) { link.request(demand) }

    @inlinable
    func cancel() {
        link.cancel()
        release().trigger?.cancel()
    }

    // MARK: The trigger

    @inlinable
    func triggerReceive(subscription: any Subscription) {
        lock.lock()
        let accepted = trigger.accept(subscription, isWanted: downstream != nil)
        lock.unlock()
        if accepted { subscription.request(.max(1)) } else { subscription.cancel() }
    }

    @inlinable
    func triggerFired() {
        lock.lock()
        guard trigger.isLive else { return lock.unlock() }
        let fired = trigger.end()
        lock.unlock()
        _ = fired  // released (not cancelled, as in Combine) outside the lock
        guard link.finishAndCancel() else { return }  // the upstream completed first, or the subscriber cancelled
        lock.lock()
        if isDelivering {
            finishPending = true  // sent by the delivering thread when its call returns
            lock.unlock()
            return
        }
        let downstream = self.downstream
        self.downstream = nil
        lock.unlock()
        downstream?.receive(completion: .finished)
    }

    @inlinable
    func triggerReceive(completion: Subscribers.Completion<TriggerFailure>) {
        lock.lock()
        let ended = trigger.end()  // a trigger that completes without a value changes nothing
        lock.unlock()
        _ = ended
    }

    /// Takes the downstream out (once) and ends the trigger's link; returns the downstream (`nil` if already
    /// released) and the trigger's subscription if it had not fired, for the caller to cancel.
    @inlinable
    func release() -> (downstream: Downstream?, trigger: (any Subscription)?) {
        lock.lock()
        let released = downstream
        downstream = nil
        let live = trigger.end()
        finishPending = false
        lock.unlock()
        return (released, live)
    }
}
