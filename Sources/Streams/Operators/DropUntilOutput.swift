extension Publisher {
    /// Ignores the upstream's values until `publisher` (the trigger) publishes a value, then republishes the
    /// upstream's values.
    ///
    /// - Order: as in Combine, the subscriber gets its subscription first, then the trigger is subscribed and
    ///   asked for one value, then the upstream is subscribed.
    /// - Demand: passes straight through to the upstream. As in Combine, a value ignored before the trigger
    ///   fires uses up the subscriber's demand (no more is asked in its place): a subscriber that requested
    ///   `.max(n)` gets up to n values minus those ignored.
    /// - Completion: the upstream's completion is forwarded (and cancels a trigger that has not fired). If the
    ///   trigger completes without a value, so does the stream, with the trigger's completion (`.finished` or
    ///   its failure), cancelling upstream; once it has fired, its completion is ignored.
    /// - Cancellation: cancels the upstream and a trigger that has not fired; nothing reaches the subscriber
    ///   after it. A trigger that has fired is released, not cancelled (as in Combine).
    /// - Threading: the trigger may fire on any thread.
    ///
    /// ```swift
    /// let c = readings.drop(untilOutputFrom: calibrated).sink { print($0) }
    /// ```
    @inlinable
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where Failure == P.Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/drop(untilOutputFrom:)``.
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's (and the trigger's) failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are republished once the trigger has fired.
        public let upstream: Upstream
        /// The trigger: its first value starts the republishing.
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
            let inner = DropUntilOutputInner(downstream: subscriber)
            inner.start()
            other.receive(subscriber: TriggerSubscriber<Other.Output, _>(receiver: inner, name: "DropUntilOutput"))
            upstream.receive(subscriber: inner)
        }
    }
}

/// The subscriber `drop(untilOutputFrom:)` attaches upstream (and, through a ``TriggerSubscriber``, to the
/// trigger), and the downstream's subscription. Shared across threads: the upstream subscription is held by
/// `link`; `downstream`, `isTriggered` and `trigger` are guarded by `lock`.
@usableFromInline
final class DropUntilOutputInner<Downstream: Subscriber>: Subscriber, Subscription, TriggerReceiver,
    CustomStringConvertible, @unchecked Sendable
{
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure
    @usableFromInline
    typealias TriggerFailure = Downstream.Failure

    @usableFromInline
    let link = UpstreamLink()
    /// Guards every `var` below (`@exclusivity(unchecked)`: every access is under it, or in `init`).
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    /// The trigger has fired: values pass. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var isTriggered = false
    /// The trigger's subscription. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var trigger = TriggerLink.waiting

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
    }

    @usableFromInline
    var description: String { "DropUntilOutput" }

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
        guard let downstream, isTriggered else {
            lock.unlock()
            return .none  // ignored before the trigger fires; as in Combine, its demand is used up
        }
        lock.unlock()
        return downstream.receive(input)
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
        isTriggered = true
        let fired = trigger.end()
        lock.unlock()
        _ = fired  // released (not cancelled, as in Combine) outside the lock
    }

    @inlinable
    func triggerReceive(completion: Subscribers.Completion<TriggerFailure>) {
        lock.lock()
        guard trigger.isLive else { return lock.unlock() }  // fired already (or ended): ignored
        let ended = trigger.end()
        lock.unlock()
        _ = ended
        // The trigger ended without a value: so does the stream, with its completion, cancelling upstream.
        guard link.finishAndCancel() else { return }
        release().downstream?.receive(completion: completion)
    }

    /// Takes the downstream out (once) and ends the trigger's link; returns the downstream (`nil` if already
    /// released) and the trigger's subscription if it had not fired, for the caller to cancel.
    @inlinable
    func release() -> (downstream: Downstream?, trigger: (any Subscription)?) {
        lock.lock()
        let released = downstream
        downstream = nil
        let live = trigger.end()
        lock.unlock()
        return (released, live)
    }
}

/// Equal when the upstreams and the triggers are equal, as in Combine.
extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}
