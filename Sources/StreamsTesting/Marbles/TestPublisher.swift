import Streams

/// A publisher that plays marble diagrams on a ``TestScheduler`` and logs every subscription.
///
/// Make one with ``TestScheduler/hot(_:values:error:)`` or ``TestScheduler/cold(_:values:error:)``:
/// - **hot**: the diagram plays once, at absolute times from its creation (the `^` column is "now"),
///   whoever listens. A subscriber gets the events after it subscribes, and — like a
///   `PassthroughSubject` — misses a value that arrives while it has no demand. Events left of the `^`
///   already happened: values there are lost, a completion there completes the publisher from the start.
/// - **cold**: the diagram plays from each subscription. With several timelines, subscription *n* plays
///   timeline *n* (the last one repeats), e.g. a first attempt that fails and a retry that succeeds. A value
///   due while the subscriber has no demand waits for demand (back-pressure), then is delivered at once.
///
/// ``subscriptions`` logs when each subscriber subscribed and cancelled (``SubscriptionPeriod``), timed from
/// the publisher's creation; assert on it with `expectSubscriptions`.
///
/// - Threading: events are delivered on the thread that advances the scheduler; subscribing and cancelling
///   are safe from any thread. The subscription log and the hot listeners are guarded by a lock; the rest is
///   immutable.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let source = try scheduler.cold("--#", "--a|", error: TestError())
/// expectMarbles(source.retry(1), "----a|", on: scheduler)
/// expectSubscriptions(source, "^", "--^")   // two subscriptions; a failed one is not cancelled
/// ```
public final class TestPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    /// Whether a diagram plays once for everyone or from each subscription.
    public enum Kind: Sendable {
        /// Plays once, at absolute times.
        case hot
        /// Plays from each subscription.
        case cold
    }

    /// Hot or cold.
    public let kind: Kind
    /// The scheduler the diagrams play on.
    public let scheduler: TestScheduler
    /// The instant of the zero column (the publisher's creation).
    public let origin: SchedulerInstant
    private let timelines: [MarbleDiagram<Output, Failure>]

    private struct State {
        var periods: [SubscriptionPeriod] = []
        /// Hot: the subscriptions listening now.
        var listeners: [ObjectIdentifier: MarbleSubscriptionBase<Output, Failure>] = [:]
        /// Hot: the completion, once played.
        var completion: RecordedEvent<Output, Failure>?
    }

    private let state = Locked(State())

    init(kind: Kind, timelines: [MarbleDiagram<Output, Failure>], scheduler: TestScheduler) {
        self.kind = kind
        self.timelines = timelines
        self.scheduler = scheduler
        origin = scheduler.now
        guard kind == .hot, let diagram = timelines.first else { return }
        for (index, event) in diagram.events.enumerated() {
            if event.time < .zero {
                if case .value = event { continue }  // nobody heard it
                state.withLock { $0.completion = event }
            } else {
                _ = scheduler.schedule(after: origin + event.time) { [self] in play(self.timelines[0].events[index]) }
            }
        }
    }

    /// Every subscription so far, in subscription order: when it started and when it was cancelled.
    public var subscriptions: [SubscriptionPeriod] { state.withLock { $0.periods } }

    /// The diagram(s) this publisher plays, as written.
    public var diagrams: [String] { timelines.map(\.text) }

    /// Subscribes `subscriber`: logs the subscription; cold publishers start their timeline now.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let now = scheduler.now.offset - origin.offset
        let subscription = MarbleSubscription(downstream: subscriber, publisher: self, buffers: kind == .cold)
        let (index, completion) = state.withLock { state in
            state.periods.append(SubscriptionPeriod(subscribed: now))
            let index = state.periods.count - 1
            // Set before the subscription is published to `listeners`, where `play()` reads it under this lock.
            subscription.periodIndex = index
            if kind == .hot, state.completion == nil {
                state.listeners[ObjectIdentifier(subscription)] = subscription
            }
            return (index, state.completion)
        }
        subscriber.receive(subscription: subscription)
        switch kind {
        case .hot:
            if let completion { subscription.offer(completion) }
        case .cold:
            guard !timelines.isEmpty else { return }
            let timeline = Swift.min(index, timelines.count - 1)
            let start = scheduler.now
            let listener: MarbleSubscriptionBase<Output, Failure> = subscription
            for (eventIndex, event) in timelines[timeline].events.enumerated() {
                let pending = scheduler.schedule(after: start + event.time) { [self, weak listener] in
                    listener?.offer(timelines[timeline].events[eventIndex])
                }
                subscription.keep(pending)
            }
        }
    }

    private func play(_ event: RecordedEvent<Output, Failure>) {
        let listeners = state.withLock { state -> [MarbleSubscriptionBase<Output, Failure>] in
            if case .value = event {
            } else {
                state.completion = event
            }
            return Array(state.listeners.values).sorted { $0.periodIndex < $1.periodIndex }
        }
        for listener in listeners { listener.offer(event) }
    }

    /// Records that the subscription at `index` was cancelled now, and stops sending it hot events.
    func subscriptionCancelled(_ subscription: MarbleSubscriptionBase<Output, Failure>) {
        let now = scheduler.now.offset - origin.offset
        state.withLock { state in
            state.listeners[ObjectIdentifier(subscription)] = nil
            let index = subscription.periodIndex
            guard state.periods.indices.contains(index), state.periods[index].cancelled == nil else { return }
            state.periods[index].cancelled = now
        }
    }

    /// Stops sending hot events to a subscription that completed.
    func subscriptionCompleted(_ subscription: MarbleSubscriptionBase<Output, Failure>) {
        state.withLock { _ = $0.listeners.removeValue(forKey: ObjectIdentifier(subscription)) }
    }
}

