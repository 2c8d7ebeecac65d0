import ConformanceModel
import OpenCombine

/// Virtual time for the OpenCombine side: ``VirtualScheduler``, one tick a unit.
final class Clock {
    let scheduler = VirtualScheduler()

    /// The current tick.
    var tick: Int { scheduler.now.tick }

    /// An interval of `ticks`.
    func interval(_ ticks: Int) -> VirtualScheduler.SchedulerTimeType.Stride { .init(ticks) }

    /// Runs `action` at `tick`, after what is already scheduled for that tick.
    func at(_ tick: Int, _ action: @escaping () -> Void) {
        scheduler.schedule(after: .init(tick: tick), action)
    }

    /// An interval (`measureInterval`'s value) in ticks.
    func ticks(_ interval: VirtualScheduler.SchedulerTimeType.Stride) -> Int { interval.ticks }

    /// What must live as long as the run (a connectable's connection).
    private var kept: [Any] = []

    /// Keeps `object` alive until the run ends.
    func keep(_ object: Any) { kept.append(object) }

    /// Runs everything due up to `tick`.
    func run(until tick: Int) { scheduler.advance(to: tick) }
}
