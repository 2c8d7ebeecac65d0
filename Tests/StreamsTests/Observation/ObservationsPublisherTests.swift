import Observation
import Streams
import Testing

/// A model isolated to the main actor, for publishers of `Observations`.
@MainActor @Observable final class ObservationsCounterModel {
    var count = 0
    var label = ""
}

/// A subscriber that requests only when told and reports each value as an awaitable event.
final class ObservationsProbe: Subscriber, Sendable {
    let values = AwaitableEvents<Int>()
    private let subscription = Locked<(any Subscription)?>(nil)

    func receive(subscription: any Subscription) { self.subscription.withLock { $0 = subscription } }
    func receive(_ input: Int) -> Subscribers.Demand {
        values.send(input)
        return .none
    }
    func receive(completion: Subscribers.Completion<Never>) {}
    func request(_ demand: Subscribers.Demand) { subscription.withLock { $0 }?.request(demand) }
    func cancel() { subscription.withLock { $0 }?.cancel() }
}

@MainActor
@Suite struct ObservationsPublisherTests {
    @Test func publishesTheCurrentValueThenEachChange() async {
        let model = ObservationsCounterModel()
        model.count = 1
        let values = AwaitableEvents<Int>()
        let publisher: ObservationsPublisher<Int, Never> = Observations { model.count }.streamsPublisher
        let c = publisher.sink { values.send($0) }
        #expect(await values.next() == 1)
        model.count = 2
        #expect(await values.next() == 2)
        model.count = 3
        #expect(await values.next() == 3)
        c.cancel()
    }

    @Test func tracksSeveralProperties() async {
        let model = ObservationsCounterModel()
        let values = AwaitableEvents<String>()
        let c = Observations { "\(model.label)\(model.count)" }.streamsPublisher.sink { values.send($0) }
        #expect(await values.next() == "0")
        model.label = "n="
        #expect(await values.next() == "n=0")
        model.count = 5
        #expect(await values.next() == "n=5")
        c.cancel()
    }

    @Test func changesWithoutDemandGiveOnlyTheNewest() async {
        let model = ObservationsCounterModel()
        let probe = ObservationsProbe()
        Observations { model.count }.streamsPublisher.subscribe(probe)
        model.count = 1
        model.count = 2
        probe.request(.max(1))
        #expect(await probe.values.next() == 2, "the first pull reads the model as it is now")
        model.count = 3
        model.count = 4
        probe.request(.max(1))
        #expect(await probe.values.next() == 4)
        probe.cancel()
    }

    @Test func untilFinishedFinishesThePublisher() async {
        let model = ObservationsCounterModel()
        let events = AwaitableEvents<String>()
        let c = Observations.untilFinished { () -> Observations<Int, Never>.Iteration in
            model.count < 2 ? .next(model.count) : .finish
        }.streamsPublisher.sink(
            receiveCompletion: { _ in events.send("finished") }, receiveValue: { events.send("\($0)") })
        #expect(await events.next() == "0")
        model.count = 1
        #expect(await events.next() == "1")
        model.count = 2
        #expect(await events.next() == "finished")
        c.cancel()
    }
}
