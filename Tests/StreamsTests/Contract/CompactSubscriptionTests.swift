import Dispatch
import Streams
import StreamsTesting
import Testing

/// The contracts behind the compact subscription layout (issue 8's memory figure): the one-word
/// `AnyCancellable`, the sink's handlers stored in the sink, the subscriber stored in its subject conduit,
/// and subject list entries that carry no identity of their own.
@Suite struct CompactSubscriptionTests {
    // MARK: AnyCancellable

    @Test func theCancellableOfASinkCancelsItsUpstreamOnceWhenCancelledTwiceAndDropped() {
        let probe = SimpleProbe<Int, Never>()
        var cancellable: AnyCancellable? = probe.sink { _ in }
        cancellable?.cancel()
        cancellable?.cancel()
        cancellable = nil
        #expect(probe.cancelCount == 1)
    }

    @Test func droppingTheCancellableOfASinkCancelsItsUpstream() {
        let probe = SimpleProbe<Int, Never>()
        do { _ = probe.sink { _ in } }
        #expect(probe.cancelCount == 1)
    }

    @Test func aCancellableObjectIsReleasedByCancelWhileTheAnyCancellableLives() {
        weak var weakSpy: SpySubscription?
        let cancellable: AnyCancellable
        do {
            let spy = SpySubscription()
            weakSpy = spy
            cancellable = AnyCancellable(spy)
        }
        #expect(weakSpy != nil)
        cancellable.cancel()
        #expect(weakSpy == nil)
        cancellable.cancel()
    }

    @Test func aCancellableValueIsCancelledOnceAndReleased() {
        struct Cancel: Cancellable {
            let token: Token
            let count: Locked<Int>
            func cancel() { count.withLock { $0 += 1 } }
        }
        let count = Locked(0)
        weak var weakToken: Token?
        var cancellable: AnyCancellable?
        do {
            let token = Token()
            weakToken = token
            cancellable = AnyCancellable(Cancel(token: token, count: count))
        }
        cancellable?.cancel()
        #expect(weakToken == nil)
        cancellable = nil
        #expect(count.withLock { $0 } == 1)
    }

    @Test func aClosureIsReleasedByCancelWhileTheAnyCancellableLives() {
        weak var weakToken: Token?
        let cancellable: AnyCancellable
        do {
            let token = Token()
            weakToken = token
            cancellable = AnyCancellable { _ = token }
        }
        #expect(weakToken != nil)
        cancellable.cancel()
        #expect(weakToken == nil)
    }

    @Test func cancellablesOfEveryKindAreEqualOnlyToThemselves() {
        let subject = PassthroughSubject<Int, Never>()
        let fromSink = subject.sink { _ in }
        let fromClosure = AnyCancellable {}
        let fromObject = AnyCancellable(SpySubscription())
        let set: Set<AnyCancellable> = [fromSink, fromClosure, fromObject, fromSink]
        #expect(set.count == 3)
        #expect(fromSink == fromSink)
        #expect(fromSink != fromClosure)
    }

    @Test(arguments: 0..<3)
    func racingCancelsOfOneCancellableCancelItsUpstreamOnce(kind: Int) {
        for _ in 0..<200 {
            let count = Locked(0)
            let cancellable: AnyCancellable
            switch kind {
            case 0:
                let subscription = CountingSubscription(count: count)
                let publisher = FixedSubscriptionPublisher(subscription: subscription)
                cancellable = publisher.sink { _ in }
            case 1: cancellable = AnyCancellable { count.withLock { $0 += 1 } }
            default: cancellable = AnyCancellable(CountingSubscription(count: count))
            }
            DispatchQueue.concurrentPerform(iterations: 4) { _ in cancellable.cancel() }
            #expect(count.withLock { $0 } == 1)
        }
    }

    // MARK: Sink

