/// An operator that delivers its upstream's events later, on a scheduler (`delay`, `receive(on:)`, `timeout`):
/// the one delivery loop they share.
///
/// The operator keeps its events in a ``TimingEventQueue`` under its `lock`, schedules one action per event, and
/// calls ``deliverNext()`` from that action (a closure that captures only the operator, so scheduling it allocates
/// nothing). The loop delivers every released event in order, one thread at a time, outside the lock; a value's
/// returned demand is requested upstream, and a completion releases the downstream first (so a cancel from inside
/// it, or a late action, finds nothing to deliver to).
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
    /// One event's action ran: delivers every event released so far that is still waiting, in order (or leaves them
    /// to the thread already delivering).
    @inlinable
    func deliverNext() {
        lock.lock()
        guard queue.releaseNext() else { return lock.unlock() }
        deliverLocked()
    }

    /// Releases every event up to `sequence` and delivers them (``TimingEventQueue/release(upTo:)``).
    @inlinable
    func deliverReleased(upTo sequence: UInt64) {
        lock.lock()
        guard queue.release(upTo: sequence) else { return lock.unlock() }
        deliverLocked()
    }

    /// The delivery loop, entered with `lock` held and the delivering turn taken; returns with the lock released.
    /// The downstream is read once: a cancel or a completion during a delivery sets it to `nil`, which the loop checks
    /// before each further event.
    @inlinable
    func deliverLocked() {
        guard let downstream else {
            queue.stopDelivering()
            return lock.unlock()
        }
        while let event = queue.next() {
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
            guard self.downstream != nil else {
                queue.stopDelivering()
                return lock.unlock()
            }
        }
        lock.unlock()
    }
}
