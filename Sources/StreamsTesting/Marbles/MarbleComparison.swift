import Streams

/// The outcome of comparing what a publisher did with a marble diagram: whether they match, both timelines
/// as aligned diagrams, and an event-by-event list of the differences.
///
/// `expectMarbles` records its ``description`` as the test failure; use ``compareMarbles(_:_:values:error:on:subscription:)``
/// directly outside a test (a playground, a script).
///
/// ```
/// Marble diagrams differ (1 frame = 1 ms):
///   expected  --a--b--|
///   actual    --a-----b|
/// event by event:
///   frame 5: expected b, actual nothing
///   frame 8: expected |, actual b
///   frame 9: expected nothing, actual |
/// ```
public struct MarbleComparison: Sendable, CustomStringConvertible {
    /// Whether the publisher did exactly what the diagram says.
    public let matches: Bool
    /// The expected timeline, aligned with ``actualDiagram``.
    public let expectedDiagram: String
    /// What happened, aligned with ``expectedDiagram``.
    public let actualDiagram: String
    /// One line per frame where the two differ.
    public let differences: [String]
    /// Which characters stand for values that are not in `values:` (empty if none).
    public let legend: String
    /// The frame length the diagrams use.
    public let frame: Duration
    /// Whether some events fell between frames and the diagrams place them only approximately (the
    /// event-by-event list is exact).
    public let isApproximate: Bool