    @Test func aSinkFreesItsClosuresOnCompletionWhileItsCancellableLives() {
        let probe = SimpleProbe<Int, Never>()
        weak var weakToken: Token?
        var completions = 0
        let cancellable: AnyCancellable
        do {
            let token = Token()
            weakToken = token
            cancellable = probe.sink(
                receiveCompletion: { _ in
                    completions += 1
                    _ = token
                },
                receiveValue: { _ in _ = token })
        }
        probe.send(1)
        #expect(weakToken != nil)
        probe.send(completion: .finished)
        #expect(weakToken == nil)
        probe.send(completion: .finished)  // a second completion finds no handlers
        probe.send(2)
        #expect(completions == 1)
        _ = cancellable
    }

    @Test func aSinkValueHandlerMayDropTheLastReferenceToItsOwnCancellable() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakToken: Token?
        var cancellable: AnyCancellable?
        var seen: [Int] = []
        do {
            let token = Token()
            weakToken = token
            cancellable = subject.sink { value in
                seen.append(value)
                cancellable = nil  // cancels and releases the sink's last outside reference
                _ = token  // the closure is still alive while it runs
            }
        }
        subject.send(1)
        subject.send(2)
        #expect(seen == [1])
        #expect(weakToken == nil)
        #expect(cancellable == nil)
    }

    @Test func aCompletionSentFromInsideTheValueHandlerKeepsTheHandlersAliveUntilItReturns() {
        // SimpleProbe delivers re-entrantly (it does not serialise as Streams' subjects do), as a hand-written
        // publisher may.
        let probe = SimpleProbe<Int, Never>()
        weak var weakToken: Token?
        var log: [String] = []
        var aliveAfterCompletion = false
        let cancellable: AnyCancellable
        do {
            let token = Token()
            weakToken = token
            cancellable = probe.sink(
                receiveCompletion: { _ in
                    _ = token
                    log.append("completion")
                },
                receiveValue: { value in
                    log.append("value \(value)")
                    probe.send(completion: .finished)
                    aliveAfterCompletion = weakToken != nil  // the running handler's captures
                    _ = token
                })
        }
        probe.send(1)
        #expect(log == ["value 1", "completion"])
        #expect(aliveAfterCompletion)
        #expect(weakToken == nil)  // released once the value handler returned
        probe.send(2)
        #expect(log == ["value 1", "completion"])
        _ = cancellable
    }

    @Test func aCompletionFromInsideANestedDeliveryReleasesTheHandlersOnlyAfterTheOuterOne() {
        let probe = SimpleProbe<Int, Never>()
        weak var weakToken: Token?
        var log: [String] = []
        var aliveAtTheEnd = false
        let cancellable: AnyCancellable
        do {
            let token = Token()
            weakToken = token
            cancellable = probe.sink(
                receiveCompletion: { _ in log.append("completion") },
                receiveValue: { value in
                    log.append("value \(value)")
                    if value == 1 {
                        probe.send(2)  // nested delivery
                        probe.send(completion: .finished)
                        aliveAtTheEnd = weakToken != nil
                    }
                    _ = token
                })
        }
        probe.send(1)
        #expect(log == ["value 1", "value 2", "completion"])
        #expect(aliveAtTheEnd)
        #expect(weakToken == nil)
        _ = cancellable
    }

    @Test func aFailureSentFromInsideTheValueHandlerThroughCombineLatestKeepsTheHandlerAlive() {
        let left = PassthroughSubject<Int, TestError>()
        let right = PassthroughSubject<Int, TestError>()
        weak var weakToken: Token?
        var completions: [Subscribers.Completion<TestError>] = []
        var aliveAfterFailure = false
        let cancellable: AnyCancellable
        do {
            let token = Token()
            weakToken = token
            cancellable = left.combineLatest(right).sink(
                receiveCompletion: { completions.append($0) },
                receiveValue: { _ in
                    right.send(completion: .failure(.boom))  // reaches this sink while this handler runs
                    aliveAfterFailure = weakToken != nil
                    _ = token
                })
        }
        right.send(1)
        left.send(1)
        #expect(completions == [.failure(.boom)])
        #expect(aliveAfterFailure)
        #expect(weakToken == nil)
        _ = cancellable
    }

    // MARK: Subject conduits

    @Test func aSubjectFreesASubscriberThatKeepsItsSubscriptionWhenItCancels() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakSubscriber: KeepingSubscriber?
        do {
            let subscriber = KeepingSubscriber()
            weakSubscriber = subscriber
            subject.subscribe(subscriber)
            subject.send(1)
            #expect(subscriber.values == [1])
            subscriber.subscription?.cancel()
        }
        // The subscriber still holds its subscription, and the subscription held it: the conduit must have
        // released it on cancel, or this cycle would keep both alive.
        #expect(weakSubscriber == nil)
    }

    @Test func aSubjectFreesASubscriberThatKeepsItsSubscriptionWhenItCompletes() {
        let subject = CurrentValueSubject<Int, Never>(0)
        weak var weakSubscriber: KeepingSubscriber?
        do {
            let subscriber = KeepingSubscriber()
            weakSubscriber = subscriber
            subject.subscribe(subscriber)
            subject.send(completion: .finished)
            #expect(subscriber.values == [0])
            #expect(subscriber.completions == 1)
        }
        #expect(weakSubscriber == nil)
    }

    @Test func aSubscriberThatCancelsInsideReceiveSubscriptionIsFreedAndOthersAreServed() {
        let subject = PassthroughSubject<Int, Never>()
        let first = subject.record()
        weak var weakSubscriber: KeepingSubscriber?
        do {
            let subscriber = KeepingSubscriber(cancelsAtOnce: true)
            weakSubscriber = subscriber
            subject.subscribe(subscriber)
            #expect(subscriber.values.isEmpty)
        }
        subject.send(1)
        #expect(weakSubscriber == nil)
        #expect(first.values == [1])
    }

    @Test(arguments: [[0], [4], [2], [0, 4], [1, 3], [4, 3, 2, 1, 0], [2, 0, 4]])
    func cancellingAnySubscribersLeavesExactlyTheOthersServed(cancelled: [Int]) {
        let subject = PassthroughSubject<Int, Never>()
        let recorders = (0..<5).map { _ in subject.record() }
        subject.send(1)
        for index in cancelled { recorders[index].cancel() }
        subject.send(2)
        for (index, recorder) in recorders.enumerated() {
            #expect(recorder.values == (cancelled.contains(index) ? [1] : [1, 2]), "subscriber \(index)")
        }
    }

    @Test func aCurrentValueSubscriberThatAsksLaterGetsTheKeptValueAndOnlyIt() {
        let subject = CurrentValueSubject<Int, Never>(7)
        let recorders = (0..<3).map { _ in subject.record(demand: .none) }
        recorders[1].request(.max(1))
        #expect(recorders[0].values.isEmpty)
        #expect(recorders[1].values == [7])
        #expect(recorders[2].values.isEmpty)
        recorders[2].request(.max(1))
        #expect(recorders[2].values == [7])
        #expect(recorders[0].values.isEmpty)
    }
}

