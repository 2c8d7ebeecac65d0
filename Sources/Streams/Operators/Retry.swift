extension Publisher {
    /// Re-subscribes to this publisher after a failure, up to `retries` times.
    ///
    /// Combine's meaning: `retry(3)` subscribes at most 4 times (1 + 3 re-subscriptions); the 4th failure
    /// is forwarded downstream. Only failures retry: `.finished` is forwarded at once.
    /// - Downstream: sees one subscription for all the attempts, received before the first attempt
    ///   subscribes upstream; values already delivered stay delivered (a new attempt may deliver them
    ///   again: `retry` does not de-duplicate).
    /// - Demand: what the downstream requested and has not yet received carries over to each new attempt.
    /// - Stack: a publisher that fails synchronously (e.g. `Fail`) is re-subscribed in a loop, not by
    ///   recursion, so any number of retries is safe.
    /// - Threading: a re-subscription happens at once, on the thread that delivered the failure.
    /// - Cancellation: stops retrying and cancels the current attempt.
    /// A negative `retries` counts as 0.
    ///
    /// ```swift
    /// let c = fetchProfile().retry(2).sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    @inlinable
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }

    /// Re-subscribes after a failure, waiting on `scheduler` before each re-subscription, at most
    /// `maxRetries` times.
    ///
    /// - Count: `maxRetries` is the number of *re-subscriptions* (so at most `maxRetries + 1`
    ///   subscriptions); `maxRetries: 0` never retries. A negative value counts as 0.
    /// - Which failures: all of them, or only those for which `shouldRetry` returns `true`; any other
    ///   failure, or the failure after the last retry, is forwarded downstream at once.
    /// - Timing: after the failure that ends attempt `k` (the first attempt is 0), the re-subscription
    ///   `k + 1` happens `backoff.delay(beforeRetry: k + 1)` after the failure, on `scheduler`
    ///   (see ``RetryBackoff``).
    /// - Downstream: one subscription; delivered values stay delivered; outstanding demand (requested
    ///   minus received) carries over to each new attempt.
    /// - Cancellation: cancels the current attempt, or the pending re-subscription timer, so nothing is
    ///   subscribed after `cancel()`.
    /// - Threading: re-subscriptions run on `scheduler`; `shouldRetry` runs on the thread that delivered
    ///   the failure.
    ///
    /// Not in Combine (whose `retry` re-subscribes at once).
    ///
    /// ```swift
    /// let c = client.profile()
    ///     .retry(maxRetries: 3, backoff: .exponential(initial: .milliseconds(200)), scheduler: scheduler)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    @inlinable
    public func retry(
        maxRetries: Int, backoff: RetryBackoff, scheduler: any Scheduler,
        shouldRetry: ((Failure) -> Bool)? = nil
    ) -> Publishers.RetryWithBackoff<Self> {
        Publishers.RetryWithBackoff(
            upstream: self, maxRetries: maxRetries, backoff: backoff, scheduler: scheduler, shouldRetry: shouldRetry)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/retry(_:)``: re-subscribes at once after a failure.
    public struct Retry<Upstream: Publisher>: Publisher {
        /// The upstream's output.
        public typealias Output = Upstream.Output
        /// The upstream's failure (forwarded once the retries are used up).
        public typealias Failure = Upstream.Failure

        /// The publisher subscribed to, again after each failure.
        public let upstream: Upstream
        /// The most re-subscriptions after failures (never negative).
        public let retries: Int

        /// Creates the operator; a negative `retries` counts as 0.
        @inlinable
        public init(upstream: Upstream, retries: Int) {
            self.upstream = upstream
            self.retries = Swift.max(0, retries)
        }

        /// Attaches `subscriber`: it receives one subscription, then the first attempt starts.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            RetrySubscription(
                upstream: upstream, downstream: subscriber, retries: retries, backoff: nil, shouldRetry: nil
            ).start()
        }
    }

    /// The publisher returned by ``Publisher/retry(maxRetries:backoff:scheduler:shouldRetry:)``:
    /// re-subscribes after a failure once a back-off delay has passed on a scheduler.
    public struct RetryWithBackoff<Upstream: Publisher>: Publisher {
        /// The upstream's output.
        public typealias Output = Upstream.Output
        /// The upstream's failure (forwarded when not retried).
        public typealias Failure = Upstream.Failure

        /// The publisher subscribed to, again after each retried failure.
        public let upstream: Upstream
        /// The most re-subscriptions after failures (never negative).
        public let maxRetries: Int
        /// The delay before each re-subscription.
        public let backoff: RetryBackoff
        /// Where the delays are timed and the re-subscriptions run.
        public let scheduler: any Scheduler
        /// Decides whether a failure is retried; `nil` retries every failure.
        public let shouldRetry: ((Failure) -> Bool)?

        /// Creates the operator; a negative `maxRetries` counts as 0.
        @inlinable
        public init(
            upstream: Upstream, maxRetries: Int, backoff: RetryBackoff, scheduler: any Scheduler,
            shouldRetry: ((Failure) -> Bool)?
        ) {
            self.upstream = upstream
            self.maxRetries = Swift.max(0, maxRetries)
            self.backoff = backoff
            self.scheduler = scheduler
            self.shouldRetry = shouldRetry
        }

        /// Attaches `subscriber`: it receives one subscription, then the first attempt starts.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            RetrySubscription(
                upstream: upstream, downstream: subscriber, retries: maxRetries,
                backoff: RetryBackoffTimer(scheduler: scheduler, backoff: backoff), shouldRetry: shouldRetry
            ).start()
        }
    }
}

