/// Conversions between virtual time and frames, and readable time labels — exact, never through floating
/// point, so a rendered time progression parses back to the very same time.
enum MarbleTime {
    /// Attoseconds in one second.
    static let perSecond: Int128 = 1_000_000_000_000_000_000
    /// Attoseconds in one millisecond.
    static let perMillisecond: Int128 = 1_000_000_000_000_000

    /// The latest time a diagram reaches, and the longest time progression: `Int64.max` seconds (about 292
    /// billion years), the most a `Duration`'s seconds component holds. Beyond it a diagram is rejected.
    static let longest: Int128 = Int128(Int64.max) * perSecond

    /// `duration` in attoseconds (exact).
    static func attoseconds(_ duration: Duration) -> Int128 {
        let (seconds, attoseconds) = duration.components
        return Int128(seconds) * perSecond + Int128(attoseconds)
    }

    /// The duration of `attoseconds` (which must be within ±``longest``).
    static func duration(attoseconds: Int128) -> Duration {
        let (seconds, remainder) = attoseconds.quotientAndRemainder(dividingBy: perSecond)
        return Duration(secondsComponent: Int64(seconds), attosecondsComponent: Int64(remainder))
    }

    /// How many whole frames `duration` is, or `nil` if it is not a whole number of frames.
    static func wholeFrames(_ duration: Duration, frame: Duration) -> Int? {
        let length = attoseconds(frame)
        guard length > 0 else { return nil }
        let (quotient, remainder) = attoseconds(duration).quotientAndRemainder(dividingBy: length)
        guard remainder == 0, let frames = Int(exactly: quotient) else { return nil }
        return frames
    }

    /// E.g. `5 ms`, `1.5 ms`, `2 s`, `-3 ms`, `0.000000000000001 ms` (exact).
    static func format(_ duration: Duration) -> String {
        format(attoseconds: attoseconds(duration), separator: " ")
    }

    /// A time progression's word for `attoseconds` (positive): `250ms`, `2s`, `1.5ms`, exactly.
    static func progression(attoseconds: Int128) -> String {
        format(attoseconds: attoseconds, separator: "")
    }

    private static func format(attoseconds total: Int128, separator: String) -> String {
        if total < 0 { return "-" + format(attoseconds: 0 - total, separator: separator) }
        if total % perSecond == 0, total != 0 { return "\(total / perSecond)\(separator)s" }
        let (whole, fraction) = total.quotientAndRemainder(dividingBy: perMillisecond)
        guard fraction != 0 else { return "\(whole)\(separator)ms" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 15 - digits.count) + digits
        while digits.last == "0" { digits.removeLast() }
        return "\(whole).\(digits)\(separator)ms"
    }

    /// E.g. `frame 5 (5 ms)`, or `3.5 ms` when the time is not a whole frame.
    static func label(_ time: Duration, frame: Duration) -> String {
        guard let frames = wholeFrames(time, frame: frame) else { return format(time) }
        return frame == .milliseconds(1) ? "frame \(frames)" : "frame \(frames) (\(format(time)))"
    }
}
