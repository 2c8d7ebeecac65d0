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
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            RetrySubscription(
                upstream: upstream, downstream: subscriber, retries: retries, delay: nil, shouldRetry: nil,
                description: "Retry"
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
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            RetrySubscription(
                upstream: upstream, downstream: subscriber, retries: maxRetries,
                delay: RetryDelay(scheduler: scheduler, backoff: backoff), shouldRetry: shouldRetry,
                description: "RetryWithBackoff"
            ).start()
        }
    }
}

/// What a retry timer calls back when it fires.
@usableFromInline
protocol RetryTimerTarget: AnyObject, Sendable {
    /// Starts retry number `retry` if it is still the pending one.
    func timerFired(retry: Int)
}

/// Where and how long a delayed retry waits.
@usableFromInline
struct RetryDelay: Sendable {
    @usableFromInline
    let scheduler: any Scheduler
    @usableFromInline
    let backoff: RetryBackoff

    @inlinable
    init(scheduler: any Scheduler, backoff: RetryBackoff) {
        self.scheduler = scheduler
        self.backoff = backoff
    }
}

/// The one subscription a retrying operator gives downstream; it subscribes to upstream once per attempt.
///
/// Each attempt subscribes an ``Attempt`` stamped with a generation number; events from any attempt but
/// the current one are ignored. Re-subscription is a loop (a trampoline): a failure that arrives while
/// `upstream.subscribe` is still running only sets `resubscribeRequested`, and the loop subscribes again
/// once that call has returned, so a synchronously failing upstream never grows the stack.
///
/// Every `var` is guarded by `lock`; `description` and `delay` are immutable.
@usableFromInline
final class RetrySubscription<Upstream: Publisher, Downstream: Subscriber>: Subscription, RetryTimerTarget,
    CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline
    typealias Failure = Upstream.Failure

    /// The subscriber of one attempt.
    @usableFromInline
    struct Attempt: Subscriber {
        @usableFromInline
        typealias Input = Upstream.Output
        @usableFromInline
        typealias Failure = Upstream.Failure
        @usableFromInline
        let parent: RetrySubscription
        @usableFromInline
        let generation: Int

        @inlinable
        init(parent: RetrySubscription, generation: Int) {
            self.parent = parent
            self.generation = generation
        }

        @inlinable
        func receive(subscription: any Subscription) { parent.attempt(generation, received: subscription) }
        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand { parent.attempt(generation, received: input) }
        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) { parent.attempt(generation, ended: completion) }
    }

    @usableFromInline
    let description: String
    @usableFromInline
    let delay: RetryDelay?
    @usableFromInline
    let lock = Lock()
    // Everything below is guarded by `lock`. `downstream == nil` means terminal (completed or cancelled).
    @usableFromInline
    @exclusivity(unchecked)
    var upstream: Upstream?
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    @usableFromInline
    @exclusivity(unchecked)
    var shouldRetry: ((Failure) -> Bool)?
    @usableFromInline
    @exclusivity(unchecked)
    var retriesLeft: Int
    @usableFromInline
    @exclusivity(unchecked)
    var retriesMade = 0
    /// Requested by downstream and not yet delivered. Guarded by `lock`, like the `var`s below.
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none
    @usableFromInline
    @exclusivity(unchecked)
    var generation = 0
    /// The attempt whose events are accepted; `nil` between attempts. Guarded by `lock`, like the `var`s below.
    @usableFromInline
    @exclusivity(unchecked)
    var activeGeneration: Int?
    @usableFromInline
    @exclusivity(unchecked)
    var upstreamSubscription: (any Subscription)?
    @usableFromInline
    @exclusivity(unchecked)
    var isSubscribing = false
    @usableFromInline
    @exclusivity(unchecked)
    var resubscribeRequested = false
    /// The retry number the pending timer will start; `nil` when no timer is pending. Guarded by `lock`, like
    /// `timer`.
    @usableFromInline
    @exclusivity(unchecked)
    var pendingRetry: Int?
    @usableFromInline
    @exclusivity(unchecked)
    var timer: (any Cancellable)?

    @inlinable
    init(
        upstream: Upstream, downstream: Downstream, retries: Int, delay: RetryDelay?,
        shouldRetry: ((Failure) -> Bool)?, description: String
    ) {
        self.upstream = upstream
        self.downstream = downstream
        self.retriesLeft = retries
        self.delay = delay
        self.shouldRetry = shouldRetry
        self.description = description
    }

    /// Gives downstream its one subscription, then starts the first attempt (unless it cancelled).
    @inlinable
    func start() {
        lock.lock()
        let downstream = self.downstream
        lock.unlock()
        downstream?.receive(subscription: self)
        resubscribe()
    }

    @inlinable
    func request(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        lock.lock()
        guard downstream != nil else { return lock.unlock() }
        demand += more
        let subscription = upstreamSubscription
        lock.unlock()
        subscription?.request(more)
    }

    @inlinable
    func cancel() {
        lock.lock()
        let released = release()
        lock.unlock()
        released.subscription?.cancel()
        released.timer?.cancel()
        _ = released
    }

    /// Clears the state, ending the subscription. Lock held; the caller cancels / drops the result
    /// after unlocking.
    @inlinable
    func release() -> (
        subscription: (any Subscription)?, timer: (any Cancellable)?, downstream: Downstream?,
        upstream: Upstream?, shouldRetry: ((Failure) -> Bool)?
    ) {
        defer {
            downstream = nil
            upstream = nil
            shouldRetry = nil
            upstreamSubscription = nil
            timer = nil
            pendingRetry = nil
            activeGeneration = nil
        }
        return (upstreamSubscription, timer, downstream, upstream, shouldRetry)
    }

    /// Subscribes a new attempt, looping while attempts fail during their own `subscribe` call.
    @inlinable
    func resubscribe() {
        lock.lock()
        guard downstream != nil else { return lock.unlock() }
        if isSubscribing {
            resubscribeRequested = true
            return lock.unlock()
        }
        isSubscribing = true
        while true {
            guard downstream != nil, let upstream else { break }
            generation += 1
            activeGeneration = generation
            resubscribeRequested = false
            let attempt = Attempt(parent: self, generation: generation)
            lock.unlock()
            upstream.receive(subscriber: attempt)
            lock.lock()
            if !resubscribeRequested { break }
        }
        isSubscribing = false
        lock.unlock()
    }

    @inlinable
    func attempt(_ generation: Int, received subscription: any Subscription) {
        lock.lock()
        guard activeGeneration == generation, downstream != nil, upstreamSubscription == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstreamSubscription = subscription
        let demand = self.demand
        lock.unlock()
        if demand > .none { subscription.request(demand) }
    }

    @inlinable
    func attempt(_ generation: Int, received input: Upstream.Output) -> Subscribers.Demand {
        lock.lock()
        guard activeGeneration == generation, let downstream else {
            lock.unlock()
            return .none
        }
        if demand != .unlimited { demand -= 1 }
        lock.unlock()
        let more = downstream.receive(input)
        if more > .none {
            lock.lock()
            if self.downstream != nil { demand += more }
            lock.unlock()
        }
        return more
    }

    @inlinable
    func attempt(_ generation: Int, ended completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard activeGeneration == generation, downstream != nil else { return lock.unlock() }
        activeGeneration = nil
        upstreamSubscription = nil
        guard case .failure(let error) = completion else {
            let released = release()
            lock.unlock()
            released.downstream?.receive(completion: completion)
            return
        }
        let mayRetry = retriesLeft > 0
        let predicate = shouldRetry
        lock.unlock()

        let retries = mayRetry && (predicate?(error) ?? true)

        lock.lock()
        guard downstream != nil else { return lock.unlock() }
        guard retries else {
            let released = release()
            lock.unlock()
            released.downstream?.receive(completion: completion)
            return
        }
        retriesLeft -= 1
        retriesMade += 1
        guard let delay else {
            lock.unlock()
            resubscribe()
            return
        }
        let retry = retriesMade
        pendingRetry = retry
        lock.unlock()
        let wait = delay.backoff.delay(beforeRetry: retry)
        // Captured as a non-generic existential: a scheduled action must not capture generic metatypes.
        let target: any RetryTimerTarget = self
        let scheduled = delay.scheduler.schedule(after: delay.scheduler.now + wait) { [weak target] in
            target?.timerFired(retry: retry)
        }
        lock.lock()
        if pendingRetry == retry {
            timer = scheduled
            lock.unlock()
        } else {
            let cancelled = downstream == nil
            lock.unlock()
            // Cancelled while scheduling: make sure the timer never runs. (Already fired: nothing to do.)
            if cancelled { scheduled.cancel() }
        }
    }

    @inlinable
    func timerFired(retry: Int) {
        lock.lock()
        guard pendingRetry == retry, downstream != nil else { return lock.unlock() }
        pendingRetry = nil
        let timer = self.timer
        self.timer = nil
        lock.unlock()
        _ = timer
        resubscribe()
    }
}
