import Streams
import StreamsTesting
import Testing

/// `TraceLog` (Sources/Streams/Debugging/TraceLog.swift), what `trace(_:to:scheduler:)` records, rendered: marble
/// diagrams that `expectMarbles` reads back, one row per subscription, and timelines that show demand and cancels.
@Suite struct TraceLogTests {
    // MARK: Marble diagrams

    /// Trace a debounce pipeline, render each tap, and feed the very strings to `expectMarbles` for the same
    /// pipeline on a fresh scheduler: they match.
    @Test func renderedMarblesRoundTripThroughExpectMarbles() throws {
        let scheduler = TestScheduler()
        let log = TraceLog()
        let keys = try scheduler.hot("-a-b------c|")
        let recorder = keys.trace("keys", to: log, scheduler: scheduler)
            .debounce(for: scheduler.frames(3), scheduler: scheduler)
            .trace("results", to: log, scheduler: scheduler)
            .record(on: scheduler)
        scheduler.run()
        #expect(recorder.values == ["b", "c"])
        let keysDiagram = log.marbles(for: "keys", frame: scheduler.frameDuration)
        let resultsDiagram = log.marbles(for: "results", frame: scheduler.frameDuration)
        #expect(keysDiagram == "-a-b------c|")
        #expect(resultsDiagram == "------b----(c|)")
        #expect(log.legend(for: "results").isEmpty)

        let replay = TestScheduler()
        let input = try replay.hot("-a-b------c|")
        #expect(expectMarbles(input.debounce(for: replay.frames(3), scheduler: replay), resultsDiagram, on: replay))
        let again = TestScheduler()
        #expect(expectMarbles(try again.hot("-a-b------c|"), keysDiagram, on: again))
    }

