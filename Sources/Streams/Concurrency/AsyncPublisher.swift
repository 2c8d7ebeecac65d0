extension Publisher where Failure == Never {
    /// The values of this publisher as an `AsyncSequence`.
    ///
    /// - Demand: the subscription is made when iteration starts and asks for one value per `next()`,
    ///   so a fast publisher (e.g. a `PassthroughSubject`) drops values sent while the consumer is busy,
    ///   exactly as a subscriber with no demand would.
    /// - Cancellation: cancelling the consuming task cancels the subscription and ends the loop; so does
    ///   leaving the loop early (`break`, `return`): the iterator cancels when it is dropped.
    /// - Isolation: the subscription is made synchronously when iteration starts (`makeAsyncIterator()`), in
    ///   the iterating task's isolation. Afterwards the publisher sends on whatever thread it sends on
    ///   (possibly inside the `request` that `next()` makes); each value is handed to the task suspended in
    ///   `next()`, and the loop body runs in the isolation of the task that iterates (in a `@MainActor`
    ///   function, on the main actor). See <doc:Concurrency>.
    ///
    /// ```swift
    /// for await value in [1, 2, 3].publisher.values { print(value) }
    /// ```
    public var values: AsyncPublisher<Self> { AsyncPublisher(self) }
}

extension Publisher {
    /// The values of this publisher as a throwing `AsyncSequence`: a failure is thrown by `next()`
    /// (once; later calls return `nil`).
    ///
    /// Same demand, cancellation and isolation contract as the non-throwing `values`: one value requested per
    /// `next()`; leaving the loop early (`break`, `return`, a thrown error) or cancelling the task cancels the
    /// subscription; the loop body runs in the isolation of the iterating task. See <doc:Concurrency>.
    ///
    /// ```swift
    /// for try await product in client.products().values { print(product) }
    /// ```
    public var values: AsyncThrowingPublisher<Self> { AsyncThrowingPublisher(self) }
}

/// A publisher that cannot fail, seen as an `AsyncSequence` (see `values`).
///
/// Each iterator subscribes once, when it is made, and requests one value per `next()`; the loop body runs in
/// the iterating task's isolation. The opposite bridge, an `AsyncSequence` as a publisher, is
/// ``AsyncSequencePublisher``.
///
/// ```swift
/// for await count in counts.values { print(count) }
/// ```
public struct AsyncPublisher<Upstream: Publisher>: AsyncSequence where Upstream.Failure == Never {
    /// The publisher's output.
    public typealias Element = Upstream.Output

    @usableFromInline
    let upstream: Upstream

    /// Wraps `upstream`.
    @inlinable
    public init(_ upstream: Upstream) { self.upstream = upstream }

    /// Subscribes and returns the iterator.
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        let bridge = AsyncBridge<Element, Never>()
        upstream.receive(subscriber: bridge)
        return Iterator(bridge: bridge, lifetime: BridgeLifetime(bridge.cancel))
    }

    /// Iterates the publisher's values; `nil` after it finishes or when the task is cancelled.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline
        let bridge: AsyncBridge<Element, Never>
        @usableFromInline
        let lifetime: BridgeLifetime

        @inlinable
        init(bridge: AsyncBridge<Element, Never>, lifetime: BridgeLifetime) {
            self.bridge = bridge
            self.lifetime = lifetime
        }

        /// The next value, or `nil` at the end.
        @inlinable
        public mutating func next() async -> Element? {
            switch await bridge.next() {
            case .success(let value): return value
            }
        }
    }
}

/// A publisher that can fail, seen as a throwing `AsyncSequence` (see `values`).
///
/// The same contract as ``AsyncPublisher``; the publisher's failure is thrown by `next()`.
///
/// ```swift
/// for try await product in client.products().values { print(product) }
/// ```
public struct AsyncThrowingPublisher<Upstream: Publisher>: AsyncSequence {
    /// The publisher's output.
    public typealias Element = Upstream.Output

    @usableFromInline
    let upstream: Upstream

    /// Wraps `upstream`.
    @inlinable
    public init(_ upstream: Upstream) { self.upstream = upstream }

    /// Subscribes and returns the iterator.
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        let bridge = AsyncBridge<Element, Upstream.Failure>()
        upstream.receive(subscriber: bridge)
        return Iterator(bridge: bridge, lifetime: BridgeLifetime(bridge.cancel))
    }

    /// Iterates the publisher's values; throws its failure; `nil` after it finishes or on task cancel.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline
        let bridge: AsyncBridge<Element, Upstream.Failure>
        @usableFromInline
        let lifetime: BridgeLifetime

        @inlinable
        init(bridge: AsyncBridge<Element, Upstream.Failure>, lifetime: BridgeLifetime) {
            self.bridge = bridge
            self.lifetime = lifetime
        }

        /// The next value, `nil` at the end, or the publisher's failure thrown.
        @inlinable
        public mutating func next() async throws -> Element? {
            try await bridge.next().get()
        }
    }
}