/// A subscription that counts cancels.
private final class CountingSubscription: Subscription, @unchecked Sendable {
    let count: Locked<Int>
    init(count: Locked<Int>) { self.count = count }
    func request(_ demand: Subscribers.Demand) {}
    func cancel() { count.withLock { $0 += 1 } }
}

/// A publisher that hands every subscriber the same subscription.
private struct FixedSubscriptionPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never
    let subscription: CountingSubscription
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(subscription: subscription)
    }
}

/// A subscriber that keeps its subscription for good (never lets go of it on cancel or completion), as
/// hand-written subscribers often do.
private final class KeepingSubscriber: Subscriber {
    typealias Input = Int
    typealias Failure = Never
    let cancelsAtOnce: Bool
    var subscription: (any Subscription)?
    var values: [Int] = []
    var completions = 0
    init(cancelsAtOnce: Bool = false) { self.cancelsAtOnce = cancelsAtOnce }
    func receive(subscription: any Subscription) {
        self.subscription = subscription
        if cancelsAtOnce { subscription.cancel() } else { subscription.request(.unlimited) }
    }
    func receive(_ input: Int) -> Subscribers.Demand {
        values.append(input)
        return .none
    }
    func receive(completion: Subscribers.Completion<Never>) { completions += 1 }
}
