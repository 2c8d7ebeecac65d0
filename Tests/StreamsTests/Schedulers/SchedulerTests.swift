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

/// The `Scheduler` protocol's default: a scheduler that writes only `schedule(after:)` gets `schedule(afterDelay:)`
/// as "after `now` plus the delay", read when the call is made.
@Suite struct SchedulerDefaultsTests {
    /// Writes only the required deadline form and records the deadlines it is given; its clock is set by the test.
    final class DeadlineRecorder: Scheduler, @unchecked Sendable {
        var now: SchedulerInstant = .zero
        var deadlines: [SchedulerInstant] = []
        func schedule(_ action: @escaping @Sendable () -> Void) { action() }
        func schedule(after deadline: SchedulerInstant, _ action: @escaping @Sendable () -> Void) -> any Cancellable {
            deadlines.append(deadline)
            return AnyCancellable {}
        }
    }

    @Test func aDelayIsADeadlineOfNowPlusTheDelay() {
        let scheduler = DeadlineRecorder()
        _ = scheduler.schedule(afterDelay: .milliseconds(300)) {}
        scheduler.now = .zero + .seconds(2)
        _ = scheduler.schedule(afterDelay: .milliseconds(-5)) {}
        let expected: [SchedulerInstant] = [
            SchedulerInstant.zero + Duration.milliseconds(300),
            SchedulerInstant.zero + Duration.seconds(2) - Duration.milliseconds(5),
        ]
        #expect(scheduler.deadlines == expected)
    }
}
