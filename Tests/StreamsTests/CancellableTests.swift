import Streams
import StreamsTesting
import Testing

@Suite struct CancellableTests {
    @Test func anyCancellableRunsItsActionOnce() {
        let count = Locked(0)
        let cancellable = AnyCancellable { count.withLock { $0 += 1 } }
        cancellable.cancel()
        cancellable.cancel()
        #expect(count.withLock { $0 } == 1)
    }

    @Test func droppingAnAnyCancellableCancels() {
        let count = Locked(0)
        do { _ = AnyCancellable { count.withLock { $0 += 1 } } }
        #expect(count.withLock { $0 } == 1)
    }

    @Test func storeKeepsCancellablesInSetsAndArrays() {
        let subject = PassthroughSubject<Int, Never>()
        let seen = Locked<[Int]>([])
        var set = Set<AnyCancellable>()
        var array: [AnyCancellable] = []
        subject.sink { value in seen.withLock { $0.append(value) } }.store(in: &set)
        subject.sink { value in seen.withLock { $0.append(value * 10) } }.store(in: &array)
        subject.send(1)
        #expect(seen.withLock { $0 } == [1, 10])
        set.removeAll()
        subject.send(2)
        #expect(seen.withLock { $0 } == [1, 10, 20])
        array.removeAll()
        subject.send(3)
        #expect(seen.withLock { $0 } == [1, 10, 20])
    }

    @Test func sinkReceivesValuesAndCompletion() {
        let events = Locked<[String]>([])
        let c = [1, 2].publisher.sink(
            receiveCompletion: { completion in events.withLock { $0.append("\(completion)") } },
            receiveValue: { value in events.withLock { $0.append("\(value)") } })
        #expect(events.withLock { $0 } == ["1", "2", "finished"])
        c.cancel()
    }

    @Test func assignWritesEachValueAndReleasesTheObjectOnCancel() {
        final class Model: @unchecked Sendable { var title = "" }
        let subject = PassthroughSubject<String, Never>()
        weak var weakModel: Model?
        var cancellable: AnyCancellable?
        do {
            let model = Model()
            weakModel = model
            cancellable = subject.assign(to: \.title, on: model)
            subject.send("hello")
            #expect(model.title == "hello")
        }
        #expect(weakModel != nil)
        cancellable?.cancel()
        #expect(weakModel == nil)
    }

    @Test func anySubscriberForwardsEveryEvent() {
        let events = Locked<[String]>([])
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription in subscription.request(.max(2)) },
            receiveValue: { value in
                events.withLock { $0.append("\(value)") }
                return .none
            },
            receiveCompletion: { _ in events.withLock { $0.append("end") } })
        (1...5).publisher.subscribe(subscriber)
        #expect(events.withLock { $0 } == ["1", "2"])
        let recorder = TestRecorder<Int, Never>()
        Just(9).subscribe(AnySubscriber(recorder))
        #expect(recorder.values == [9])
    }
}
