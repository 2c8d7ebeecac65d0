extension Publisher where Output: Equatable {
    /// Republishes a value only if it differs from the previous value published.
    ///
    /// - Demand: a dropped duplicate gives its demand back upstream (asks for one more).
    ///
    /// ```swift
    /// let c = [1, 1, 2, 2, 1].publisher.removeDuplicates().sink { print($0) }   // 1 2 1
    /// ```
    @inlinable
    public consuming func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        removeDuplicates(by: ==)
    }
}

extension Publisher {
    /// Republishes a value only if `predicate(previous, value)` is `false`, where `previous` is the
    /// last value *published* (as in Combine, a dropped duplicate does not become `previous`).
    ///
    /// - Demand: a dropped duplicate gives its demand back upstream (asks for one more).
    /// - Threading: `predicate` runs on the upstream's thread, never under a lock.
    ///
    /// ```swift
    /// let c = names.removeDuplicates { $0.lowercased() == $1.lowercased() }.sink { print($0) }
    /// ```
    @inlinable
    public consuming func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool)
        -> Publishers.RemoveDuplicates<Self>
    {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/removeDuplicates()`` and ``Publisher/removeDuplicates(by:)``.
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose duplicates are removed.
        public let upstream: Upstream
        /// Returns `true` when the second value duplicates the first.
        public let predicate: (Output, Output) -> Bool

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber`.
        @inlinable
        public consuming func receive<S: Subscriber>(subscriber: consuming S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: RemoveDuplicatesInner<S, S.Input?, S?>(downstream: subscriber, predicate: predicate))
        }
    }
}

@usableFromInline
final class RemoveDuplicatesInner<Downstream: Subscriber, Previous: OptionalSlot, Slot: OptionalSlot>: Subscriber,
    Subscription, CustomStringConvertible, @unchecked Sendable
where Previous.Wrapped == Downstream.Input, Slot.Wrapped == Downstream {
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let link = UpstreamLink()
    /// The link's mutex, which also guards `downstream` and `predicate` (one allocation, not two). Never
    /// held while calling a method of `link`.
    @inlinable
    var lock: Locked<UpstreamLink.State> { link.lock }
    // `downstream` and `predicate` are guarded by `lock`. The subscriber is a `Downstream?` typed by the
    // generic parameter `Slot`, so `cancel` and `deinit`, which run unspecialised, clear it without a
    // metadata lookup (see `OptionalSlot`).
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Slot
    @usableFromInline
    @exclusivity(unchecked)
    var predicate: ((Input, Input) -> Bool)?
    /// Touched only by `receive(_:)`, which the upstream calls serially; released with the subscription.
    /// `Input?` (see ``OptionalSlot``), so `deinit` destroys it without a metadata lookup.
    @usableFromInline
    @exclusivity(unchecked)
    var previous: Previous = nil

    @inlinable
    init(downstream: Downstream, predicate: @escaping (Input, Input) -> Bool) {
        self.downstream = nil
        self.downstream.wrapped = downstream
        self.predicate = predicate
    }

    @usableFromInline
    var description: String { "RemoveDuplicates" }

    @inlinable
    func receive(subscription: any Subscription) {
        var downstream: Downstream?
        guard link.attach(subscription, whileLocked: { downstream = self.downstream.wrapped }) else { return }
        downstream?.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard let downstream = downstream.wrapped, let predicate else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        if let previous = previous.wrapped, predicate(previous, input) { return .max(1) }
        lock.lock()
        let cancelled = self.downstream.wrapped == nil
        lock.unlock()
        if cancelled { return .none }
        previous.wrapped = input
        return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        release().wrapped?.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) { link.request(demand) }

    @inlinable
    func cancel() {
        // One critical section ends the link and takes the subscriber and the closure; they are released
        // after it, once the upstream is cancelled. Runs unspecialised (through `any Subscription`), so it
        // only moves values of the class's own generic parameters and closures: no metadata lookups.
        var released: Slot = nil
        var closure = Optional<(Input, Input) -> Bool>.none
        _ = link.finishAndCancel {
            swap(&released, &downstream)
            closure = predicate
            predicate = nil
        }
        _ = (released, closure)
    }

    /// Upstream completed: takes the subscriber and releases the predicate (outside the lock). Like `cancel`, it
    /// only moves values of the class's own generic parameters and closures, so it needs no metadata lookup
    /// when it runs unspecialised.
    @inlinable
    func release() -> Slot {
        lock.lock()
        var released: Slot = nil
        swap(&released, &downstream)
        let closure = predicate
        predicate = nil
        lock.unlock()
        _ = closure  // destroyed here, outside the lock
        return released
    }
}
