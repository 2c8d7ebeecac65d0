extension Publisher {
    /// Re-subscribes to this publisher after a failure when a trigger publisher, built from the stream of
    /// failures, says so.
    ///
    /// When the downstream subscribes, `notificationHandler` is called once with a publisher of this
    /// publisher's failures, and the publisher it returns (the *trigger*) is subscribed with unlimited
    /// demand, before the first attempt subscribes to this publisher. Then:
    /// - a failure of an attempt is not forwarded: it is sent into the failures publisher;
    /// - a trigger value, after a failure, re-subscribes to this publisher (a new attempt). Trigger values
    ///   while an attempt is running (no failure waiting for a retry) are ignored;
    /// - the trigger finishing finishes the downstream at once (cancelling a running attempt), and the
    ///   trigger failing fails it, when its error is a `Failure` (always so when the trigger's failure type is
    ///   `Failure`; a trigger whose failure is of another type finishes the downstream instead);
    /// - this publisher finishing finishes the downstream and cancels the trigger.
    ///
    /// A failure the trigger never answers (e.g. a handler that ignores the failures) leaves the stream
    /// waiting, as in RxSwift and CombineExt.
    /// - Downstream: sees one subscription for all the attempts; values already delivered stay delivered.
    /// - Demand: what the downstream requested and has not yet received carries over to each new attempt.
    /// - Timing: a re-subscription happens when the trigger emits, on the trigger's thread: a handler that
    ///   delays the failures (`$0.delay(for:scheduler:)`) gives a back-off on that scheduler.
    /// - Stack: an upstream that fails synchronously with a trigger that answers synchronously is
    ///   re-subscribed in a loop, not by recursion.
    /// - Cancellation: cancels the running attempt and the trigger's subscription; nothing is delivered or
    ///   subscribed after it.
    /// - Threading: `notificationHandler` runs on the thread that subscribes; failures are sent into the
    ///   failures publisher on the thread that delivered them.
    ///
    /// CombineExt's `retryWhen(_:)` (a class publisher there). Differences: trigger values that do not answer a
    /// failure are ignored, the trigger's completion also cancels a running attempt, and a trigger failure
    /// that is not a `Failure` finishes the stream rather than leaving it hanging.
    ///
    /// ```swift
    /// // Three retries, each one second after the failure; then the stream finishes.
    /// let c = fetch()
    ///     .retryWhen { failures in failures.prefix(3).delay(for: .seconds(1), scheduler: scheduler) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    @inlinable
    public func retryWhen<Trigger: Publisher>(
        _ notificationHandler: @escaping (AnyPublisher<Failure, Never>) -> Trigger
    ) -> Publishers.RetryWhen<Self, Trigger> {
        Publishers.RetryWhen(upstream: self, notificationHandler: notificationHandler)
    }

    /// ``retryWhen(_:)`` under a Swift-style name: re-subscribes after a failure when the trigger built from
    /// the failures emits; see there for the contract.
    ///
    /// ```swift
    /// let c = fetch().retry(when: { $0.delay(for: .seconds(1), scheduler: scheduler) }).sink { print($0) }
    /// ```
    @inlinable
    public func retry<Trigger: Publisher>(
        when notificationHandler: @escaping (AnyPublisher<Failure, Never>) -> Trigger
    ) -> Publishers.RetryWhen<Self, Trigger> {
        Publishers.RetryWhen(upstream: self, notificationHandler: notificationHandler)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/retryWhen(_:)`` and ``Publisher/retry(when:)``: see there for the
    /// contract.
    public struct RetryWhen<Upstream: Publisher, Trigger: Publisher>: Publisher {
        /// The upstream's output.
        public typealias Output = Upstream.Output
        /// The upstream's failure (forwarded only when the trigger fails with it).
        public typealias Failure = Upstream.Failure

        /// The publisher subscribed to, again after each failure the trigger answers.
        public let upstream: Upstream
        /// Builds the trigger from the publisher of failures; called once per subscriber.
        public let notificationHandler: (AnyPublisher<Upstream.Failure, Never>) -> Trigger

        /// Creates the operator.
        @inlinable
        public init(
            upstream: Upstream, notificationHandler: @escaping (AnyPublisher<Upstream.Failure, Never>) -> Trigger
        ) {
            self.upstream = upstream
            self.notificationHandler = notificationHandler
        }

        /// Attaches `subscriber`: it receives one subscription, then the trigger and the first attempt start.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            RetryWhenSubscription<Upstream, Trigger.Failure, S>(upstream: upstream, downstream: subscriber)
                .start(notificationHandler)
        }
    }
}

