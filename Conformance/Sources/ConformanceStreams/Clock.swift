import ConformanceModel
import Streams
import StreamsTesting

/// Virtual time for the Streams side: a `TestScheduler`, one tick a millisecond.
final class Clock {
    let scheduler = TestScheduler()

    /// The current tick.
    var tick: Int {
        let (seconds, attoseconds) = scheduler.now.offset.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    /// An interval of `ticks`.
    func interval(_ ticks: Int) -> Duration { .milliseconds(ticks) }

    /// Runs `action` at `tick`, after what is already scheduled for that tick.
    func at(_ tick: Int, _ action: @escaping () -> Void) {
        let box = UncheckedAction(action)
        _ = scheduler.schedule(after: .zero + .milliseconds(tick)) { box.action() }
    }

    /// An interval (`measureInterval`'s value) in ticks.
    func ticks(_ interval: Duration) -> Int {
        let (seconds, attoseconds) = interval.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    /// What must live as long as the run (a connectable's connection).
    private var kept: [Any] = []

    /// Keeps `object` alive until the run ends.
    func keep(_ object: Any) { kept.append(object) }

    /// Runs everything due up to `tick`.
    func run(until tick: Int) { scheduler.advance(to: .zero + .milliseconds(tick)) }
}

/// A closure handed to the scheduler: everything runs on one thread, inside `advance`, so no two calls overlap.
struct UncheckedAction: @unchecked Sendable {
    let action: () -> Void
    init(_ action: @escaping () -> Void) { self.action = action }
}
