/// An operator that delivers its upstream's events later, on a scheduler (`delay`, `receive(on:)`, `timeout`):
/// the one delivery loop they share.
///
/// The operator keeps its events in a ``TimingEventQueue`` under its link's lock, schedules one action per event, and
/// calls ``deliverNext()`` from that action (a closure that captures only the operator, so scheduling it allocates
/// nothing). The loop delivers every released event in order, one thread at a time, outside the lock; a value's
/// returned demand is requested upstream, and a completion releases the downstream first (so a cancel from inside
/// it, or a late action, finds nothing to deliver to).
@usableFromInline
protocol TimedDelivery: AnyObject {
    associatedtype Downstream: Subscriber
    /// `nil` once completed or cancelled. Guarded by `link`'s lock.
    var downstream: Downstream? { get set }
    /// Guarded by `link`'s lock.
    var queue: TimingEventQueue<Downstream.Input, Downstream.Failure> { get set }
    /// The upstream, asked for the demand a delivered value returns; its lock guards `downstream` and `queue`.
    var link: UpstreamLink { get }
}

extension TimedDelivery {
    /// One event's action ran: delivers every event released so far that is still waiting, in order (or leaves them
    /// to the thread already delivering).
    @inlinable
    func deliverNext() {
        link.lock()
        guard queue.releaseNext() else { return link.unlock() }
        deliverLocked()
    }

    /// Releases every event up to `sequence` and delivers them (``TimingEventQueue/release(upTo:)``).
    @inlinable
    func deliverReleased(upTo sequence: UInt64) {
        link.lock()
        guard queue.release(upTo: sequence) else { return link.unlock() }
        deliverLocked()
    }

    /// The delivery loop, entered with the link's lock held and the delivering turn taken; returns with the lock
    /// released. The downstream is read once: a cancel or a completion during a delivery sets it to `nil`, which the
    /// loop checks before each further event.
    @inlinable
    func deliverLocked() {
        guard let downstream else {
            queue.stopDelivering()
            return link.unlock()
        }
        while let event = queue.next() {
            link.unlock()
            switch event {
            case .value(let value):
                let more = downstream.receive(value)
                if more > .none { link.request(more) }
            case .completion(let completion):
                link.withLock { self.downstream = nil }
                downstream.receive(completion: completion)
            }
            link.lock()
            guard self.downstream != nil else {
                queue.stopDelivering()
                return link.unlock()
            }
        }
        link.unlock()
    }
}