/// The type-erased face of one subscription to a ``TestPublisher``. The subclass guards its state with its lock.
/// `periodIndex` is written once, by `TestPublisher.receive(subscriber:)` under the publisher's `state` lock
/// before the subscription is published to its listeners, and read under that lock.
class MarbleSubscriptionBase<Output, Failure: Error>: @unchecked Sendable {
    /// The index of this subscription's period in the publisher's log.
    var periodIndex = 0
    func offer(_ event: RecordedEvent<Output, Failure>) {}
}

/// One subscription to a ``TestPublisher``: tracks demand, queues what cannot be delivered yet (cold) or
/// drops it (hot), and delivers serially. All its state is guarded by `lock`; `buffers` is immutable.
private final class MarbleSubscription<Downstream: Subscriber>: MarbleSubscriptionBase<
    Downstream.Input, Downstream.Failure
>, Subscription, CustomStringConvertible, @unchecked Sendable
{
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    private struct Pending {
        var event: RecordedEvent<Output, Failure>
        /// Hot values take their demand when offered; cold ones when delivered.
        var demandTaken: Bool
    }

    private struct State {
        var downstream: Downstream?
        var publisher: TestPublisher<Output, Failure>?
        var demand = Subscribers.Demand.none
        var queue: [Pending] = []
        var isDelivering = false
        var scheduled: [any Cancellable] = []
    }

    private let buffers: Bool
    private let lock = Lock()
    private var state: State

    init(downstream: Downstream, publisher: TestPublisher<Output, Failure>, buffers: Bool) {
        self.buffers = buffers
        state = State(downstream: downstream, publisher: publisher)
    }

    var description: String { buffers ? "ColdTestPublisher" : "HotTestPublisher" }

    func keep(_ cancellable: any Cancellable) {
        lock.lock()
        guard state.downstream != nil else {
            lock.unlock()
            cancellable.cancel()
            return
        }
        state.scheduled.append(cancellable)
        lock.unlock()
    }

    override func offer(_ event: RecordedEvent<Output, Failure>) {
        lock.lock()
        guard state.downstream != nil else { return lock.unlock() }
        if case .value = event, !buffers {
            guard state.demand > .none else { return lock.unlock() }  // a hot value nobody asked for is lost
            state.demand -= 1
            state.queue.append(Pending(event: event, demandTaken: true))
        } else {
            state.queue.append(Pending(event: event, demandTaken: false))
        }
        lock.unlock()
        drain()
    }

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        guard state.downstream != nil else { return lock.unlock() }
        state.demand += demand
        lock.unlock()
        drain()
    }

    func cancel() {
        lock.lock()
        let publisher = state.publisher
        let scheduled = state.scheduled
        let downstream = state.downstream
        state = State()
        lock.unlock()
        guard downstream != nil else { return }
        for action in scheduled { action.cancel() }
        publisher?.subscriptionCancelled(self)
        _ = downstream
    }

    /// Delivers queued events while demand allows; one delivery at a time (re-entrant calls return).
    private func drain() {
        lock.lock()
        guard !state.isDelivering else { return lock.unlock() }
        state.isDelivering = true
        while let downstream = state.downstream, let next = state.queue.first {
            switch next.event {
            case .value(let value, _):
                if !next.demandTaken {
                    guard state.demand > .none else { break }
                    state.demand -= 1
                }
                state.queue.removeFirst()
                lock.unlock()
                let more = downstream.receive(value)
                lock.lock()
                if state.downstream != nil { state.demand += more }
                continue
            case .finished, .failure:
                let publisher = state.publisher
                let scheduled = state.scheduled
                state = State()
                lock.unlock()
                for action in scheduled { action.cancel() }
                publisher?.subscriptionCompleted(self)
                if case .failure(let error, _) = next.event {
                    downstream.receive(completion: .failure(error))
                } else {
                    downstream.receive(completion: .finished)
                }
                return
            }
            break
        }
        state.isDelivering = false
        lock.unlock()
    }
}
