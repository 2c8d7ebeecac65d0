import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// `multicast`, `makeConnectable`, `autoconnect`: nothing flows before `connect()`, then every subscriber
/// sees the same values; autoconnect connects for the first subscriber and disconnects after the last.
@Suite struct ConnectableTests {
    @Test func nothingFlowsUntilConnectThenEverySubscriberSeesTheSameValues() {
        let source = PassthroughSubject<Int, Never>()
        let upstream = source.handleEvents()
        let connectable = upstream.makeConnectable()
        let a = connectable.record()
        let b = connectable.record()
        source.send(0)  // before connect: nobody subscribed upstream
        let connection = connectable.connect()
        source.send(1)
        source.send(2)
        #expect(a.values == [1, 2])
        #expect(b.values == [1, 2])
        connection.cancel()
        source.send(3)
        #expect(a.values == [1, 2])
    }

    @Test func multicastMakesItsSubjectOnceAndSendsTheCompletionToAll() {
        var made = 0
        let source = PassthroughSubject<Int, TestError>()
        let multicast = source.multicast { () -> PassthroughSubject<Int, TestError> in
            made += 1
            return PassthroughSubject()
        }
        let a = multicast.record()
        let b = multicast.record()
        let connection = multicast.connect()
        source.send(1)
        source.send(completion: .failure(.boom))
        #expect(made == 1)
        #expect(a.values == [1] && a.failure == .boom)
        #expect(b.values == [1] && b.failure == .boom)
        _ = connection
    }

    /// The subject is made exactly once even when the first subscribers arrive together on several threads (why
    /// `createSubject` runs under the multicast's lock), and every one of them is attached to that one subject.
    @Test func multicastMakesItsSubjectOnceWhenTheFirstSubscribersArriveOnManyThreads() {
        for _ in 0..<200 {
            let made = Atomic<Int>(0)
            let source = PassthroughSubject<Int, Never>()
            let multicast = source.multicast { () -> PassthroughSubject<Int, Never> in
                made.add(1, ordering: .relaxed)
                return PassthroughSubject()
            }
            let recorders = Locked([TestRecorder<Int, Never>]())
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                let recorder = multicast.record()
                recorders.withLock { $0.append(recorder) }
            }
            let connection = multicast.connect()
            source.send(7)
            #expect(made.load(ordering: .relaxed) == 1)
            #expect(recorders.withLock { $0.map(\.values) } == Array(repeating: [7], count: 4))
            connection.cancel()
        }
    }

    @Test func multicastThroughACurrentValueSubjectGivesLateSubscribersTheLatest() {
        let source = PassthroughSubject<Int, Never>()
        let multicast = source.multicast(subject: CurrentValueSubject<Int, Never>(0))
        let connection = multicast.connect()
        source.send(5)
        #expect(multicast.record().values == [5])
        connection.cancel()
    }

    @Test func autoconnectConnectsForTheFirstSubscriberAndDisconnectsAfterTheLast() {
        let source = PassthroughSubject<Int, Never>()
        var subscriptions = 0
        var cancels = 0
        let shared = source
            .handleEvents(receiveSubscription: { _ in subscriptions += 1 }, receiveCancel: { cancels += 1 })
            .makeConnectable()
            .autoconnect()
        let a = shared.record()
        #expect(subscriptions == 1)
        let b = shared.record()
        #expect(subscriptions == 1)
        source.send(1)
        #expect(a.values == [1] && b.values == [1])
        a.cancel()
        #expect(cancels == 0)
        b.cancel()
        #expect(cancels == 1)
        let c = shared.record()
        #expect(subscriptions == 2)  // reconnected
        source.send(2)
        #expect(c.values == [2])
        c.cancel()
    }

    @Test func autoconnectOverASynchronousSourceDeliversToTheFirstSubscriber() {
        let recorder = [1, 2, 3].publisher.makeConnectable().autoconnect().record()
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.isFinished)
    }

    /// Combine's refcount: each subscriber counts until it cancels (twice counts once); completing does not
    /// disconnect, so a subscriber after the completion gets it without the upstream being subscribed again.
    @Test func autoconnectCountsSubscribersUntilTheyCancelNotUntilTheyComplete() {
        var subscriptions = 0
        var cancels = 0
        let source = PassthroughSubject<Int, TestError>()
        let shared = Deferred { () -> PassthroughSubject<Int, TestError> in
            subscriptions += 1
            return source
        }
        .handleEvents(receiveCancel: { cancels += 1 })
        .multicast { PassthroughSubject<Int, TestError>() }
        .autoconnect()
        let one = HandWrittenSubscriber<Int, TestError>(initial: .max(101))
        let two = HandWrittenSubscriber<Int, TestError>(initial: .max(102))
        let three = HandWrittenSubscriber<Int, TestError>(initial: .max(103))
        shared.subscribe(one)
        shared.subscribe(two)
        shared.subscribe(three)
        #expect(subscriptions == 1)
        source.send(1)
        two.cancel()
        three.cancel()
        three.cancel()
        #expect(cancels == 0)
        one.cancel()
        #expect(cancels == 1)
        one.cancel()
        #expect(cancels == 1)
        #expect(three.events == [.subscription, .value(1)])

        let late = HandWrittenSubscriber<Int, TestError>(initial: .unlimited)
        shared.subscribe(late)
        #expect(subscriptions == 2)
        source.send(completion: .failure(.boom))
        let afterCompletion = HandWrittenSubscriber<Int, TestError>(initial: .unlimited)
        shared.subscribe(afterCompletion)
        #expect(subscriptions == 2, "a completed connection is not made again")
        #expect(late.events == [.subscription, .failure("boom")])
        #expect(afterCompletion.events == [.subscription, .failure("boom")])
    }

    @Test func autoconnectDoesNotConnectWhenTheFirstSubscriberCancelsDuringItsSubscription() {
        var subscriptions = 0
        let source = PassthroughSubject<Int, Never>()
        let shared = Deferred { () -> PassthroughSubject<Int, Never> in
            subscriptions += 1
            return source
        }.makeConnectable().autoconnect()
        shared.subscribe(HandWrittenSubscriber<Int, Never>(cancelOnSubscription: true))
        #expect(subscriptions == 0)
        let next = HandWrittenSubscriber<Int, Never>(initial: .unlimited)
        shared.subscribe(next)
        #expect(subscriptions == 1)
        source.send(7)
        #expect(next.events == [.subscription, .value(7)])
    }
}
