import Dispatch
import Streams
import Testing

@Suite struct MainActorSchedulerTests {
    /// The premise of every main-actor test: under `swift test` the main queue is drained while tests run
    /// (Swift Testing runs them on the cooperative pool; the main thread services the main queue).
    @Test func theMainQueueIsDrainedWhileTestsRun() async {
        let events = AwaitableEvents<Bool>()
        DispatchQueue.main.async { events.send(true) }
        #expect(await events.next() == true)
    }

    @MainActor @Test func aMainActorTestRunsOnTheMainQueue() {
        MainActor.assertIsolated()
        dispatchPrecondition(condition: .onQueue(.main))
    }

    @Test func actionsRunOnTheMainActorInSchedulingOrder() async {
        let events = AwaitableEvents<Int>()
        let scheduler = MainActorScheduler.shared
        await Task.detached {
            for index in 0..<200 {
                scheduler.schedule {
                    MainActor.assertIsolated()
                    dispatchPrecondition(condition: .onQueue(.main))
                    events.send(index)
                }
            }
        }.value
        let order = await events.collect { $0 == 199 }
        #expect(order == Array(0..<200))
    }

    @MainActor @Test func schedulingFromTheMainActorNeverRunsInline() async {
        let events = AwaitableEvents<String>()
        MainActorScheduler.shared.schedule { events.send("action") }
        events.send("after schedule")
        #expect(await events.collect { $0 == "action" } == ["after schedule", "action"])
    }

    @MainActor @Test func actionsKeepTheirOrderAmongMainActorTasks() async {
        let events = AwaitableEvents<String>()
        MainActorScheduler.shared.schedule { events.send("first action") }
        Task { @MainActor in events.send("main-actor task") }
        MainActorScheduler.shared.schedule { events.send("second action") }
        let order = await events.collect { $0 == "second action" }
        #expect(order == ["first action", "main-actor task", "second action"])
    }

    @Test func aDeadlineActionRunsOnTheMainActorAfterTheDeadline() async {
        let events = AwaitableEvents<Duration>()
        let scheduler = MainActorScheduler.shared
        let start = scheduler.now
        let pending = scheduler.schedule(after: start + .milliseconds(20)) {
            MainActor.assertIsolated()
            events.send(scheduler.now - start)
        }
        let elapsed = await events.next()
        #expect(elapsed.map { $0 >= .milliseconds(20) } == true)
        pending.cancel()  // after it ran: nothing happens
    }

    @Test func aCancelledDeadlineActionNeverRuns() async {
        let events = AwaitableEvents<String>()
        let scheduler = MainActorScheduler.shared
        let cancelled = scheduler.schedule(afterDelay: .milliseconds(10)) { events.send("cancelled action") }
        cancelled.cancel()
        // Same queue, later deadline: had the cancelled action run, it would have been sent first.
        _ = scheduler.schedule(afterDelay: .milliseconds(40)) { events.send("later action") }
        #expect(await events.next() == "later action")
    }

    @Test func receiveOnMainActorDeliversEveryEventOnTheMainQueueInOrder() async {
        let subject = PassthroughSubject<Int, Never>()
        let events = AwaitableEvents<Int?>()
        let cancellable = subject.receive(on: .mainActor).sink(
            receiveCompletion: { _ in
                dispatchPrecondition(condition: .onQueue(.main))
                events.send(nil)
            },
            receiveValue: { value in
                MainActor.assertIsolated()
                events.send(value)
            })
        await Task.detached {
            for value in 1...50 { subject.send(value) }
            subject.send(completion: .finished)
        }.value
        let received = await events.collect { $0 == nil }
        #expect(received == (1...50).map { $0 } + [nil])
        cancellable.cancel()
    }

    @Test func theSharedInstanceIsTheStaticMember() {
        let scheduler: any Scheduler = .mainActor as MainActorScheduler
        #expect(scheduler is MainActorScheduler)
        #expect(MainActorScheduler().now <= MainActorScheduler.shared.now)
    }
}