    /// Values longer than one character get letters, and the legend and `marbleValues` say which; gaps longer
    /// than 30 frames are time progressions. The diagram still reads back.
    @Test func lettersAndTimeProgressionsRoundTripToo() throws {
        let values: [Character: String] = ["f": "f", "o": "fo", "c": "foc", "u": "focus"]
        let hot = "210ms f 29ms o - c 99ms u |"
        let scheduler = TestScheduler()
        let log = TraceLog()
        let recorder = try scheduler.hot(hot, values: values)
            .debounce(for: scheduler.frames(20), scheduler: scheduler)
            .trace("results", to: log, scheduler: scheduler)
            .record(on: scheduler)
        scheduler.run()
        #expect(recorder.values == ["f", "foc", "focus"])
        let diagram = log.marbles(for: "results", frame: scheduler.frameDuration)
        #expect(diagram == "230ms a 31ms b 80ms (c|)")
        #expect(log.legend(for: "results") == #"a = "f", b = "foc", c = "focus""#)
        #expect(log.marbleValues(for: "results") == ["a": "f", "b": "foc", "c": "focus"])

        let replay = TestScheduler()
        let input = try replay.hot(hot, values: values)
        #expect(
            expectMarbles(
                input.debounce(for: replay.frames(20), scheduler: replay), diagram,
                values: log.marbleValues(for: "results"), on: replay))
    }

    /// Non-string values stand for themselves when each is one character; frames other than 1 ms round down.
    @Test func oneCharacterValuesStandForThemselvesOnLongerFrames() throws {
        let scheduler = TestScheduler(frameDuration: .milliseconds(10))
        let log = TraceLog()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.trace("digits", to: log, scheduler: scheduler).record(on: scheduler)
        for (value, at) in [(1, 25), (2, 29), (3, 60)] {
            _ = scheduler.schedule(after: .zero + .milliseconds(at)) { subject.send(value) }
        }
        _ = scheduler.schedule(after: .zero + .milliseconds(75)) { subject.send(completion: .finished) }
        scheduler.run()
        #expect(recorder.values == [1, 2, 3])
        #expect(log.marbles(for: "digits", frame: scheduler.frameDuration) == "--(12)---3|")
        #expect(log.legend(for: "digits").isEmpty)
        #expect(log.marbleValues(for: "digits") == ["1": "1", "2": "2", "3": "3"])
    }

    /// A digit that would start a word read as a time progression (`5s`) is drawn as a group, `(5)s`.
    @Test func aDigitThatWouldReadAsATimeIsWrappedInAGroup() throws {
        let scheduler = TestScheduler()
        let log = TraceLog()
        let recorder = try scheduler.hot("(5)s").trace("t", to: log, scheduler: scheduler).record(on: scheduler)
        scheduler.run()
        #expect(recorder.values == ["5", "s"])
        let diagram = log.marbles(for: "t", frame: scheduler.frameDuration)
        #expect(diagram == "(5)s")
        let replay = TestScheduler()
        #expect(expectMarbles(try replay.hot("(5)s"), diagram, on: replay))
    }

    @Test func aValueThatIsMarbleSyntaxIsDrawnAsALetter() {
        let scheduler = TestScheduler()
        let log = TraceLog()
        let recorder = ["-", "|"].publisher.trace("syntax", to: log, scheduler: scheduler).record()
        #expect(recorder.values == ["-", "|"])
        #expect(log.marbles(for: "syntax", frame: scheduler.frameDuration) == "(ab|)")
        #expect(log.legend(for: "syntax") == #"a = "-", b = "|""#)
    }

    /// One aligned row per tap, the same symbols for the same values, a `^` where a later tap subscribed, and a
    /// group widening its column in every row.
    @Test func chartAlignsTheTapsOnOneTimeline() throws {
        let scheduler = TestScheduler()
        let log = TraceLog()
        let keys = try scheduler.hot(
            "-f-o------c|", values: ["f": "f", "o": "fo", "c": "foc"] as [Character: String])
        let typed = keys.trace("keys", to: log, scheduler: scheduler)
        let recorder = typed.debounce(for: scheduler.frames(3), scheduler: scheduler)
            .trace("results", to: log, scheduler: scheduler)
            .record(on: scheduler)
        scheduler.advance(by: scheduler.frames(2))
        let late = keys.trace("late", to: log, scheduler: scheduler).record(on: scheduler)
        scheduler.run()
        #expect(recorder.values == ["fo", "foc"])
        #expect(late.values == ["fo", "foc"])
        #expect(
            log.marbleChart(frame: scheduler.frameDuration) == """
                keys     -a-b------c|
                results  ------b----(c|)
                late     --^b------c|
                where a = "f", b = "fo", c = "foc"
                """)
        #expect(
            log.marbleChart(for: ["results", "keys"], frame: scheduler.frameDuration) == """
                results  ------b----(c|)
                keys     -a-b------c|
                where a = "f", b = "fo", c = "foc"
                """)
        // Each row, on its own, is what `expectMarbles` expects of its subscription.
        let replay = TestScheduler()
        let input = try replay.hot("-f-o------c|", values: ["f": "f", "o": "fo", "c": "foc"] as [Character: String])
        replay.advance(by: replay.frames(2))
        #expect(
            expectMarbles(
                input, "--^b------c|", values: ["a": "f", "b": "fo", "c": "foc"], on: replay))
    }

    // MARK: Timelines

    @Test func timelineShowsDemandAndCancellation() throws {
        let scheduler = TestScheduler()
        let log = TraceLog()
        let subject = PassthroughSubject<String, Never>()
        let recorder = subject.trace("keys", to: log, scheduler: scheduler).record(on: scheduler, demand: .max(1))
        scheduler.advance(by: .milliseconds(500))
        subject.send("focus")
        recorder.request(.unlimited)
        scheduler.advance(by: .seconds(10))
        recorder.cancel()
        #expect(
            log.timeline(for: "keys") == """
                   0.000 s  subscribe
                   0.000 s  request(1)
                   0.500 s  value "focus"
                   0.500 s  request(unlimited)
                  10.500 s  cancel
                """)
        #expect(log.description == log.timeline())
    }

    @Test func combinedTimelineNamesEachTap() throws {
        let scheduler = TestScheduler()
        let log = TraceLog()
        let keys = try scheduler.hot("-a-b|")
        let recorder = keys.trace("keys", to: log, scheduler: scheduler)
            .debounce(for: scheduler.frames(1), scheduler: scheduler)
            .trace("results", to: log, scheduler: scheduler)
            .record(on: scheduler)
        scheduler.run()
        #expect(recorder.values == ["a", "b"])
        let lines = log.timeline().split(separator: "\n").map(String.init)
        #expect(lines.first == "  0.000 s  keys     subscribe")
        #expect(lines.contains("  0.002 s  results  value \"a\""))
        #expect(lines.last == "  0.004 s  results  finished")
        #expect(log.timeline(for: ["results"]).split(separator: "\n").allSatisfy { $0.contains("results") })
    }

    @Test func removeAllForgetsTheEventsButNotTheNumbering() {
        let scheduler = TestScheduler()
        let log = TraceLog()
        let subject = PassthroughSubject<Int, Never>()
        let first = subject.trace("n", to: log, scheduler: scheduler).record()
        log.removeAll()
        #expect(log.events.isEmpty)
        #expect(log.origin == nil)
        scheduler.advance(by: .seconds(1))
        subject.send(1)
        let second = subject.trace("n", to: log, scheduler: scheduler).record()
        #expect(log.events.map(\.subscription) == [1, 2, 2])
        #expect(log.events.first?.time == .zero)
        withExtendedLifetime((first, second)) {}
    }

    @Test func aLogThatIsNotRecordingRecordsNothingAndPassesEverythingOn() {
        let scheduler = TestScheduler()
        let seen = Locked(0)
        let log = TraceLog { _ in seen.withLock { $0 += 1 } }
        log.isRecording = false
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.trace("n", to: log, scheduler: scheduler).record()
        subject.send(1)
        #expect(log.events.isEmpty)
        #expect(seen.withLock { $0 } == 0)
        log.isRecording = true
        scheduler.advance(by: .seconds(2))
        subject.send(2)
        subject.send(completion: .finished)
        #expect(recorder.values == [1, 2])
        #expect(log.events.map(\.kind) == [.value("2"), .finished])
        #expect(log.events.first?.time == .zero)  // time counts from the first event recorded
        #expect(log.events.first?.subscription == 1)
        #expect(seen.withLock { $0 } == 2)
    }
}