/// Cancels the bridge's subscription when the last copy of an iterator is dropped (as Combine does),
/// so `break` out of a `for await` loop does not leave the subscription alive.
@usableFromInline
final class BridgeLifetime: Sendable {
    @usableFromInline
    let onDeinit: @Sendable () -> Void
    @inlinable
    init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}

/// Hands a value across the continuation; the bridge guarantees one hand-off per request. Unchecked because
/// `Value` need not be `Sendable`: sound as a transfer, since the sending side makes no further use of the value
/// after resuming the one waiting task.
@usableFromInline
struct Handoff<Value>: @unchecked Sendable {
    @usableFromInline
    let value: Value

    @inlinable
    init(value: Value) { self.value = value }
}

/// The subscriber behind `values`: requests one value per `next()` and resumes the waiting task. All its state
/// is in `state`, under that `Locked`'s lock.
@usableFromInline
final class AsyncBridge<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    @usableFromInline
    typealias Outcome = Result<Input?, Failure>

    @usableFromInline
    struct State {
        @usableFromInline
        var subscription: (any Subscription & AnyObject)?
        @usableFromInline
        var waiting: CheckedContinuation<Handoff<Outcome>, Never>?
        @usableFromInline
        var buffered: Input?
        @usableFromInline
        var end: Outcome?
        @usableFromInline
        var pendingRequest = false

        @inlinable
        init() {}
    }

    @usableFromInline
    let state = Locked(State())

    @inlinable
    init() {}

    @inlinable
    func receive(subscription: any Subscription) {
        let (accepted, request) = state.withLock { state -> (Bool, Bool) in
            guard state.subscription == nil, state.end == nil else { return (false, false) }
            state.subscription = SubscriptionSlot.object(subscription)
            return (true, state.pendingRequest)
        }
        guard accepted else { return subscription.cancel() }
        if request { subscription.request(.max(1)) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let waiting = state.withLock { state -> CheckedContinuation<Handoff<Outcome>, Never>? in
            state.pendingRequest = false
            guard let waiting = state.waiting else {
                state.buffered = input
                return nil
            }
            state.waiting = nil
            return waiting
        }
        waiting?.resume(returning: Handoff(value: .success(input)))
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let outcome: Outcome
        switch completion {
        case .finished: outcome = .success(nil)
        case .failure(let error): outcome = .failure(error)
        }
        finish(with: outcome, cancelling: false)
    }

    /// Cancels the subscription (the iterator was dropped).
    @inlinable
    @Sendable func cancel() { finish(with: .success(nil), cancelling: true) }

    /// Ends the sequence: resumes a waiting task and, on task cancellation, cancels upstream.
    @inlinable
    func finish(with outcome: Outcome, cancelling: Bool) {
        let (waiting, subscription) = state.withLock {
            state -> (CheckedContinuation<Handoff<Outcome>, Never>?, (any Subscription & AnyObject)?) in
            if state.end == nil { state.end = outcome }
            if cancelling { state.buffered = nil }
            // A failure handed to a waiting task is consumed: later calls to `next()` return `nil`.
            if state.waiting != nil, case .failure = outcome { state.end = .success(nil) }
            defer {
                state.waiting = nil
                state.subscription = nil
            }
            return (state.waiting, state.subscription)
        }
        if cancelling { subscription?.cancel() }
        waiting?.resume(returning: Handoff(value: outcome))
    }

    @inlinable
    func next() async -> Outcome {
        let handoff = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Handoff<Outcome>, Never>) in
                let (immediate, request) = state.withLock {
                    state -> (Outcome?, (any Subscription & AnyObject)?) in
                    if let value = state.buffered {
                        state.buffered = nil
                        return (.success(value), nil)
                    }
                    if let end = state.end {
                        if case .failure = end { state.end = .success(nil) }  // thrown once, then `nil`
                        return (end, nil)
                    }
                    state.waiting = continuation
                    state.pendingRequest = true
                    return (nil, state.subscription)
                }
                if let immediate {
                    continuation.resume(returning: Handoff(value: immediate))
                } else {
                    request?.request(.max(1))
                }
            }
        } onCancel: {
            finish(with: .success(nil), cancelling: true)
        }
        return handoff.value
    }
}
