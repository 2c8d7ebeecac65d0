/// The shared state of a subject: its conduits in subscription order and its completion.
///
/// Sends are serialized for the whole subject: a `send` that arrives while another is being delivered
/// (re-entrantly from a subscriber, or from another thread) is queued and delivered by the thread
/// already delivering, after it has offered the current value to every subscriber. So every subscriber
/// sees every value in the same order.
@usableFromInline
final class SubjectCore<Output, Failure: Error>: ConduitParent, @unchecked Sendable {
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    @exclusivity(unchecked)
    var conduits: ContiguousArray<ConduitEntry<Output, Failure>> = []
    @usableFromInline
    @exclusivity(unchecked)
    var completion: Subscribers.Completion<Failure>?
    @usableFromInline
    @exclusivity(unchecked)
    var upstreams: [any Subscription] = []
    /// CurrentValueSubject's value (kept under the same lock as the conduits, so a new subscriber
    /// gets exactly the value that preceded its attachment); `nil` for PassthroughSubject.
    @usableFromInline
    @exclusivity(unchecked)
    var current: Output?
    /// The number the next `send` gets; conduits remember it when they attach.
    @usableFromInline
    @exclusivity(unchecked)
    var nextSend: UInt64 = 0
    @usableFromInline
    @exclusivity(unchecked)
    var isSending = false
    @usableFromInline
    @exclusivity(unchecked)
    var pending: [SubjectEvent<Output, Failure>] = []
    @usableFromInline
    @exclusivity(unchecked)
    var pendingHead = 0

    @inlinable
    init(current: Output?) { self.current = current }

    @inlinable
    func attach<Downstream: Subscriber>(_ downstream: Downstream)
    where Downstream.Input == Output, Downstream.Failure == Failure {
        lock.lock()
        let conduit = SubjectConduit(
            parent: self, downstream: downstream, keepsLatest: current != nil, initial: current,
            description: current != nil ? "CurrentValueSubject" : "PassthroughSubject")
        if let completion {
            lock.unlock()
            downstream.receive(subscription: Subscriptions.empty)
            downstream.receive(completion: completion)
            return
        }
        var entry = conduit.entry
        entry.firstSend = nextSend
        conduits.append(entry)
        lock.unlock()
        conduit.start()
    }

    @inlinable
    func send(_ value: Output) {
        lock.lock()
        guard completion == nil else { return lock.unlock() }
        if current != nil { current = value }
        let number = nextSend
        nextSend &+= 1
        if isSending {
            pending.append(.value(value, number: number))
            return lock.unlock()
        }
        isSending = true
        let targets = conduits
        lock.unlock()
        for conduit in targets { conduit.offer(value) }
        drainPending()
    }

    @inlinable
    func send(completion newCompletion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard completion == nil else { return lock.unlock() }
        completion = newCompletion
        if isSending {
            pending.append(.completion(newCompletion))
            return lock.unlock()
        }
        isSending = true
        lock.unlock()
        complete(newCompletion)
        drainPending()
    }

    /// Delivers what was queued while this thread was sending; clears `isSending` when done.
    @inlinable
    func drainPending() {
        while true {
            lock.lock()
            guard pendingHead < pending.count else {
                pending.removeAll(keepingCapacity: true)
                pendingHead = 0
                isSending = false
                return lock.unlock()
            }
            let event = pending[pendingHead]
            pendingHead += 1
            let targets = conduits
            lock.unlock()
            switch event {
            case .value(let value, let number):
                for conduit in targets where conduit.firstSend <= number { conduit.offer(value) }
            case .completion(let completion):
                complete(completion)
            }
        }
    }

    /// Detaches every conduit and upstream, then finishes the conduits. Called while sending.
    @inlinable
    func complete(_ completion: Subscribers.Completion<Failure>) {
        lock.lock()
        let targets = conduits
        conduits = []
        let upstreams = self.upstreams
        self.upstreams = []
        lock.unlock()
        _ = upstreams
        for conduit in targets { conduit.finish(completion) }
    }

    @usableFromInline
    func send(subscription: any Subscription) {
        lock.lock()
        guard completion == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstreams.append(subscription)
        lock.unlock()
        subscription.request(.unlimited)
    }

    @usableFromInline
    func remove(_ conduit: ObjectIdentifier) {
        lock.lock()
        if let index = conduits.firstIndex(where: { $0.id == conduit }) { conduits.remove(at: index) }
        lock.unlock()
    }

    @usableFromInline
    var subscriberCount: Int { lock.withLock { conduits.count } }
}

@usableFromInline
enum SubjectEvent<Output, Failure: Error> {
    case value(Output, number: UInt64)
    case completion(Subscribers.Completion<Failure>)
}
