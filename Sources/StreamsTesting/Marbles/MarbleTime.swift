/// Conversions between virtual time and frames, and readable time labels.
enum MarbleTime {
    /// `duration` in attoseconds (exact).
    static func attoseconds(_ duration: Duration) -> Int128 {
        let (seconds, attoseconds) = duration.components
        return Int128(seconds) * 1_000_000_000_000_000_000 + Int128(attoseconds)
    }

    /// How many whole frames `duration` is, or `nil` if it is not a whole number of frames.
    static func wholeFrames(_ duration: Duration, frame: Duration) -> Int? {
        let length = attoseconds(frame)
        guard length > 0 else { return nil }
        let (quotient, remainder) = attoseconds(duration).quotientAndRemainder(dividingBy: length)
        guard remainder == 0, let frames = Int(exactly: quotient) else { return nil }
        return frames
    }

    /// E.g. `5 ms`, `1.5 ms`, `2 s`, `-3 ms`.
    static func format(_ duration: Duration) -> String {
        let total = attoseconds(duration)
        let perMillisecond: Int128 = 1_000_000_000_000_000
        if total % (perMillisecond * 1000) == 0, total != 0 {
            return "\(total / (perMillisecond * 1000)) s"
        }
        if total % perMillisecond == 0 { return "\(total / perMillisecond) ms" }
        let milliseconds = Double(total) / Double(perMillisecond)
        return "\(milliseconds) ms"
    }

    /// E.g. `frame 5 (5 ms)`, or `3.5 ms` when the time is not a whole frame.
    static func label(_ time: Duration, frame: Duration) -> String {
        guard let frames = wholeFrames(time, frame: frame) else { return format(time) }
        return frame == .milliseconds(1) ? "frame \(frames)" : "frame \(frames) (\(format(time)))"
    }
}
