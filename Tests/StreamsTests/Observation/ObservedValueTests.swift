import Observation
import Streams
import Testing

@MainActor
@Suite struct ObservedValueTests {
    /// Waits until every main-actor job enqueued so far (each `sinkOnMainActor` delivery) has run.
    func mainQueueTurn() async {
        let marker = AwaitableEvents<Void>()
        MainActorScheduler.shared.schedule { marker.send(()) }
        _ = await marker.next()
    }

    @Test func holdsTheInitialValueThenEachValueAssignedOnTheMainActor() async {
        let subject = PassthroughSubject<Int, Never>()
        let latest = ObservedValue(0, from: subject)
        #expect(latest.value == 0)
        let seen = AwaitableEvents<Int>()
        // Observation sees every assignment: the round trip publisher → ObservedValue → Observed.
        let c = Observed { latest.value }.sink { seen.send($0) }
        #expect(await seen.next() == 0)
        subject.send(1)
        #expect(await seen.next() == 1)
        subject.send(2)
        #expect(await seen.next() == 2)
        #expect(latest.value == 2)
        c.cancel()
    }

    @Test func aCurrentValueSubjectsValueArrivesOnALaterTurn() async {
        let subject = CurrentValueSubject<String, Never>("current")
        let latest = ObservedValue("initial", from: subject)
        #expect(latest.value == "initial")
        await mainQueueTurn()
        #expect(latest.value == "current")
    }

    @Test func withObservationTrackingSeesTheChange() async {
        let subject = PassthroughSubject<Int, Never>()
        let latest = ObservedValue(0, from: subject)
        let changed = AwaitableEvents<Void>()
        _ = withObservationTracking { latest.value } onChange: { changed.send(()) }
        subject.send(7)
        #expect(await changed.next() != nil)
        await mainQueueTurn()
        #expect(latest.value == 7)
    }

    @Test func finishingSetsIsFinishedAndKeepsTheLastValue() async {
        let subject = PassthroughSubject<Int, Never>()
        let latest = ObservedValue(0, from: subject)
        subject.send(3)
        subject.send(completion: .finished)
        await mainQueueTurn()
        #expect(latest.value == 3)
        #expect(latest.isFinished)
    }

    @Test func cancelStopsAssignments() async {
        let subject = PassthroughSubject<Int, Never>()
        let latest = ObservedValue(0, from: subject)
        subject.send(1)
        await mainQueueTurn()
        latest.cancel()
        subject.send(2)
        await mainQueueTurn()
        #expect(latest.value == 1)
        #expect(!latest.isFinished)
    }

    @Test func releasingTheObjectCancelsTheSubscription() async {
        let subject = PassthroughSubject<Int, Never>()
        let cancelled = AwaitableEvents<Void>()
        weak var weakLatest: ObservedValue<Int>?
        do {
            let latest = ObservedValue(0, from: subject.handleEvents(receiveCancel: { cancelled.send(()) }))
            weakLatest = latest
            subject.send(1)
            await mainQueueTurn()
            #expect(latest.value == 1)
        }
        #expect(weakLatest == nil, "the subscription does not retain the object")
        #expect(await cancelled.next() != nil)
    }
}
