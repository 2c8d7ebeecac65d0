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
        @inline(__always)
        public consuming func receive<S: Subscriber>(subscriber: consuming S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: RemoveDuplicatesInner<S, S.Input?, HeldDownstream<S>>(
                    downstream: subscriber, predicate: predicate))
        }
    }
}

/// `removeDuplicates`' subscriber and subscription. Lock-free: a ``LinkGate`` guards the upstream
/// subscription, the subscriber and the predicate, which each call uses in place as a user of the gate and
/// the last user of an ended link releases.
@usableFromInline
final class RemoveDuplicatesInner<
    Downstream: Subscriber, Previous: OptionalSlot, Held: DownstreamSlot & ~Copyable
>: Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
where Previous.Wrapped == Downstream.Input, Held.Downstream == Downstream {
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let gate = LinkGate()
    // `upstream`, `downstream` and `predicate` are used only by users of `gate` and released by `release()`.
    // The subscriber is held in place by the generic parameter `Held` (a `HeldDownstream`), so `cancel` and
    // `deinit`, which run unspecialised, clear it without a metadata lookup, and a value is delivered by
    // borrowing it where it lies, retaining nothing (see `DownstreamSlot`): sound because no one releases it
    // while a user of `gate` is inside.
    @usableFromInline
    @exclusivity(unchecked)
    var upstream: any Subscription = NoSubscription()
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Held
    @usableFromInline
    @exclusivity(unchecked)
    var predicate: ((Input, Input) -> Bool)?
    /// The last value passed on; touched only by `receive(_:)`, which the upstream calls serially, and freed
    /// with the operator. `Input?` (see ``OptionalSlot``), so `deinit` destroys it without a metadata lookup.
    @usableFromInline
    @exclusivity(unchecked)
    var previous: Previous = nil

    @inlinable
    init(downstream: Downstream, predicate: @escaping (Input, Input) -> Bool) {
        self.downstream = Held(downstream)
        self.predicate = predicate
    }

    @usableFromInline
    var description: String { "RemoveDuplicates" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard gate.beginAttach() else { return subscription.cancel() }
        NoSubscription.replace(&upstream, with: subscription)
        if let pending = gate.finishAttach() {
            if pending > .none { subscription.request(pending) }
            _ = downstream.with { $0.receive(subscription: self) }
        } else {
            subscription.cancel()  // cancelled while attaching
        }
        leave()
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard gate.enter() else { return .none }
        guard let predicate else {
            leave()
            return .none
        }
        if let previous = previous.wrapped, predicate(previous, input) {
            leave()
            return .max(1)
        }
        guard !gate.isTerminal else {  // cancelled while comparing: deliver nothing more
            leave()
            return .none
        }
        previous.wrapped = input
        let more = downstream.with { $0.receive(input) } ?? .none
        leave()
        return more
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard gate.end() != nil else { return }
        let downstream = self.downstream.with { copy $0 }  // a copy: `leave()` may release the stored one
        leave()  // releases the subscription and the predicate unless a request is using them
        downstream?.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        if gate.request(demand, forward: { upstream.request($0) }) { release() }
    }

    @inlinable
    func cancel() {
        guard let phase = gate.end() else { return }
        if phase == LinkPhase.subscribed { upstream.cancel() }
        leave()
    }

    /// Exits the gate; the last user of an ended link releases.
    @inlinable
    func leave() {
        if gate.exit() { release() }
    }

    /// Releases the subscription, the subscriber and the predicate: only by the thread that left the gate
    /// ended and empty. Runs unspecialised from `cancel`, so it only assigns values of the class's own
    /// generic parameters and closures: no metadata lookups.
    @inlinable
    func release() {
        NoSubscription.clear(&upstream)
        downstream = Held()
        predicate = nil
    }
}

/// A mirror without children: the Swift runtime traps when it reflects a noncopyable stored property (an atomic)
/// of a generic class, which `dump` and test-failure messages would otherwise do.
extension RemoveDuplicatesInner: CustomReflectable where Held: ~Copyable {
    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: [:]) }
}
