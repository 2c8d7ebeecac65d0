import Streams
import Testing

/// `SchedulerInstant` computes on `Duration.attoseconds` rather than through `Duration`'s own operators (which are
/// calls into the standard library): its arithmetic and order must be exactly `Duration`'s.
@Suite struct SchedulerInstantTests {
    /// Offsets at every scale: sub-nanosecond, negative, around a second, and far from the origin.
    static let offsets: [Duration] = [
        .zero, .nanoseconds(1), .nanoseconds(-1), Duration(attoseconds: 1), Duration(attoseconds: -7),
        .milliseconds(1), .milliseconds(-250), .seconds(1), .seconds(1) + Duration(attoseconds: 1),
        .seconds(-3) - .nanoseconds(5), .seconds(86_400 * 365 * 100), .seconds(-86_400 * 365 * 100),
    ]

    @Test func arithmeticIsDurationArithmetic() {
        for offset in Self.offsets {
            let instant = SchedulerInstant(offset: offset)
            for interval in Self.offsets {
                #expect((instant + interval).offset == offset + interval)
                #expect((instant - interval).offset == offset - interval)
                #expect(instant - SchedulerInstant(offset: interval) == offset - interval)
                var moved = instant
                moved += interval
                #expect(moved.offset == offset + interval)
            }
        }
    }

    @Test func orderAndEqualityAreDurations() {
        for lhs in Self.offsets {
            for rhs in Self.offsets {
                let (a, b) = (SchedulerInstant(offset: lhs), SchedulerInstant(offset: rhs))
                #expect((a < b) == (lhs < rhs))
                #expect((a == b) == (lhs == rhs))
                #expect(max(a, b).offset == max(lhs, rhs))
                if a == b { #expect(a.hashValue == b.hashValue) }
            }
        }
    }
}