/// Where and how long a delayed retry waits, and the retry it waits for: only `retry(maxRetries:backoff:…)` has one,
/// so a plain `retry(_:)` subscription carries an empty reference instead of a scheduler, a back-off, a pending retry
/// number and a timer handle (137 bytes less).
///
/// `scheduler` and `backoff` are immutable; `pendingRetry` and `timer` are guarded by the `lock` of the one
/// `RetrySubscription` that owns this object.
@usableFromInline
final class RetryBackoffTimer: @unchecked Sendable {
    @usableFromInline
    let scheduler: any Scheduler
    @usableFromInline
    let backoff: RetryBackoff
    /// The retry number the pending timer will start; `nil` when no timer is pending. Guarded by the owning
    /// subscription's `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var pendingRetry: Int?
    /// The pending timer's handle. Guarded by the owning subscription's `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var timer = ScheduledHandle()

    @inlinable
    init(scheduler: any Scheduler, backoff: RetryBackoff) {
        self.scheduler = scheduler
        self.backoff = backoff
    }
}

/// The `shouldRetry` closure of `retry(maxRetries:backoff:scheduler:shouldRetry:)`, in an object: the subscription
/// lets go of it when it ends, outside its lock, as an `AnyObject` (see ``ResubscribingRelease``). Immutable.
@usableFromInline
final class RetryPredicate<Failure: Error> {
    @usableFromInline
    let test: (Failure) -> Bool

    @inlinable
    init(_ test: @escaping (Failure) -> Bool) { self.test = test }
}

/// `retry(_:)` and `retry(maxRetries:backoff:scheduler:shouldRetry:)` on the shared
/// ``ResubscribingSubscription``: counts the retries, asks `shouldRetry`, and re-subscribes at once or after
/// the back-off, on `backoff`'s scheduler.
///
/// Every `var` is guarded by the base class's `lock` (and so are `backoff`'s); `backoff` is immutable, and names the
/// operator (`Retry` without one, `RetryWithBackoff` with one).
@usableFromInline
final class RetrySubscription<Upstream: Publisher, Downstream: Subscriber>:
    ResubscribingSubscription<Upstream, Downstream, Upstream?, Downstream?>, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    /// `nil` for `retry(_:)`, which re-subscribes at once.
    @usableFromInline
    let backoff: RetryBackoffTimer?
    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var shouldRetry: RetryPredicate<Failure>?
    @usableFromInline
    @exclusivity(unchecked)
    var retriesLeft: Int
    @usableFromInline
    @exclusivity(unchecked)
    var retriesMade = 0

    @inlinable
    init(
        upstream: Upstream, downstream: Downstream, retries: Int, backoff: RetryBackoffTimer?,
        shouldRetry: ((Failure) -> Bool)?
    ) {
        self.retriesLeft = retries
        self.backoff = backoff
        self.shouldRetry = shouldRetry.map(RetryPredicate.init)
        // Names the class, not `Self`: the optimiser does not specialise the closure for the dynamic `Self` type.
        super.init(
            upstream: upstream, downstream: downstream, attemptEnded: Self.endsAttempts(as: RetrySubscription.self))
    }

    @usableFromInline
    override var description: String { backoff == nil ? "Retry" : "RetryWithBackoff" }

    /// Gives downstream its one subscription, then starts the first attempt (unless it cancelled).
    @inlinable
    func start() {
        if handOver() { resubscribe() }
    }

    @usableFromInline
    override func releaseResources() -> ResubscribingRelease {
        defer {
            shouldRetry = nil
            backoff?.pendingRetry = nil
        }
        return ResubscribingRelease(timer: backoff?.timer.take() ?? ScheduledHandle(), drop: shouldRetry)
    }

    /// Retries (at once, or after the back-off) while retries are left and `shouldRetry` agrees; otherwise
    /// forwards the failure.
    @inlinable
    func attemptFailed(_ error: Failure) {
        lock.lock()
        let mayRetry = retriesLeft > 0
        let predicate = shouldRetry
        lock.unlock()

        let retries = mayRetry && (predicate?.test(error) ?? true)

        lock.lock()
        guard downstream != nil else { return lock.unlock() }
        guard retries else {
            lock.unlock()
            end(with: .failure(error))
            return
        }
        retriesLeft -= 1
        retriesMade += 1
        guard let backoff else {
            lock.unlock()
            resubscribe()
            return
        }
        let retry = retriesMade
        backoff.pendingRetry = retry
        lock.unlock()
        let wait = backoff.backoff.delay(beforeRetry: retry)
        // The action holds the subscription until it runs or is cancelled; ending the subscription cancels it
        // (`releaseResources()`), as every timing operator does (see `scheduleAction` in ScheduledAction.swift).
        let scheduled = backoff.scheduler.scheduleAction(after: backoff.scheduler.now + wait) { [self] in
            timerFired(retry: retry)
        }
        lock.lock()
        if backoff.pendingRetry == retry {
            // Replaces none: a retry's timer is taken before the next is scheduled.
            let replaced = backoff.timer.store(scheduled)
            lock.unlock()
            _ = replaced
        } else {
            let cancelled = downstream == nil
            lock.unlock()
            // Cancelled while scheduling: make sure the timer never runs. (Already fired: nothing to do.)
            if cancelled { scheduled.cancel() }
        }
    }

    /// The back-off timer of retry number `retry` fired: starts that retry if it is still the pending one.
    @inlinable
    func timerFired(retry: Int) {
        lock.lock()
        guard let backoff, backoff.pendingRetry == retry, downstream != nil else { return lock.unlock() }
        backoff.pendingRetry = nil
        let timer = backoff.timer.take()
        lock.unlock()
        _ = timer
        resubscribe()
    }
}

// Equal when their parts are equal, as in Combine.
extension Publishers.Retry: Equatable where Upstream: Equatable {}

extension RetrySubscription: HandlesFailedAttempts {}
