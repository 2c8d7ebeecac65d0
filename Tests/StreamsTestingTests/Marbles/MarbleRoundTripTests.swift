import Streams
import Testing

@testable import StreamsTesting

private struct Failed: Error, Equatable {}

/// A small deterministic generator (SplitMix64), so the fuzz test is the same on every run.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A rendered diagram must parse back to the times and marks it was rendered from (unless the renderer says
/// it is approximate: two times within one frame).
@Suite struct MarbleRoundTripTests {
    private typealias Mark = MarbleRenderer.Mark

    /// Parses `diagram` and returns its events as marks (`|`, `#` or the value's character).
    private func parsed(_ diagram: String, symbols: Set<Character>, frame: Duration) throws -> [Mark] {
        let values = Dictionary(uniqueKeysWithValues: symbols.map { ($0, String($0)) })
        let events = try MarbleDiagram<String, Failed>(diagram, values: values, error: Failed(), frame: frame).events
        return events.map { event in
            switch event {
            case .value(let value, let time): Mark(time: time, symbol: value)
            case .finished(let time): Mark(time: time, symbol: "|")
            case .failure(_, let time): Mark(time: time, symbol: "#")
            }
        }
    }

    private func same(_ a: [Mark], _ b: [Mark]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.time == $1.time && $0.symbol == $1.symbol }
    }

    private func roundTrip(_ lines: [[Mark]], frame: Duration, symbols: Set<Character>) throws -> Bool? {
        let (diagrams, isApproximate) = MarbleRenderer(frame: frame).render(lines)
        guard !isApproximate else { return nil }
        for (line, diagram) in zip(lines, diagrams) {
            let back = try parsed(diagram, symbols: symbols, frame: frame)
            guard same(back, line) else {
                Issue.record("\(diagram) parsed as \(back.map { "\($0.symbol)@\($0.time)" }), rendered from \(line.map { "\($0.symbol)@\($0.time)" })")
                return false
            }
        }
        return true
    }

    @Test func aLongProgressionRendersWithinTheParsersLimit() throws {
        let frame = Duration.milliseconds(1)
        let marks = try parsed("-- 1000000s |", symbols: [], frame: frame)
        #expect(try roundTrip([marks], frame: frame, symbols: []) == true)
        let far = [Mark(time: .seconds(Int64.max / 2), symbol: "a"), Mark(time: .seconds(Int64.max), symbol: "|")]
        #expect(try roundTrip([far], frame: frame, symbols: ["a"]) == true)
    }

    @Test func valuesNamedLikeATimeProgressionStayValues() throws {
        let frame = Duration.milliseconds(1)
        let marks = ["3", "m", "s"].enumerated().map { Mark(time: .milliseconds($0.offset), symbol: $0.element) }
        let (diagrams, _) = MarbleRenderer(frame: frame).render([marks])
        #expect(diagrams == ["(3)ms"])
        #expect(try roundTrip([marks], frame: frame, symbols: ["3", "m", "s"]) == true)
        // After a time progression, and in a second line padded by the first's group.
        let later = [Mark(time: .seconds(5), symbol: "1"), Mark(time: .seconds(5) + frame, symbol: "s")]
        #expect(try roundTrip([later], frame: frame, symbols: ["1", "s"]) == true)
        let padded = [
            [Mark(time: .zero, symbol: "a"), Mark(time: .zero, symbol: "b"), Mark(time: frame, symbol: "c")],
            [Mark(time: .zero, symbol: "4"), Mark(time: frame, symbol: "2"), Mark(time: frame * 2, symbol: "s")],
        ]
        #expect(try roundTrip(padded, frame: frame, symbols: ["a", "b", "c", "4", "2", "s"]) == true)
    }

    @Test func attosecondFramesAndOddTimesAreExact() throws {
        let atto = Duration(secondsComponent: 0, attosecondsComponent: 1)
        let marks = [Mark(time: atto * 3, symbol: "a"), Mark(time: .seconds(2) + atto * 7, symbol: "b")]
        #expect(try roundTrip([marks], frame: atto, symbols: ["a", "b"]) == true)
        let odd = [Mark(time: .nanoseconds(1_234_567), symbol: "a"), Mark(time: .milliseconds(900), symbol: "|")]
        #expect(try roundTrip([odd], frame: .milliseconds(1), symbols: ["a"]) == true)
    }

    @Test func timesBeforeZeroRenderWithTheZeroColumn() throws {
        let frame = Duration.milliseconds(1)
        let marks = [Mark(time: .milliseconds(-2), symbol: "a"), Mark(time: .zero, symbol: "b")]
        let (diagrams, _) = MarbleRenderer(frame: frame).render([marks])
        #expect(diagrams == ["a-(^b)"])
        #expect(try roundTrip([marks], frame: frame, symbols: ["a", "b"]) == true)
    }

    /// Seeded, bounded fuzz: random timelines (groups, dashes, long and fractional gaps, huge times, times before
    /// zero, 1-attosecond to 1-second frames, value names like `3`, `m`, `s`, `.`) render and parse back.
    @Test func renderedDiagramsAlwaysParseBack() throws {
        var random = SeededGenerator(state: 0x5EED_4A11)
        let frames: [Duration] = [
            .milliseconds(1), Duration(secondsComponent: 0, attosecondsComponent: 1), .nanoseconds(7), .seconds(1),
            .microseconds(250), Duration(secondsComponent: 0, attosecondsComponent: 3),
        ]
        let alphabet = Array("ab3m0s9.xβ")
        var checked = 0
        for _ in 0..<1500 {
            let frame = frames.randomElement(using: &random) ?? .milliseconds(1)
            let frameLength = MarbleTime.attoseconds(frame)
            var lines: [[Mark]] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                var time: Int128 =
                    Bool.random(using: &random) && Int.random(in: 0..<4, using: &random) == 0
                    ? -frameLength * Int128(Int.random(in: 1...40, using: &random)) : 0
                var line: [Mark] = []
                for index in 0..<Int.random(in: 0...8, using: &random) {
                    if index > 0 || Bool.random(using: &random) {
                        switch Int.random(in: 0..<10, using: &random) {
                        case 0: break  // same time: a group
                        case 1...5: time += frameLength * Int128(Int.random(in: 1...3, using: &random))
                        case 6: time += frameLength * Int128(Int.random(in: 25...45, using: &random))
                        case 7: time += frameLength + Int128(UInt64.random(in: 1...1_000_000_000_000_000_000, using: &random))
                        case 8: time += Int128(UInt64.random(in: 0...UInt64.max, using: &random)) * 1_000_000_000
                        default: time += MarbleTime.longest / Int128(Int.random(in: 8...64, using: &random))
                        }
                    }
                    guard time <= MarbleTime.longest / 2 else { break }
                    let symbol = String(alphabet.randomElement(using: &random) ?? "a")
                    line.append(Mark(time: MarbleTime.duration(attoseconds: time), symbol: symbol))
                }
                if Bool.random(using: &random) {
                    let end = line.last?.time ?? .zero
                    line.append(Mark(time: end + frame * Int.random(in: 0...2, using: &random), symbol: Bool.random(using: &random) ? "|" : "#"))
                }
                lines.append(line)
            }
            if try roundTrip(lines, frame: frame, symbols: Set(alphabet)) != nil { checked += 1 }
        }
        #expect(checked > 700)  // most timelines are exact; the rest are (rightly) marked approximate
    }

    /// The event-by-event list is built in one pass: 8,000 mismatching events (16,000 differing frames) are
    /// compared at once, each frame reported once and in order.
    @Test func compareMarblesListsManyMismatchesInOnePass() throws {
        let scheduler = TestScheduler()
        let count = 8_000
        let source = try scheduler.cold("-" + String(repeating: "a-", count: count))
        let comparison = compareMarbles(source, String(repeating: "a-", count: count), on: scheduler)
        #expect(!comparison.matches)
        #expect(comparison.differences.count == 2 * count)
        #expect(comparison.differences.first == "frame 0: expected a, actual nothing")
        #expect(comparison.differences.dropFirst().first == "frame 1: expected nothing, actual a")
        #expect(comparison.differences.last == "frame \(2 * count - 1): expected nothing, actual a")
    }

    @Test func keysThatDiagramsReadAsSyntaxAreNotUsedAsSymbols() throws {
        let scheduler = TestScheduler()
        let recorder = TestRecorder<Int, Never>(scheduler: scheduler)
        let subject = PassthroughSubject<Int, Never>()
        subject.subscribe(recorder)
        subject.send(10)
        let text = recorder.marbles(values: ["-": 10])
        #expect(text == "A  where A = 10")
    }
}
