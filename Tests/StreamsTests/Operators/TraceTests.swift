import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

/// `trace(_:to:scheduler:)`: a pass-through that records every event in a `TraceLog` with virtual time (the log's
/// renderings are in `Tests/StreamsTests/Debugging/TraceLogTests.swift`).
@Suite struct TraceTests {
    // MARK: Pass-through

    @Test func valuesAndFinishedPassThroughUnchanged() {
        let scheduler = TestScheduler()
        let log = TraceLog()
        let traced = [1, 2, 3].publisher.trace("numbers", to: log, scheduler: scheduler).record()
        let plain = [1, 2, 3].publisher.record()
        #expect(traced.events == plain.events)
        #expect(traced.values == [1, 2, 3])
        #expect(traced.isFinished)
    }

    @Test func failurePassesThroughUnchanged() {
        let scheduler = TestScheduler()
        let log = TraceLog()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = subject.trace("subject", to: log, scheduler: scheduler).record()
        subject.send(1)
        subject.send(completion: .failure(.other(7)))
        subject.send(2)
        #expect(recorder.values == [1])
        #expect(recorder.failure == .other(7))
        #expect(log.events.last?.kind == .failure("other(7)"))
        #expect(log.events.filter { $0.kind == .value("2") }.isEmpty)
    }