/// `retryWhen` on the shared ``ResubscribingSubscription``: a failed attempt is sent into the failures
/// publisher, and the trigger built from it re-subscribes (a trigger value after a failure) or ends the stream
/// (its completion).
///
/// Every `var` is guarded by the base class's `lock`; the failures subject is itself thread-safe.
@usableFromInline
final class RetryWhenSubscription<Upstream: Publisher, TriggerFailure: Error, Downstream: Subscriber>:
    ResubscribingSubscription<Upstream, Downstream, Upstream?, Downstream?>, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    /// The subscriber of the trigger. Holds the parent strongly until the parent ends, which cancels the
    /// trigger's subscription (and so lets go of this subscriber).
    @usableFromInline
    struct TriggerSink<Value>: Subscriber {
        @usableFromInline
        typealias Input = Value
        @usableFromInline
        typealias Failure = TriggerFailure
        @usableFromInline
        let parent: RetryWhenSubscription

        @inlinable
        init(parent: RetryWhenSubscription) { self.parent = parent }

        @inlinable
        func receive(subscription: any Subscription) { parent.trigger(received: subscription) }
        @inlinable
        func receive(_ input: Value) -> Subscribers.Demand {
            parent.triggerFired()
            return .none
        }
        @inlinable
        func receive(completion: Subscribers.Completion<TriggerFailure>) { parent.trigger(ended: completion) }
    }

    /// Where attempts' failures go; the trigger is built from it. Guarded by `lock`, like the `var`s below.
    @usableFromInline
    @exclusivity(unchecked)
    var failures: PassthroughSubject<Upstream.Failure, Never>?
    @usableFromInline
    @exclusivity(unchecked)
    var triggerSubscription: (any Subscription & AnyObject)?
    /// An attempt failed and the next trigger value re-subscribes. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var awaitingRetry = false

    @inlinable
    init(upstream: Upstream, downstream: Downstream) {
        self.failures = PassthroughSubject()
        // Names the class, not `Self`: the optimiser does not specialise the closure for the dynamic `Self` type.
        super.init(
            upstream: upstream, downstream: downstream, attemptEnded: Self.endsAttempts(as: RetryWhenSubscription.self))
    }

    @usableFromInline
    override var description: String { "RetryWhen" }

    /// Gives downstream its one subscription, subscribes the trigger, then starts the first attempt (unless
    /// it ended meanwhile).
    @inlinable
    func start<Trigger: Publisher>(_ handler: (AnyPublisher<Upstream.Failure, Never>) -> Trigger)
    where Trigger.Failure == TriggerFailure {
        guard handOver() else { return }
        lock.lock()
        let failures = self.failures
        lock.unlock()
        guard let failures else { return }
        handler(failures.eraseToAnyPublisher()).receive(subscriber: TriggerSink<Trigger.Output>(parent: self))
        resubscribe()
    }

    @usableFromInline
    override func releaseResources() -> ResubscribingRelease {
        defer {
            failures = nil
            triggerSubscription = nil
            awaitingRetry = false
        }
        return ResubscribingRelease(subscription: triggerSubscription, drop: failures)
    }

    /// Sends the failure into the failures publisher; the trigger decides what follows.
    @inlinable
    func attemptFailed(_ error: Failure) {
        lock.lock()
        guard downstream != nil else { return lock.unlock() }
        awaitingRetry = true
        let failures = self.failures
        lock.unlock()
        failures?.send(error)
    }

    @inlinable
    func trigger(received subscription: any Subscription) {
        lock.lock()
        guard downstream != nil, triggerSubscription == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        triggerSubscription = SubscriptionSlot.object(subscription)
        lock.unlock()
        subscription.request(.unlimited)
    }

    @inlinable
    func triggerFired() {
        lock.lock()
        guard downstream != nil, awaitingRetry else { return lock.unlock() }
        awaitingRetry = false
        lock.unlock()
        resubscribe()
    }

    @inlinable
    func trigger(ended completion: Subscribers.Completion<TriggerFailure>) {
        switch completion {
        case .finished:
            end(with: .finished)
        case .failure(let error):
            if let error = error as? Failure {
                end(with: .failure(error))
            } else {
                end(with: .finished)
            }
        }
    }
}

extension RetryWhenSubscription: HandlesFailedAttempts {}
