import Synchronization

/// Demand kept in an atomic word, as `Subscribers.Demand`'s raw value (`UInt.max` = unlimited): what the
/// lock-free links (`StageLink`, `UpstreamHandoff`, `ReplaceErrorLink`) and the subject conduits count.
extension Atomic where Value == UInt {
    /// Adds `demand`, saturating at unlimited (an unlimited count stays unlimited). Relaxed, or sequentially
    /// consistent where a link decides with it who goes on (the orderings must be constants, hence the flag).
    @inlinable
    @inline(__always)
    func addDemand(_ demand: Subscribers.Demand, sequentiallyConsistent: Bool = false) {
        var current = load(ordering: .relaxed)
        while current != .max {
            let next = (Subscribers.Demand(rawValue: current) + demand).rawValue
            let (exchanged, found) =
                sequentiallyConsistent
                ? compareExchange(expected: current, desired: next, ordering: .sequentiallyConsistent)
                : compareExchange(expected: current, desired: next, ordering: .relaxed)
            if exchanged { return }
            current = found
        }
    }

    /// One value delivered: one less outstanding, unless unlimited, and never below zero (an upstream that
    /// sends beyond demand does not wrap the count).
    @inlinable
    @inline(__always)
    func takeOneDemand() {
        var current = load(ordering: .relaxed)
        while current != .max && current > 0 {
            let (exchanged, found) = compareExchange(expected: current, desired: current - 1, ordering: .relaxed)
            if exchanged { return }
            current = found
        }
    }
}
