import Streams
import StreamsTesting
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
}
