import Streams
import StreamsTesting
import Testing

private struct Boom: Error, Equatable {}

private func ms(_ value: Int) -> Duration { .milliseconds(value) }

@Suite struct MarbleAssertionTests {
    @Test func expectMarblesPassesWhenTheTimelinesMatch() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-a-b-c|", values: ["a": 1, "b": 2, "c": 3])
        let matched = expectMarbles(
            input.map { $0 * 10 }, "-x-y-z|", values: ["x": 10, "y": 20, "z": 30], on: scheduler)
        #expect(matched)
    }

    @Test func aMismatchPrintsAlignedDiagramsAndAnEventByEventDiff() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("--a-----b|")
        let comparison = compareMarbles(input, "--a--b--|", on: scheduler)
        #expect(!comparison.matches)
        #expect(comparison.expectedDiagram == "--a--b--|")
        #expect(comparison.actualDiagram == "--a-----b|")
        #expect(
            comparison.description == """
                Marble diagrams differ (1 frame = 1 ms):
                  expected  --a--b--|
                  actual    --a-----b|
                event by event:
                  frame 5: expected b, actual nothing
                  frame 8: expected | (finished), actual b
                  frame 9: expected nothing, actual | (finished)
                """)
    }

    @Test func expectMarblesRecordsTheMessageAsTheTestFailure() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("--a-----b|")
        withKnownIssue {
            expectMarbles(input, "--a--b--|", on: scheduler)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("actual    --a-----b|") }
        }
    }

    @Test func groupsInOneDiagramArePaddedSoColumnsStillLineUp() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-(ab)-c|")
        let comparison = compareMarbles(input, "-a-c|", on: scheduler)
        #expect(comparison.expectedDiagram == "-a   -c|")
        #expect(comparison.actualDiagram == "-(ab)-c|")
    }

    @Test func valuesOutsideTheDictionaryGetALegend() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-a|", values: ["a": 1])
        let comparison = compareMarbles(input.map { $0 * 100 }, "-a|", values: ["a": 1], on: scheduler)
        #expect(comparison.actualDiagram == "-A|")
        #expect(comparison.legend == "where A = 100")
        #expect(comparison.differences == ["frame 1: expected a (1), actual A (100)"])
    }

    @Test func failuresCompareByTheirError() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-a-#", error: Boom())
        expectMarbles(input, "-a-#", error: Boom(), on: scheduler)
    }

    @Test func aSubscriptionDiagramDelaysTheSubscriptionAndCancelsIt() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-a-b-c-d|")
        expectMarbles(input, "---b-c", on: scheduler, subscription: "--^---!")
        expectSubscriptions(input, "--^---!")
    }

    @Test func anInvalidExpectedDiagramFailsWithItsColumn() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-a|")
        let comparison = compareMarbles(input, "-a)|", on: scheduler)
        #expect(!comparison.matches)
        #expect(comparison.description.contains("')' closes no group (column 3)"))
        withKnownIssue {
            expectMarbles(input, "-a)|", on: scheduler)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("')' closes no group (column 3)") }
        }
    }

    @Test func anEndlessTimerCannotHangTheExpectation() {
        let scheduler = TestScheduler()
        let ticks = scheduler.timerPublisher(every: .milliseconds(1)).map { _ in "t" }
        let comparison = compareMarbles(ticks, "-t", on: scheduler)
        #expect(!comparison.matches)  // it keeps ticking, up to 1,000 frames past the diagram's end
        #expect(scheduler.now.offset <= ms(1002))
    }

    @Test func subscriptionMismatchesShowBothLogs() throws {
        let scheduler = TestScheduler()
        let cold = try scheduler.cold("-a|")
        _ = cold.record(on: scheduler)
        let comparison = compareSubscriptions(cold, ["^--!"])
        #expect(
            comparison.description == """
                Subscriptions differ (1 frame = 1 ms):
                  expected  ^--!
                  actual    ^
                  subscription 1: expected subscribed at frame 0, cancelled at frame 3; \
                actual subscribed at frame 0, never cancelled
                """)
        #expect(!compareSubscriptions(cold, []).matches)
    }

    @Test func expectMarblesOnARecorderLetsSeveralSubscribersShareATimeline() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-a-b-c|")
        let shared = input.share()
        let first = shared.record(on: scheduler)
        scheduler.advance(by: ms(2))
        let second = shared.record(on: scheduler)
        expectMarbles(first, "-a-b-c|")
        expectMarbles(second, "---b-c|")
        expectSubscriptions(input, "^")
    }
}

@Suite struct RecorderMarblesTests {
    @Test func rendersWhatHappened() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("--a-(bc)--|")
        let recorder = input.record(on: scheduler)
        scheduler.run()
        #expect(recorder.marbles == "--a-(bc)--|")
    }

    @Test func rendersValuesThroughTheDictionary() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-a-b-#", values: ["a": 1, "b": 2], error: Boom())
        let recorder = input.record(on: scheduler)
        scheduler.run()
        #expect(recorder.marbles(values: ["a": 1, "b": 2]) == "-a-b-#")
        #expect(recorder.marbles == "-1-2-#")
    }

    @Test func longValuesGetLettersAndALegend() throws {
        let subject = PassthroughSubject<String, Never>()
        let scheduler = TestScheduler()
        let recorder = subject.record(on: scheduler)
        subject.send("hello")
        scheduler.advance(by: ms(2))
        subject.send("x")
        subject.send("hello")
        #expect(recorder.marbles == "A-(xA)  where A = hello")
    }

    @Test func longGapsBecomeTimeProgressions() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("a 209ms b|")
        let recorder = input.record(on: scheduler)
        scheduler.run()
        #expect(recorder.marbles == "a 209ms b|")
    }

    @Test func theFrameComesFromTheScheduler() throws {
        let scheduler = TestScheduler(frameDuration: .milliseconds(10))
        let input = try scheduler.hot("---a|")
        let recorder = input.record(on: scheduler)
        scheduler.run()
        #expect(recorder.marbles == "---a|")
    }

    @Test func renderedDiagramsParseBackToTheSameEvents() throws {
        let diagrams = ["-a-b|", "(ab)--c 100ms (d|)", "--#", "a", "", "----(ab)(cd)e|"]
        for text in diagrams {
            let scheduler = TestScheduler()
            let input = try scheduler.hot(text, error: Boom())
            let recorder = input.record(on: scheduler)
            scheduler.run()
            let reparsed = try MarbleDiagram<String, Boom>(recorder.marbles, error: Boom())
            #expect(reparsed.events == recorder.events, "\(text) rendered as \(recorder.marbles)")
        }
    }
}
