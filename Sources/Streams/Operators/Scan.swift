extension Publisher {
    /// Publishes each intermediate result of folding the values with `nextPartialResult`.
    ///
    /// - Demand: one result out per value in; demand passes straight through.
    /// - Threading: `nextPartialResult` runs on the upstream's thread, never under a lock.
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher.scan(0, +).sink { print($0) }   // 1 3 6
    /// ```
    @inlinable
    public consuming func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
        -> Publishers.Scan<Self, T>
    {
        Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/scan(_:_:)``.
    public struct Scan<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are folded.
        public let upstream: Upstream
        /// The value the fold starts from.
        public let initialResult: Output
        /// Combines the previous result with a new value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates the operator.
        @inlinable
        public init(
            upstream: Upstream, initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public consuming func receive<S: Subscriber>(subscriber: consuming S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: ScanInner<Upstream.Output, S, HeldDownstream<S>>(
                    downstream: subscriber, initial: initialResult, nextPartialResult: nextPartialResult))
        }
    }
}

/// `scan`'s subscriber and subscription. Lock-free: a ``LinkGate`` guards the upstream subscription, the
/// subscriber and the closure, which each call uses in place as a user of the gate and the last user of an
/// ended link releases.
@usableFromInline
final class ScanInner<Input, Downstream: Subscriber, Held: DownstreamSlot & ~Copyable>: Subscriber, Subscription,
    CustomStringConvertible, @unchecked Sendable
where Held.Downstream == Downstream {
    @usableFromInline
    typealias Failure = Downstream.Failure
    @usableFromInline
    typealias Output = Downstream.Input

    @usableFromInline
    let gate = LinkGate()
    // `upstream`, `downstream` and `nextPartialResult` are used only by users of `gate` and released by
    // `release()`. The subscriber is held in place by the generic parameter `Held` (a `HeldDownstream`), so
    // `cancel` and `deinit`, which run unspecialised, clear it without a metadata lookup, and a value is
    // delivered by borrowing it where it lies, retaining nothing (see `DownstreamSlot`): sound because no
    // one releases it while a user of `gate` is inside.
    @usableFromInline
    @exclusivity(unchecked)
    var upstream: any Subscription = NoSubscription()
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Held
    @usableFromInline
    @exclusivity(unchecked)
    var nextPartialResult: ((Output, Input) -> Output)?
    /// Touched only by `receive(_:)`, which the upstream calls serially.
    @usableFromInline
    @exclusivity(unchecked)
    var result: Output

    @inlinable
    init(downstream: Downstream, initial: Output, nextPartialResult: @escaping (Output, Input) -> Output) {
        self.downstream = Held(downstream)
        self.result = initial
        self.nextPartialResult = nextPartialResult
    }

    @usableFromInline
    var description: String { "Scan" }

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
        guard let nextPartialResult else {
            leave()
            return .none
        }
        let next = nextPartialResult(result, input)
        guard !gate.isTerminal else {  // cancelled while folding: deliver nothing more
            leave()
            return .none
        }
        result = next
        let more = downstream.with { $0.receive(next) } ?? .none
        leave()
        return more
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard gate.end() != nil else { return }
        let downstream = self.downstream.with { copy $0 }  // a copy: `leave()` may release the stored one
        leave()  // releases the subscription and the closure unless a request is using them
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

    /// Releases the subscription, the subscriber and the closure: only by the thread that left the gate
    /// ended and empty. Runs unspecialised from `cancel`, so it only assigns values of the class's own
    /// generic parameters and closures: no metadata lookups.
    @inlinable
    func release() {
        NoSubscription.clear(&upstream)
        downstream = Held()
        nextPartialResult = nil
    }
}

/// A mirror without children: the Swift runtime traps when it reflects a noncopyable stored property (an atomic)
/// of a generic class, which `dump` and test-failure messages would otherwise do.
extension ScanInner: CustomReflectable where Held: ~Copyable {
    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: [:]) }
}