    /// `Marble diagrams match` or the full failure message.
    public var description: String {
        let header = matches ? "Marble diagrams match" : "Marble diagrams differ"
        var lines = [
            "\(header) (1 frame = \(MarbleTime.format(frame))\(isApproximate ? "; times between frames drawn approximately" : "")):",
            "  expected  \(expectedDiagram)",
            "  actual    \(actualDiagram)",
        ]
        if !legend.isEmpty { lines.append("  \(legend)") }
        if !differences.isEmpty {
            lines.append("event by event:")
            lines += differences.map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// Compares two timelines (times from the same zero).
    init<Output: Equatable, Failure: Error>(
        expected: [RecordedEvent<Output, Failure>], actual: [RecordedEvent<Output, Failure>],
        values: [Character: Output], frame: Duration
    ) {
        let keys = values.keys.sorted()
        var symbols = MarbleSymbols<Output>(
            lookup: { value in keys.first { values[$0] == value } }, reserved: Set(values.keys))
        symbols.reserveLiterals((expected + actual).compactMap(\.value))
        let expectedMarks = symbols.marks(for: expected)
        let actualMarks = symbols.marks(for: actual)
        let (diagrams, isApproximate) = MarbleRenderer(frame: frame).render([expectedMarks, actualMarks])
        expectedDiagram = diagrams[0]
        actualDiagram = diagrams[1]
        self.isApproximate = isApproximate
        self.frame = frame
        matches = expected == actual

        var differences: [String] = []
        if !matches {
            // One pass over both timelines, each sorted by time (stable: same-time events keep their order):
            // linear in the number of events, however many differ.
            let wanted = expected.sortedByTime()
            let got = actual.sortedByTime()
            var (i, j) = (0, 0)
            func describe(_ events: ArraySlice<RecordedEvent<Output, Failure>>) -> String {
                guard !events.isEmpty else { return "nothing" }
                return events.map { event in
                    switch event {
                    case .value(let value, _):
                        let symbol = String(symbols.symbol(for: value))
                        let text = String(describing: value)
                        return symbol == text ? symbol : "\(symbol) (\(String(reflecting: value)))"
                    case .finished: return "| (finished)"
                    case .failure(let error, _): return "# (\(error))"
                    }
                }.joined(separator: ", ")
            }
            while i < wanted.count || j < got.count {
                let time =
                    switch (wanted[i...].first?.time, got[j...].first?.time) {
                    case (let a?, let b?): min(a, b)
                    case (let a?, nil): a
                    case (nil, let b?): b
                    case (nil, nil): Duration.zero  // not reached: the loop runs while either has events
                    }
                let wantedEnd = wanted[i...].firstIndex { $0.time != time } ?? wanted.count
                let gotEnd = got[j...].firstIndex { $0.time != time } ?? got.count
                let wantedHere = wanted[i..<wantedEnd]
                let gotHere = got[j..<gotEnd]
                if !wantedHere.elementsEqual(gotHere) {
                    differences.append(
                        "\(MarbleTime.label(time, frame: frame)): expected \(describe(wantedHere)), "
                            + "actual \(describe(gotHere))")
                }
                (i, j) = (wantedEnd, gotEnd)
            }
        }
        self.differences = differences
        legend = symbols.legendText
    }
}

/// Subscribes to `publisher` on `scheduler`, plays the scheduler, and compares what arrived with `diagram`.
///
/// Frame 0 of `diagram` is the scheduler's time when this is called. The subscription starts then, or at the
/// `^` of `subscription` (a subscription diagram such as `"--^---!"`), and is cancelled at its `!`, if any.
/// The scheduler then runs until nothing is pending, but not past 1,000 frames after the diagram's last
/// event (so an endless timer cannot hang the test).
///
/// - Returns: the comparison; a ``MarbleComparison/matches`` of `false` carries the failure message. An
///   invalid diagram returns a failed comparison whose message is the ``MarbleError``.
///
/// ```swift
/// let comparison = compareMarbles(source.debounce(for: scheduler.frames(2), scheduler: scheduler),
///                                 "----c|", on: scheduler)
/// print(comparison)
/// ```
public func compareMarbles<P: Publisher>(
    _ publisher: P, _ diagram: String, values: [Character: P.Output] = [:], error: P.Failure? = nil,
    on scheduler: TestScheduler, subscription: String? = nil
) -> MarbleComparison where P.Output: Equatable {
    let expected: MarbleDiagram<P.Output, P.Failure>
    let period: SubscriptionPeriod?
    do {
        expected = try MarbleDiagram(diagram, values: values, error: error, frame: scheduler.frameDuration)
        period = try subscription.map { text throws(MarbleError) in
            try SubscriptionPeriod(text, frame: scheduler.frameDuration)
        }
    } catch {
        return MarbleComparison(invalid: error, frame: scheduler.frameDuration)
    }
    let origin = scheduler.now
    let recorder = TestRecorder<P.Output, P.Failure>(scheduler: scheduler)
    let subscribe = UncheckedBox { publisher.subscribe(recorder) }
    if let start = period?.subscribed, start > .zero {
        _ = scheduler.schedule(after: origin + start) { subscribe.value() }
    } else {
        subscribe.value()
    }
    if let end = period?.cancelled {
        let cancel = UncheckedBox { recorder.cancel() }
        _ = scheduler.schedule(after: origin + end) { cancel.value() }
    }
    let lastMark = max(expected.events.last?.time ?? .zero, period?.cancelled ?? .zero)
    scheduler.runUntilIdle(notAfter: origin + lastMark + scheduler.frames(1000))
    let actual = recorder.events.map { $0.shifted(by: .zero - origin.offset) }
    return MarbleComparison(expected: expected.events, actual: actual, values: values, frame: scheduler.frameDuration)
}

extension MarbleComparison {
    /// A failed comparison that reports an invalid diagram.
    init(invalid error: MarbleError, frame: Duration) {
        matches = false
        expectedDiagram = error.diagram
        actualDiagram = "(not run: the diagram is invalid)"
        differences = [error.description]
        legend = ""
        self.frame = frame
        isApproximate = false
    }
}

extension Array {
    /// The events in time order; events at the same time keep their order (the sort is stable).
    func sortedByTime<Output, Failure>() -> [RecordedEvent<Output, Failure>]
    where Element == RecordedEvent<Output, Failure> {
        sorted { $0.time < $1.time }
    }
}

extension RecordedEvent {
    /// The same event, `offset` later.
    func shifted(by offset: Duration) -> RecordedEvent {
        switch self {
        case .value(let value, let time): .value(value, at: time + offset)
        case .finished(let time): .finished(at: time + offset)
        case .failure(let error, let time): .failure(error, at: time + offset)
        }
    }
}

/// Carries non-`Sendable` test values into a scheduler action; every action runs on the thread that
/// advances the `TestScheduler`, so the value stays confined to that thread (in `compareMarbles`, the caller's
/// own, which runs `runUntilIdle`).
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
