// Written once, compiled twice: ConformanceOpenCombine/EventLog.swift is a symlink to this file.
#if CONFORMANCE_STREAMS
    import Streams
#else
    import OpenCombine
#endif

/// The event log of one run, shared by the subscriber at the end (`Probe`) and, when upstream events are
/// logged, the `Tap` right after the source.
///
/// Every line starts with the tick it happened at: `3 value 4`, `5 finished`, `0 upstream demand 2`.
/// Demand the pipeline gives its source is summed per tick until the next other line, so that asking with
/// `request(_:)` from inside `receive(_:)` and returning the same demand from `receive(_:)` (equivalent under
/// the contract) log the same line.
final class EventLog {
    private let clock: Clock
    private var entries: [String] = []
    private var pendingDemand: (tick: Int, demand: Subscribers.Demand)?

    init(clock: Clock) { self.clock = clock }

    /// Every line so far.
    var lines: [String] {
        flushDemand()
        return entries
    }

    /// Appends `event` at the current tick.
    func note(_ event: String) {
        flushDemand()
        entries.append("\(clock.tick) \(event)")
    }

    /// Adds `demand` that the pipeline gave its source (a request, or a demand returned for a value).
    func noteUpstreamDemand(_ demand: Subscribers.Demand) {
        guard demand != .none else { return }
        let tick = clock.tick
        if let pending = pendingDemand, pending.tick == tick {
            pendingDemand = (tick, pending.demand + demand)
        } else {
            flushDemand()
            pendingDemand = (tick, demand)
        }
    }

    private func flushDemand() {
        guard let (tick, demand) = pendingDemand else { return }
        pendingDemand = nil
        entries.append("\(tick) upstream demand \(demand.max.map(String.init) ?? "unlimited")")
    }
}
