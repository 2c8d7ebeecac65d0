/// One subscriber's connection to a subject: its demand, and a serial delivery queue.
///
/// Delivery is serialized without holding a lock during the call: the thread that finds the conduit
/// idle becomes the deliverer and drains the queue; a `send` that arrives meanwhile (from another
/// thread, or re-entrantly from inside `receive(_:)`) only enqueues. Demand is checked when a value
/// is offered, so a value sent without demand is dropped (Passthrough) or kept as the latest
/// (CurrentValue, `keepsLatest`).
/// A subscriber's conduit as its subject (or share) stores it: the conduit's identity and two closures
/// bound to the concrete conduit.
///
/// The closures are created where the conduit's concrete type is known (in the subject's `@inlinable`
/// `attach`, specialised in client code), so delivering a value runs specialised code. Dispatching
/// through an overridden method of a generic class would instead run the unspecialised generic body,
/// measured at ~10,000 instructions per value, most of them generic-metadata look-ups.
@usableFromInline
struct ConduitEntry<Output, Failure: Error> {
    @usableFromInline
    let id: ObjectIdentifier
    @usableFromInline
    let offer: (Output) -> Void
    @usableFromInline
    let finish: (Subscribers.Completion<Failure>) -> Void
    /// The number of the first send this subscriber may see (sends are numbered by the subject), so a
    /// subscriber attached while earlier sends are still queued never receives them.
    @usableFromInline
    var firstSend: UInt64 = 0

    @inlinable
    init(
        id: ObjectIdentifier, offer: @escaping (Output) -> Void,
        finish: @escaping (Subscribers.Completion<Failure>) -> Void
    ) {
        self.id = id
        self.offer = offer
        self.finish = finish
    }
}

@usableFromInline
protocol ConduitParent: AnyObject, Sendable {
    associatedtype Output
    associatedtype Failure: Error
    /// Forgets the conduit with this identity (it was cancelled).
    func remove(_ conduit: ObjectIdentifier)
}

@usableFromInline
final class SubjectConduit<Parent: ConduitParent, Downstream: Subscriber>: Subscription, CustomStringConvertible,
    @unchecked Sendable
where Downstream.Input == Parent.Output, Downstream.Failure == Parent.Failure {
    @usableFromInline
    typealias Output = Parent.Output
    @usableFromInline
    typealias Failure = Parent.Failure

    @usableFromInline
    enum Event {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
    }

    @usableFromInline
    let lock = Lock()
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    @usableFromInline
    @exclusivity(unchecked)
    var parent: Parent?
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none
    /// True while one thread is delivering; starts true for the subscription handshake.
    @usableFromInline
    @exclusivity(unchecked)
    var isDelivering = true
    @usableFromInline
    @exclusivity(unchecked)
    var queue: [Event] = []
    @usableFromInline
    @exclusivity(unchecked)
    var queueHead = 0
    @usableFromInline
    @exclusivity(unchecked)
    var completionQueued = false
    /// CurrentValueSubject: the newest value not yet delivered for lack of demand.
    @usableFromInline
    @exclusivity(unchecked)
    var latest: Output?
    @usableFromInline
    let keepsLatest: Bool
    /// The name of the publisher this subscription belongs to, e.g. "PassthroughSubject" or "Share".
    @usableFromInline
    let description: String

    @inlinable
    init(parent: Parent, downstream: Downstream, keepsLatest: Bool, initial: Output?, description: String) {
        self.parent = parent
        self.downstream = downstream
        self.keepsLatest = keepsLatest
        self.latest = initial
        self.description = description
    }

    /// Sends the subscription downstream, then delivers whatever arrived meanwhile.
    @inlinable
    func start() {
        downstream?.receive(subscription: self)
        lock.lock()
        drain(first: nil)
    }

    /// The entry its parent stores.
    @inlinable
    var entry: ConduitEntry<Output, Failure> {
        ConduitEntry(id: ObjectIdentifier(self), offer: offer, finish: finish)
    }

    @inlinable
    func offer(_ value: Output) {
        lock.lock()
        guard downstream != nil, !completionQueued else { return lock.unlock() }
        guard demand > .none else {
            if keepsLatest { latest = value }
            return lock.unlock()
        }
        if demand != .unlimited { demand -= 1 }
        if isDelivering {
            queue.append(.value(value))
            return lock.unlock()
        }
        isDelivering = true
        drain(first: .value(value))
    }

    @inlinable
    func finish(_ completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard downstream != nil, !completionQueued else { return lock.unlock() }
        completionQueued = true
        parent = nil
        if isDelivering {
            queue.append(.completion(completion))
            return lock.unlock()
        }
        isDelivering = true
        drain(first: .completion(completion))
    }

    @inlinable
    func request(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        lock.lock()
        guard downstream != nil else { return lock.unlock() }
        demand += more
        if isDelivering { return lock.unlock() }
        isDelivering = true
        drain(first: nil)
    }

    @inlinable
    func cancel() {
        lock.lock()
        let parent = self.parent
        let released = (downstream, queue)
        downstream = nil
        self.parent = nil
        queue = []
        queueHead = 0
        latest = nil
        lock.unlock()
        _ = released
        parent?.remove(ObjectIdentifier(self))
    }

    /// Called with the lock held and `isDelivering == true`; delivers `first` and then the queue,
    /// releasing the lock around every call out. Returns with the lock released.
    @inlinable
    func drain(first: Event?) {
        var next = first
        while true {
            if next == nil { next = dequeue() }
            guard let event = next, let downstream else {
                isDelivering = false
                queue = []
                queueHead = 0
                lock.unlock()
                return
            }
            next = nil
            lock.unlock()
            switch event {
            case .value(let value):
                let more = downstream.receive(value)
                lock.lock()
                if more > .none { demand += more }
            case .completion(let completion):
                downstream.receive(completion: completion)
                lock.lock()
                let released = (self.downstream, queue)
                self.downstream = nil
                queue = []
                queueHead = 0
                latest = nil
                isDelivering = false
                lock.unlock()
                _ = released
                return
            }
        }
    }

    /// The next queued event, or the kept latest value if demand allows. Lock held.
    @inlinable
    func dequeue() -> Event? {
        if queueHead < queue.count {
            let event = queue[queueHead]
            queueHead += 1
            if queueHead == queue.count {
                queue.removeAll(keepingCapacity: true)
                queueHead = 0
            }
            return event
        }
        if keepsLatest, let value = latest, demand > .none, !completionQueued {
            latest = nil
            if demand != .unlimited { demand -= 1 }
            return .value(value)
        }
        return nil
    }
}
