import Streams
import Testing

/// What a ``CountingSequence`` saw, for tests of `AsyncSequencePublisher`'s back-pressure.
enum PullEvent: Sendable, Equatable {
    /// `next()` was called for the `n`th time (counting from 1), over all the sequence's iterators.
    case pull(Int)
    /// A `next()` that was waiting saw its task cancelled.
    case sawCancellation
    /// An iterator was released (its iterating task ended).
    case iteratorReleased
}

/// Records every `next()` and every iterator of a ``CountingSequence``.
final class PullLog: Sendable {
    private let state = Locked((pulls: 0, iterators: 0))
    let events = AwaitableEvents<PullEvent>()

    var pulls: Int { state.withLock { $0.pulls } }
    var iterators: Int { state.withLock { $0.iterators } }

    func recordPull() -> Int {
        let pull = state.withLock { state -> Int in
            state.pulls += 1
            return state.pulls
        }
        events.send(.pull(pull))
        return pull
    }

    func recordIterator() -> IteratorLifetime {
        state.withLock { $0.iterators += 1 }
        return IteratorLifetime(log: self)
    }

    /// Awaits the release of an iterator, skipping the pulls before it; `false` if it does not come in time.
    func iteratorReleased() async -> Bool {
        await events.collect { $0 == .iteratorReleased } != nil
    }
}

/// Reports the release of the iterator that holds it.
final class IteratorLifetime: Sendable {
    let log: PullLog
    init(log: PullLog) { self.log = log }
    deinit { log.events.send(.iteratorReleased) }
}

/// A hand-written `AsyncSequence` that cannot fail: each iterator's `next()` returns 1, 2, 3, … (the number of
/// the pull) and records each call in the log. `limit` ends it (`nil` after that many elements; `nil` means infinite); the pull numbered
/// `waitAt` suspends until its task is cancelled, then returns `-1`.
struct CountingSequence: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = Never

    let log: PullLog
    var limit: Int?
    var waitAt: Int?

    init(log: PullLog, limit: Int? = nil, waitAt: Int? = nil) {
        self.log = log
        self.limit = limit
        self.waitAt = waitAt
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(sequence: self, lifetime: log.recordIterator())
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let sequence: CountingSequence
        let lifetime: IteratorLifetime
        var pull = 0

        mutating func next() async -> Int? {
            pull += 1
            _ = sequence.log.recordPull()
            if pull == sequence.waitAt {
                await suspendUntilCancelled()
                sequence.log.events.send(.sawCancellation)
                return -1
            }
            if let limit = sequence.limit, pull > limit { return nil }
            return pull
        }
    }
}

