/// The outcome of comparing a ``TestPublisher``'s subscription log with subscription diagrams.
///
/// ```
/// Subscriptions differ (1 frame = 1 ms):
///   expected  ^---!
///   actual    ^-----!
///   subscription 1: expected subscribed at frame 0, cancelled at frame 4;
///                   actual subscribed at frame 0, cancelled at frame 6
/// ```
public struct SubscriptionComparison: Sendable, CustomStringConvertible {
    /// Whether the log equals the diagrams, subscription by subscription.
    public let matches: Bool
    /// The expected subscriptions, one diagram each.
    public let expectedDiagrams: [String]
    /// The logged subscriptions, one diagram each.
    public let actualDiagrams: [String]
    /// One entry per subscription that differs.
    public let differences: [String]
    /// The frame length the diagrams use.
    public let frame: Duration

    /// `Subscriptions match` or the full failure message.
    public var description: String {
        var lines = ["Subscriptions \(matches ? "match" : "differ") (1 frame = \(MarbleTime.format(frame))):"]
        func block(_ title: String, _ diagrams: [String]) {
            if diagrams.isEmpty { lines.append("  \(title)(none)") }
            for (index, diagram) in diagrams.enumerated() {
                lines.append("  " + (index == 0 ? title : String(repeating: " ", count: title.count)) + diagram)
            }
        }
        block("expected  ", expectedDiagrams)
        block("actual    ", actualDiagrams)
        lines += differences.map { "  " + $0 }
        return lines.joined(separator: "\n")
    }

    init(expected: [SubscriptionPeriod], actual: [SubscriptionPeriod], frame: Duration) {
        self.frame = frame
        matches = expected == actual
        expectedDiagrams = expected.map { Self.render($0, frame: frame) }
        actualDiagrams = actual.map { Self.render($0, frame: frame) }
        var differences: [String] = []
        for index in 0..<max(expected.count, actual.count) where !matches {
            let wanted = index < expected.count ? Self.describe(expected[index], frame: frame) : "no subscription"
            let got = index < actual.count ? Self.describe(actual[index], frame: frame) : "no subscription"
            if wanted != got {
                differences.append("subscription \(index + 1): expected \(wanted); actual \(got)")
            }
        }
        self.differences = differences
    }

    init(invalid error: MarbleError, frame: Duration) {
        matches = false
        expectedDiagrams = [error.diagram]
        actualDiagrams = []
        differences = [error.description]
        self.frame = frame
    }

    private static func render(_ period: SubscriptionPeriod, frame: Duration) -> String {
        var marks = [MarbleRenderer.Mark(time: period.subscribed, symbol: "^")]
        if let cancelled = period.cancelled { marks.append(.init(time: cancelled, symbol: "!")) }
        // Start the line at zero so columns line up with the publisher's diagram.
        return MarbleRenderer(frame: frame).render([marks]).diagrams[0]
    }

    private static func describe(_ period: SubscriptionPeriod, frame: Duration) -> String {
        let start = "subscribed at \(MarbleTime.label(period.subscribed, frame: frame))"
        guard let cancelled = period.cancelled else { return start + ", never cancelled" }
        return start + ", cancelled at \(MarbleTime.label(cancelled, frame: frame))"
    }
}

/// Compares `publisher`'s subscription log with `diagrams`, one subscription diagram per subscription in
/// order (`^` subscribed, `!` cancelled; column 0 is the publisher's creation). No diagrams: expects that
/// nobody subscribed.
///
/// ```swift
/// print(compareSubscriptions(source, "^--!", "---^--"))
/// ```
public func compareSubscriptions<Output, Failure: Error>(
    _ publisher: TestPublisher<Output, Failure>, _ diagrams: [String]
) -> SubscriptionComparison {
    let frame = publisher.scheduler.frameDuration
    var expected: [SubscriptionPeriod] = []
    for diagram in diagrams {
        do {
            expected.append(try SubscriptionPeriod(diagram, frame: frame))
        } catch {
            return SubscriptionComparison(invalid: error, frame: frame)
        }
    }
    return SubscriptionComparison(expected: expected, actual: publisher.subscriptions, frame: frame)
}