    /// A hand-written subscriber asks for one value at a time: the upstream sees exactly its requests, and the
    /// subscriber's returned demand reaches the upstream unchanged.
    @Test func demandPassesThroughExactlyAsTheSubscriberMadeIt() {
        let scheduler = TestScheduler()
        let log = TraceLog()
        let probe = SimpleProbe<Int, Never>()
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(1), perValue: .max(1))
        probe.trace("probe", to: log, scheduler: scheduler).subscribe(subscriber)
        #expect(probe.requests == [.max(1)])
        #expect(probe.send(1) == .max(1))
        #expect(probe.send(2) == .max(1))
        subscriber.request(.max(2))
        #expect(probe.requests == [.max(1), .max(2)])
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        #expect(
            log.events.map(\.kind) == [
                .subscription, .request(.max(1)), .value("1"), .synchronousRequest(.max(1)), .value("2"),
                .synchronousRequest(.max(1)), .request(.max(2)),
            ])
    }

    /// After the downstream cancels, nothing more passes either way and nothing more is recorded.
    @Test func cancelStopsEveryEvent() {
        let scheduler = TestScheduler()
        let log = TraceLog()
        let probe = SimpleProbe<Int, Never>()  // keeps sending after a cancel, as a sloppy upstream might
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .unlimited)
        probe.trace("probe", to: log, scheduler: scheduler).subscribe(subscriber)
        probe.send(1)
        subscriber.cancel()
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(probe.send(2) == .none)
        probe.send(completion: .finished)
        #expect(probe.cancelCount == 1)
        #expect(probe.requests == [.unlimited])
        #expect(subscriber.events == [.subscription, .value(1)])
        #expect(log.events.map(\.kind) == [.subscription, .request(.unlimited), .value("1"), .cancel])
    }

    @Test func cancelAfterCompletionIsNotRecorded() {
        let scheduler = TestScheduler()
        let log = TraceLog()
        let recorder = Just("x").trace("just", to: log, scheduler: scheduler).record()
        recorder.cancel()
        #expect(log.events.map(\.kind) == [.subscription, .request(.unlimited), .value("x"), .finished])
    }

    // MARK: Recording

    @Test func recordsEveryEventWithItsVirtualTime() {
        let scheduler = TestScheduler()
        let log = TraceLog()
        let subject = PassthroughSubject<String, Never>()
        let recorder = subject.trace("keys", to: log, scheduler: scheduler).record(on: scheduler, demand: .max(1))
        scheduler.advance(by: .milliseconds(500))
        subject.send("focus")
        scheduler.advance(by: .milliseconds(100))
        recorder.request(.max(3))
        scheduler.advance(by: .milliseconds(200))
        subject.send("fo")
        scheduler.advance(by: .milliseconds(200))
        recorder.cancel()
        let expected: [TraceEvent] = [
            TraceEvent(name: "keys", time: .zero, kind: .subscription),
            TraceEvent(name: "keys", time: .zero, kind: .request(.max(1))),
            TraceEvent(name: "keys", time: .milliseconds(500), kind: .value("focus")),
            TraceEvent(name: "keys", time: .milliseconds(600), kind: .request(.max(3))),
            TraceEvent(name: "keys", time: .milliseconds(800), kind: .value("fo")),
            TraceEvent(name: "keys", time: .seconds(1), kind: .cancel),
        ]
        #expect(log.events == expected)
        #expect(log.origin == .zero)
        #expect(log.names == ["keys"])
    }

    @Test func timesCountFromTheFirstEventOrFromTheGivenOrigin() {
        let scheduler = TestScheduler(now: SchedulerInstant(offset: .seconds(10)))
        let fromFirst = TraceLog()
        let fromGiven = TraceLog(origin: SchedulerInstant(offset: .seconds(9)))
        let subject = PassthroughSubject<Int, Never>()
        let first = subject.trace("a", to: fromFirst, scheduler: scheduler).record()
        let second = subject.trace("a", to: fromGiven, scheduler: scheduler).record()
        scheduler.advance(by: .seconds(2))
        subject.send(1)
        #expect(fromFirst.origin == SchedulerInstant(offset: .seconds(10)))
        #expect(fromFirst.events.map(\.time) == [.zero, .zero, .seconds(2)])
        #expect(fromGiven.events.map(\.time) == [.seconds(1), .seconds(1), .seconds(3)])
        withExtendedLifetime((first, second)) {}
    }

    @Test func onEventSeesEachEventAsItHappens() {
        let scheduler = TestScheduler()
        let seen = Locked<[String]>([])
        let log = TraceLog { event in seen.withLock { $0.append(event.description) } }
        let subject = PassthroughSubject<String, Never>()
        let recorder = subject.trace("keys", to: log, scheduler: scheduler).record()
        scheduler.advance(by: .milliseconds(1500))
        subject.send("f")
        recorder.cancel()
        #expect(
            seen.withLock { $0 } == [
                "keys: subscribe at 0.000 s", "keys: request(unlimited) at 0.000 s", "keys: value \"f\" at 1.500 s",
                "keys: cancel at 1.500 s",
            ])
    }

    /// Events are recorded before they are passed on: the hook sees a value before the subscriber does.
    @Test func eachEventIsRecordedBeforeItIsPassedOn() {
        let scheduler = TestScheduler()
        let delivered = Locked(0)
        let countsSeen = Locked<[Int]>([])
        let log = TraceLog { event in
            if case .value = event.kind { countsSeen.withLock { $0.append(delivered.withLock { $0 }) } }
        }
        let cancellable = [1, 2].publisher.trace("n", to: log, scheduler: scheduler).sink { _ in
            delivered.withLock { $0 += 1 }
        }
        #expect(countsSeen.withLock { $0 } == [0, 1])
        cancellable.cancel()
    }

    @Test func eachSubscriptionIsNumberedAndDrawnOnItsOwnRow() throws {
        let scheduler = TestScheduler()
        let log = TraceLog()
        let source = try scheduler.cold("-a-#", "-b|", error: TestError.boom)
        let recorder = source.trace("source", to: log, scheduler: scheduler).retry(1).record(on: scheduler)
        scheduler.run()
        #expect(recorder.values == ["a", "b"])
        #expect(Set(log.events.map(\.subscription)) == [1, 2])
        #expect(log.marbles(for: "source", frame: scheduler.frameDuration) == "-a-#")
        #expect(log.marbles(for: "source", frame: scheduler.frameDuration, subscription: 2) == "-b|")
        #expect(
            log.marbleChart(frame: scheduler.frameDuration) == """
                source (1)  -a-#
                source (2)  ---^b|
                """)
    }

    // MARK: Threads

    /// Values sent from several threads (one at a time, as the contract requires) are all recorded.
    @Test func valuesSentFromSeveralThreadsAreAllRecorded() {
        let threads = 8
        let perThread = 500
        let scheduler = TestScheduler()
        let hookCount = Locked(0)
        let log = TraceLog { event in
            if case .value = event.kind { hookCount.withLock { $0 += 1 } }
        }
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.trace("many", to: log, scheduler: scheduler).record()
        let sendLock = NSLock()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                sendLock.lock()
                subject.send(thread * perThread + index)
                sendLock.unlock()
            }
        }
        let total = threads * perThread
        let recorded = log.events.compactMap { event -> Int? in
            if case .value(let value) = event.kind { Int(value) } else { nil }
        }
        #expect(recorded.count == total)
        #expect(Set(recorded) == Set(0..<total))
        #expect(recorded == recorder.values)
        #expect(hookCount.withLock { $0 } == total)
    }

    // MARK: Leaks

    @Test(arguments: LeakCheckEnding.allCases) func releasesEverythingAfterTheSubscriptionEnds(
        _ ending: LeakCheckEnding
    ) {
        let subject = PassthroughSubject<Int, Never>()
        let scheduler = TestScheduler()
        expectNoLeaks { tracker in
            let hookToken = tracker.token("onEvent hook")
            let mapToken = tracker.token("map before trace")
            let log = tracker.watch(TraceLog { _ in hookToken() })
            let recorder = tracker.record(
                subject.map { mapToken($0) }.trace("n", to: log, scheduler: scheduler), on: scheduler)
            subject.send(1)
            if ending == .cancel { recorder.cancel() } else { subject.send(completion: .finished) }
            subject.send(2)
            #expect(recorder.values == [1])
            #expect(log.events.last?.kind == (ending == .cancel ? .cancel : .finished))
        }
        withExtendedLifetime((subject, scheduler)) {}
    }
}
