import Streams

/// A subscriber that records every event with the virtual time it arrived, for assertions.
///
/// By default it requests `.unlimited` on subscription. Pass a smaller `demand` (and then call
/// ``request(_:)``) to test back-pressure; ``cancel()`` tests cancellation.
/// - Threading: safe to read from any thread while events arrive: what changes is guarded by a lock, the rest is
///   immutable.
///
/// ```swift
/// let recorder = subject.map { $0 * 2 }.record(on: scheduler)
/// subject.send(1)
/// #expect(recorder.values == [2])
/// ```
public final class TestRecorder<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    private struct State {
        var events: [RecordedEvent<Input, Failure>] = []
        var subscription: (any Subscription)?
        var subscriptionCount = 0
        var isCancelled = false
    }

    let clock: (any Scheduler)?
    private let initialDemand: Subscribers.Demand
    private let demandPerValue: Subscribers.Demand
    private let state = Locked(State())

    /// A recorder that stamps events with `scheduler.now` (or `.zero` without a scheduler), requests
    /// `demand` when subscribed and `demandPerValue` more after each value.
    public init(
        scheduler: (any Scheduler)? = nil, demand: Subscribers.Demand = .unlimited,
        demandPerValue: Subscribers.Demand = .none
    ) {
        clock = scheduler
        initialDemand = demand
        self.demandPerValue = demandPerValue
    }

    /// Every event so far, in order.
    public var events: [RecordedEvent<Input, Failure>] { state.withLock { $0.events } }

    /// The values so far, in order.
    public var values: [Input] { events.compactMap(\.value) }

    /// The completion, if one arrived.
    public var completion: Subscribers.Completion<Failure>? {
        for event in events {
            switch event {
            case .finished: return .finished
            case .failure(let error, _): return .failure(error)
            case .value: continue
            }
        }
        return nil
    }

    /// Whether `.finished` arrived.
    public var isFinished: Bool {
        if case .finished? = completion { return true }
        return false
    }

    /// The failure, if one arrived.
    public var failure: Failure? {
        if case .failure(let error)? = completion { return error }
        return nil
    }

    /// How many times `receive(subscription:)` was called (the contract says exactly once).
    public var subscriptionCount: Int { state.withLock { $0.subscriptionCount } }

    /// The subscription received, if any.
    public var subscription: (any Subscription)? { state.withLock { $0.subscription } }

    private var time: Duration { clock?.now.offset ?? .zero }

    /// Records the subscription and requests the initial demand; a second subscription is counted
    /// (see ``subscriptionCount``) and cancelled.
    public func receive(subscription: any Subscription) {
        let accepted = state.withLock { state -> Bool in
            state.subscriptionCount += 1
            guard state.subscription == nil, !state.isCancelled, state.subscriptionCount == 1 else { return false }
            state.subscription = subscription
            return true
        }
        if !accepted {
            // Cancelled already, or a second subscription (a contract violation the count records).
            subscription.cancel()
        } else if initialDemand > .none {
            subscription.request(initialDemand)
        }
    }

    /// Records a value; returns `demandPerValue`.
    public func receive(_ input: Input) -> Subscribers.Demand {
        let now = time
        state.withLock { $0.events.append(.value(input, at: now)) }
        return demandPerValue
    }

    /// Records the completion.
    public func receive(completion: Subscribers.Completion<Failure>) {
        let now = time
        state.withLock { state in
            switch completion {
            case .finished: state.events.append(.finished(at: now))
            case .failure(let error): state.events.append(.failure(error, at: now))
            }
        }
    }

    /// Requests more values through the stored subscription.
    public func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.subscription }?.request(demand)
    }

    /// Cancels the subscription (and any that arrives later).
    public func cancel() {
        let subscription = state.withLock { state -> (any Subscription)? in
            state.isCancelled = true
            defer { state.subscription = nil }
            return state.subscription
        }
        subscription?.cancel()
    }
}

extension Publisher {
    /// Subscribes a ``TestRecorder`` that stamps events with `scheduler`'s virtual time.
    ///
    /// ```swift
    /// let recorder = publisher.record(on: scheduler, demand: .max(2))
    /// ```
    public func record(
        on scheduler: (any Scheduler)? = nil, demand: Subscribers.Demand = .unlimited,
        demandPerValue: Subscribers.Demand = .none
    ) -> TestRecorder<Output, Failure> {
        let recorder = TestRecorder<Output, Failure>(
            scheduler: scheduler, demand: demand, demandPerValue: demandPerValue)
        subscribe(recorder)
        return recorder
    }
}