/// A sequence with typed throws: 1, then `TestError.boom`.
struct TypedFailingSequence: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = TestError

    struct AsyncIterator: AsyncIteratorProtocol {
        var sent = false
        mutating func next() async throws(TestError) -> Int? {
            if sent { throw .boom }
            sent = true
            return 1
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
}

/// A hand-written subscriber: asks for `initial` in `receive(subscription:)` and for `perValue(value)` after
/// each value; records what it gets and reports it as events. It also records a value that arrives while
/// `receive(subscription:)` is still running (a contract violation).
final class PullingSubscriber<Input: Sendable, Failure: Error>: Subscriber, Sendable {
    enum Event: Sendable {
        case value(Input)
        case completion(Subscribers.Completion<Failure>)
    }

    private let initial: Subscribers.Demand
    private let perValue: @Sendable (Input) -> Subscribers.Demand
    private let cancelOn: @Sendable (Input) -> Bool
    private let state = Locked(
        (
            subscription: (any Subscription)?.none, described: "", values: [Input](), completions: 0,
            subscribing: false, overlaps: 0
        ))
    let events = AwaitableEvents<Event>()

    init(
        initial: Subscribers.Demand,
        perValue: @escaping @Sendable (Input) -> Subscribers.Demand = { _ in .none },
        cancelOn: @escaping @Sendable (Input) -> Bool = { _ in false }
    ) {
        self.initial = initial
        self.perValue = perValue
        self.cancelOn = cancelOn
    }

    var values: [Input] { state.withLock { $0.values } }
    var subscriptionDescription: String { state.withLock { $0.described } }
    var subscription: (any Subscription)? { state.withLock { $0.subscription } }
    var completionCount: Int { state.withLock { $0.completions } }
    /// Values that arrived while `receive(subscription:)` was running.
    var overlaps: Int { state.withLock { $0.overlaps } }

    func request(_ demand: Subscribers.Demand) { state.withLock { $0.subscription }?.request(demand) }
    func cancel() { state.withLock { $0.subscription }?.cancel() }

    func receive(subscription: any Subscription) {
        state.withLock {
            $0.subscription = subscription
            $0.described = String(describing: subscription)
            $0.subscribing = true
        }
        subscription.request(initial)
        state.withLock { $0.subscribing = false }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        state.withLock {
            $0.values.append(input)
            if $0.subscribing { $0.overlaps += 1 }
        }
        if cancelOn(input) { cancel() }
        events.send(.value(input))
        return perValue(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        state.withLock { $0.completions += 1 }
        events.send(.completion(completion))
    }
}

extension PullingSubscriber.Event {
    var value: Input? {
        if case .value(let value) = self { return value }
        return nil
    }
    var isCompletion: Bool {
        if case .completion = self { return true }
        return false
    }
}

@Suite struct AsyncSequencePublisherTests {
    @Test func demandOfTwoPullsExactlyTwice() async {
        let log = PullLog()
        let subscriber = PullingSubscriber<Int, Never>(initial: .max(2))
        AsyncSequencePublisher(CountingSequence(log: log)).subscribe(subscriber)
        #expect(await subscriber.events.next()?.value == 1)
        #expect(await subscriber.events.next()?.value == 2)
        subscriber.cancel()  // the task was waiting for demand: it ends without another pull
        #expect(await log.iteratorReleased())
        #expect(log.pulls == 2)
        #expect(log.iterators == 1)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completionCount == 0)
    }

    @Test func moreDemandPullsMore() async {
        let log = PullLog()
        let subscriber = PullingSubscriber<Int, Never>(initial: .max(2))
        AsyncSequencePublisher(CountingSequence(log: log)).subscribe(subscriber)
        #expect(await subscriber.events.collect { $0.value == 2 }?.count == 2)
        #expect(log.pulls == 2)
        subscriber.request(.max(3))
        #expect(await subscriber.events.collect { $0.value == 5 }?.count == 3)
        subscriber.cancel()
        #expect(await log.iteratorReleased())
        #expect(log.pulls == 5)
        #expect(subscriber.values == [1, 2, 3, 4, 5])
    }

    @Test func demandReturnedFromReceiveIsPulled() async {
        let log = PullLog()
        let subscriber = PullingSubscriber<Int, Never>(initial: .max(1), perValue: { $0 < 4 ? .max(1) : .none })
        AsyncSequencePublisher(CountingSequence(log: log)).subscribe(subscriber)
        #expect(await subscriber.events.collect { $0.value == 4 }?.count == 4)
        subscriber.cancel()
        #expect(await log.iteratorReleased())
        #expect(log.pulls == 4)
    }

    @Test func anInfiniteSequenceWithNoDemandIsNeverIterated() async {
        let log = PullLog()
        let subscriber = PullingSubscriber<Int, Never>(initial: .none)
        AsyncSequencePublisher(CountingSequence(log: log)).subscribe(subscriber)
        subscriber.request(.none)  // ignored
        #expect(log.iterators == 0)
        #expect(log.pulls == 0)
        subscriber.cancel()
        subscriber.request(.max(1))  // after cancel: ignored
        #expect(log.iterators == 0)
        #expect(log.pulls == 0)
        #expect(subscriber.values == [])
    }

    @Test func iterationStartsOnTheFirstDemand() async {
        let log = PullLog()
        let subscriber = PullingSubscriber<Int, Never>(initial: .none)
        AsyncSequencePublisher(CountingSequence(log: log)).subscribe(subscriber)
        #expect(log.iterators == 0)
        subscriber.request(.max(1))
        #expect(await subscriber.events.next()?.value == 1)
        #expect(log.pulls == 1)
        subscriber.cancel()
        #expect(await log.iteratorReleased())
        #expect(log.pulls == 1)
    }

    @Test func unlimitedDemandPullsToTheEndAndFinishes() async {
        let log = PullLog()
        let subscriber = PullingSubscriber<Int, Never>(initial: .unlimited)
        CountingSequence(log: log, limit: 5).streamsPublisher.subscribe(subscriber)
        let events = await subscriber.events.collect { $0.isCompletion }
        #expect(events?.compactMap(\.value) == [1, 2, 3, 4, 5])
        #expect(await log.iteratorReleased())
        #expect(log.pulls == 6)  // five elements and the `nil`
        #expect(subscriber.completionCount == 1)
        #expect(subscriber.overlaps == 0)
    }

    @Test func cancellingWhileNextWaitsCancelsTheIteratingTask() async {
        let log = PullLog()
        let subscriber = PullingSubscriber<Int, Never>(initial: .unlimited)
        AsyncSequencePublisher(CountingSequence(log: log, waitAt: 1)).subscribe(subscriber)
        #expect(await log.events.next() == .pull(1))  // `next()` is now waiting
        subscriber.cancel()
        #expect(await log.events.next() == .sawCancellation)
        #expect(await log.events.next() == .iteratorReleased)
        #expect(log.pulls == 1)
        #expect(subscriber.values == [])  // the -1 returned after the cancel was dropped
        #expect(subscriber.completionCount == 0)
    }

    @Test func cancellingInsideReceiveStopsBeforeTheNextPull() async {
        let log = PullLog()
        let subscriber = PullingSubscriber<Int, Never>(initial: .unlimited, cancelOn: { $0 == 2 })
        AsyncSequencePublisher(CountingSequence(log: log)).subscribe(subscriber)
        #expect(await log.iteratorReleased())
        #expect(log.pulls == 2)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completionCount == 0)
    }

    @Test func aThrowingSequenceFailsWithTheThrownError() async {
        let stream = AsyncThrowingStream<Int, any Error> { continuation in
            continuation.yield(1)
            continuation.yield(2)
            continuation.finish(throwing: TestError.boom)
        }
        let publisher: some Publisher<Int, any Error> = AsyncSequencePublisher(stream)
        let subscriber = PullingSubscriber<Int, any Error>(initial: .unlimited)
        publisher.subscribe(subscriber)
        let events = await subscriber.events.collect { $0.isCompletion }
        #expect(events?.compactMap(\.value) == [1, 2])
        guard case .completion(.failure(let error)) = events?.last else {
            Issue.record("expected a failure, got \(String(describing: events?.last))")
            return
        }
        #expect(error as? TestError == .boom)
    }

    @Test func aTypedThrowingSequenceKeepsItsErrorType() async {
        let publisher: some Publisher<Int, TestError> = TypedFailingSequence().streamsPublisher
        let subscriber = PullingSubscriber<Int, TestError>(initial: .unlimited)
        publisher.subscribe(subscriber)
        let events = await subscriber.events.collect { $0.isCompletion }
        #expect(events?.compactMap(\.value) == [1])
        guard case .completion(let completion) = events?.last else {
            Issue.record("expected a completion")
            return
        }
        #expect(completion == .failure(.boom))
    }

    @Test func anAsyncStreamCannotFailAndIsTerminatedByCancel() async {
        let terminated = AwaitableEvents<Bool>()
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        continuation.onTermination = { termination in
            if case .cancelled = termination { terminated.send(true) }
        }
        let publisher: some Publisher<Int, Never> = stream.streamsPublisher
        let values = AwaitableEvents<Int>()
        let cancellable = publisher.sink { values.send($0) }
        continuation.yield(1)
        #expect(await values.next() == 1)
        cancellable.cancel()  // the task waiting in `next()` is cancelled, which terminates the stream
        #expect(await terminated.next() == true)
    }

    @Test func eachSubscriptionIteratesAnew() async {
        let log = PullLog()
        let publisher = AsyncSequencePublisher(CountingSequence(log: log, limit: 2))
        let first = PullingSubscriber<Int, Never>(initial: .unlimited)
        let second = PullingSubscriber<Int, Never>(initial: .unlimited)
        publisher.subscribe(first)
        publisher.subscribe(second)
        #expect(await first.events.collect { $0.isCompletion } != nil)
        #expect(await second.events.collect { $0.isCompletion } != nil)
        #expect(log.iterators == 2)
        #expect(first.values.count + second.values.count == 4)
    }

    @Test func theSubscriptionDescribesItself() {
        let subscriber = PullingSubscriber<Int, Never>(initial: .none)
        AsyncSequencePublisher(CountingSequence(log: PullLog())).subscribe(subscriber)
        #expect(subscriber.subscriptionDescription == "AsyncSequence")
        var dumped = ""
        dump(subscriber.subscription, to: &dumped)  // reflecting it must not trap
        #expect(dumped.contains("AsyncSequenceSubscription"))
        subscriber.cancel()
    }
}
