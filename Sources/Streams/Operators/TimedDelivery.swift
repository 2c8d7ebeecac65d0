/// An operator that delivers its upstream's events later, on a scheduler (`delay`, `receive(on:)`, `timeout`):
/// the one delivery loop they share.
///
/// The operator keeps its events in a ``TimingEventQueue`` under its `lock`, schedules one action per event, and
/// calls ``deliverReleased(upTo:)`` from that action. The loop delivers every released event in order, one
/// thread at a time, outside the lock; a value's returned demand is requested upstream, and a completion
/// releases the downstream first (so a cancel from inside it, or a late action, finds nothing to deliver to).
@usableFromInline
protocol TimedDelivery: AnyObject {
    associatedtype Downstream: Subscriber
    /// Guards `downstream` and `queue`.
    var lock: Lock { get }
    /// `nil` once completed or cancelled.
    var downstream: Downstream? { get set }
    var queue: TimingEventQueue<Downstream.Input, Downstream.Failure> { get set }
    /// The upstream, asked for the demand a delivered value returns.
    var link: UpstreamLink { get }
}

extension TimedDelivery {
    /// The action of event `sequence` ran: delivers every event up to it that is still waiting, in order (or
    /// leaves them to the thread already delivering).
    @inlinable
    func deliverReleased(upTo sequence: UInt64) {
        lock.lock()
        deliverReleasedLocked(upTo: sequence)
    }

    /// ``deliverReleased(upTo:)`` with `lock` already held (an operator's action that updates its own state
    /// first, in the same critical section); returns with it released.
    @inlinable
    func deliverReleasedLocked(upTo sequence: UInt64) {
        guard queue.release(upTo: sequence) else { return lock.unlock() }
        while true {
            guard let downstream else {
                queue.stopDelivering()
                return lock.unlock()
            }
            guard let event = queue.next() else { return lock.unlock() }
            lock.unlock()
            switch event {
            case .value(let value):
                let more = downstream.receive(value)
                if more > .none { link.request(more) }
            case .completion(let completion):
                lock.withLock { self.downstream = nil }
                downstream.receive(completion: completion)
            }
            lock.lock()
        }
    }
}
