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

    /// Folds every value with `nextPartialResult` and publishes the final result when upstream finishes.
    ///
    /// - Demand: requests `.unlimited` from upstream. The result is published only once the downstream
    ///   has requested at least one value: if upstream finishes first, the result is held until then,
    ///   and `.finished` follows it at once. An empty upstream publishes `initialResult`.
    /// - Failure: forwarded at once; the partial result is dropped.
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher.reduce(0, +).sink { print($0) }   // 6
    /// ```
    @inlinable
    public consuming func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
        -> Publishers.Reduce<Self, T>
    {
        Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
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
        public consuming func receive<S: Subscriber>(subscriber: consuming S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: ScanInner<Upstream.Output, S, S?>(
                    downstream: subscriber, initial: initialResult, nextPartialResult: nextPartialResult))
        }
    }

    /// The publisher returned by ``Publisher/reduce(_:_:)``.
    public struct Reduce<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are folded.
        public let upstream: Upstream
        /// The value the fold starts from.
        public let initial: Output
        /// Combines the accumulated result with a new value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates the operator.
        @inlinable
        public init(
            upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches `subscriber`.
        @inlinable
        public consuming func receive<S: Subscriber>(subscriber: consuming S)
        where S.Input == Output, S.Failure == Failure {
            let next = nextPartialResult
            let inner = ReduceInner<Upstream.Output, S>(
                downstream: subscriber, initial: initial, name: "Reduce",
                accumulate: { result, value in result = next(result, value) })
            upstream.receive(subscriber: inner)
        }
    }
}

/// `scan`'s subscriber and subscription. Lock-free: a ``LinkGate`` guards the upstream subscription, the
/// subscriber and the closure, which each call uses in place as a user of the gate and the last user of an
/// ended link releases.
@usableFromInline
final class ScanInner<Input, Downstream: Subscriber, Slot: OptionalSlot>: Subscriber, Subscription,
    CustomStringConvertible, @unchecked Sendable
where Slot.Wrapped == Downstream {
    @usableFromInline
    typealias Failure = Downstream.Failure
    @usableFromInline
    typealias Output = Downstream.Input

    @usableFromInline
    let gate = LinkGate()
    // `upstream`, `downstream` and `nextPartialResult` are used only by users of `gate` and released by
    // `release()`. The subscriber is a `Downstream?` typed by the generic parameter `Slot`, so `cancel` and
    // `deinit`, which run unspecialised, clear it without a metadata lookup (see `OptionalSlot`).
    @usableFromInline
    @exclusivity(unchecked)
    var upstream: any Subscription = NoSubscription()
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Slot
    @usableFromInline
    @exclusivity(unchecked)
    var nextPartialResult: ((Output, Input) -> Output)?
    /// Touched only by `receive(_:)`, which the upstream calls serially.
    @usableFromInline
    @exclusivity(unchecked)
    var result: Output

    @inlinable
    init(downstream: Downstream, initial: Output, nextPartialResult: @escaping (Output, Input) -> Output) {
        self.downstream = nil
        self.result = initial
        self.downstream.wrapped = downstream
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
            downstream.wrapped?.receive(subscription: self)
        } else {
            subscription.cancel()  // cancelled while attaching
        }
        leave()
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard gate.enter() else { return .none }
        guard let downstream = downstream.wrapped, let nextPartialResult else {
            leave()
            return .none
        }
        let next = nextPartialResult(result, input)
        guard !gate.isTerminal else {  // cancelled while folding: deliver nothing more
            leave()
            return .none
        }
        result = next
        let more = downstream.receive(next)
        leave()
        return more
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard gate.end() != nil else { return }
        let downstream = self.downstream.wrapped
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
        downstream = nil
        nextPartialResult = nil
    }
}

/// Folds every upstream value into one result and publishes it after upstream finishes, once the
/// downstream has demand: backs `reduce` and `collect()`.
@usableFromInline
final class ReduceInner<Input, Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable
{
    @usableFromInline
    typealias Failure = Downstream.Failure
    @usableFromInline
    typealias Output = Downstream.Input

    @usableFromInline
    let link = UpstreamLink()
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    @usableFromInline
    @exclusivity(unchecked)
    var accumulate: ((inout Output, Input) -> Void)?
    /// The result so far; taken out while `accumulate` runs so it is uniquely referenced (an array
    /// grows in place).
    @usableFromInline
    @exclusivity(unchecked)
    var result: Output?
    @usableFromInline
    @exclusivity(unchecked)
    var hasDemand = false
    /// Upstream finished; the result waits for demand.
    @usableFromInline
    @exclusivity(unchecked)
    var isHolding = false
    @usableFromInline
    let description: String

    @inlinable
    init(downstream: Downstream, initial: Output, name: String, accumulate: @escaping (inout Output, Input) -> Void) {
        self.downstream = downstream
        self.result = initial
        self.accumulate = accumulate
        self.description = name
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        lock.lock()
        let downstream = self.downstream
        lock.unlock()
        downstream?.receive(subscription: self)
        link.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard downstream != nil, let accumulate, var partial = result.take() else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        accumulate(&partial, input)
        lock.lock()
        if downstream != nil { result = partial }
        lock.unlock()
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        switch completion {
        case .failure:
            release()?.downstream.receive(completion: completion)
        case .finished:
            lock.lock()
            guard downstream != nil else { return lock.unlock() }
            guard hasDemand else {
                isHolding = true
                return lock.unlock()
            }
            lock.unlock()
            deliver()
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        lock.lock()
        guard downstream != nil else { return lock.unlock() }
        hasDemand = true
        let ready = isHolding
        lock.unlock()
        if ready { deliver() }
    }

    @inlinable
    func cancel() {
        link.cancel()
        _ = release()
    }

    @inlinable
    func deliver() {
        guard let (downstream, result) = release() else { return }
        if let result { _ = downstream.receive(result) }
        downstream.receive(completion: .finished)
    }

    @inlinable
    func release() -> (downstream: Downstream, result: Output?)? {
        lock.lock()
        let released = downstream.take()
        let last = result.take()
        let closure = accumulate
        accumulate = nil
        isHolding = false
        lock.unlock()
        _ = closure  // destroyed here, outside the lock
        guard let released else { return nil }
        return (released, last)
    }
}

/// A mirror without children: the Swift runtime traps when it reflects a noncopyable stored property (an atomic)
/// of a generic class, which `dump` and test-failure messages would otherwise do.
extension ScanInner: CustomReflectable {
    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: [:]) }
}
