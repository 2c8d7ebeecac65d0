/// The shared state of a subject: its conduits in subscription order and its completion.
@usableFromInline
final class SubjectCore<Output, Failure: Error>: ConduitParent, @unchecked Sendable {
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    var conduits: ContiguousArray<ConduitBase<Output, Failure>> = []
    @usableFromInline
    var completion: Subscribers.Completion<Failure>?
    @usableFromInline
    var upstreams: [any Subscription] = []
    /// CurrentValueSubject's value (kept under the same lock as the conduits, so a new subscriber
    /// gets exactly the value that preceded its attachment); `nil` for PassthroughSubject.
    @usableFromInline
    var current: Output?

    @inlinable
    init(current: Output?) { self.current = current }

    @inlinable
    func attach<Downstream: Subscriber>(_ downstream: Downstream)
    where Downstream.Input == Output, Downstream.Failure == Failure {
        lock.lock()
        let conduit = SubjectConduit(
            parent: self, downstream: downstream, keepsLatest: current != nil, initial: current)
        if let completion {
            lock.unlock()
            downstream.receive(subscription: Subscriptions.empty)
            downstream.receive(completion: completion)
            return
        }
        conduits.append(conduit)
        lock.unlock()
        conduit.start()
    }

    @inlinable
    func send(_ value: Output) {
        lock.lock()
        guard completion == nil else { return lock.unlock() }
        if current != nil { current = value }
        let targets = conduits
        lock.unlock()
        for conduit in targets { conduit.offer(value) }
    }

    @inlinable
    func send(completion newCompletion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard completion == nil else { return lock.unlock() }
        completion = newCompletion
        let targets = conduits
        conduits = []
        let upstreams = self.upstreams
        self.upstreams = []
        lock.unlock()
        _ = upstreams
        for conduit in targets { conduit.finish(newCompletion) }
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
    func remove(_ conduit: ConduitBase<Output, Failure>) {
        lock.lock()
        if let index = conduits.firstIndex(where: { $0 === conduit }) { conduits.remove(at: index) }
        lock.unlock()
    }

    @usableFromInline
    var subscriberCount: Int { lock.withLock { conduits.count } }
}
