extension Publisher {
    /// Publishes sliding windows of the last `size` values: once `size` values have arrived, every value
    /// produces an array of it and the `size - 1` values before it, oldest first.
    ///
    /// `[1, 2, 3, 4].publisher.nwise(3)` publishes `[1, 2, 3]` and `[2, 3, 4]`.
    /// - Size: meant for `size >= 2`. `nwise(1)` wraps each value in an array of one; a `size` below 1
    ///   counts as 1 (no trap: CombineExt asserts `size > 1`, then in release builds publishes an empty
    ///   array per value for `nwise(0)`).
    /// - Demand: one window per value once the window is full; downstream requests go upstream unchanged,
    ///   and each of the first `size - 1` values, which produce nothing, asks the upstream for one more (as
    ///   `compactMap` does), so the downstream never waits for a window it asked for.
    /// - Completion: forwarded at once; a window not yet full is dropped. Cancelling releases the buffered
    ///   values.
    /// - Threading: synchronous, on the upstream's thread.
    ///
    /// CombineExt's `nwise(_:)` (which returns an `AnyPublisher`).
    ///
    /// ```swift
    /// let c = prices.nwise(3).map { $0.reduce(0, +) / 3 }.sink { print("moving average:", $0) }
    /// ```
    @inlinable
    public func nwise(_ size: Int) -> Publishers.Nwise<Self> {
        Publishers.Nwise(upstream: self, size: size)
    }

    /// Publishes each value with the one before it, as `(previous, current)`; the first value produces
    /// nothing.
    ///
    /// `[1, 2, 3].publisher.pairwise()` publishes `(1, 2)` and `(2, 3)`.
    /// - Demand: one pair per value after the first; downstream requests go upstream unchanged, and the
    ///   first value, which produces nothing, asks the upstream for one more.
    /// - Completion: forwarded at once. Cancelling releases the held previous value.
    /// - Threading: synchronous, on the upstream's thread.
    ///
    /// CombineExt's `pairwise()` (which returns an `AnyPublisher`).
    ///
    /// ```swift
    /// let c = positions.pairwise().map { distance($0, $1) }.sink { print("moved", $0) }
    /// ```
    @inlinable
    public func pairwise() -> Publishers.Pairwise<Self> {
        Publishers.Pairwise(upstream: self)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/nwise(_:)``: see there for the contract.
    public struct Nwise<Upstream: Publisher>: Publisher {
        /// A window of consecutive values, oldest first.
        public typealias Output = [Upstream.Output]
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are windowed.
        public let upstream: Upstream
        /// The window size (at least 1).
        public let size: Int

        /// Creates the operator; a `size` below 1 counts as 1.
        @inlinable
        public init(upstream: Upstream, size: Int) {
            self.upstream = upstream
            self.size = Swift.max(1, size)
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: SlidingWindowInner<ArrayWindow<Upstream.Output>, Upstream.Failure, S>(
                    downstream: subscriber, window: ArrayWindow(size: size)))
        }
    }

    /// The publisher returned by ``Publisher/pairwise()``: see there for the contract.
    public struct Pairwise<Upstream: Publisher>: Publisher {
        /// The previous value and the current one.
        public typealias Output = (Upstream.Output, Upstream.Output)
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are paired.
        public let upstream: Upstream

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: SlidingWindowInner<PairWindow<Upstream.Output>, Upstream.Failure, S>(
                    downstream: subscriber, window: PairWindow()))
        }
    }
}

/// The values a sliding-window operator keeps between values.
@usableFromInline
protocol SlidingWindow {
    associatedtype Input
    associatedtype Output
    /// Adds `value`; returns the window to publish, or `nil` while not full.
    mutating func push(_ value: Input) -> Output?
    /// Drops the kept values.
    mutating func clear()
}

/// `nwise`'s window: the last `size` values, oldest first.
@usableFromInline
struct ArrayWindow<Input>: SlidingWindow {
    @usableFromInline
    let size: Int
    @usableFromInline
    var values: [Input] = []

    @inlinable
    init(size: Int) {
        self.size = size
        values.reserveCapacity(size)
    }

    @inlinable
    mutating func push(_ value: Input) -> [Input]? {
        if values.count == size { values.removeFirst() }
        values.append(value)
        return values.count == size ? values : nil
    }

    @inlinable
    mutating func clear() { values = [] }
}

/// `pairwise`'s window: the previous value.
@usableFromInline
struct PairWindow<Input>: SlidingWindow {
    @usableFromInline
    var previous: Input?

    @inlinable
    init() {}

    @inlinable
    mutating func push(_ value: Input) -> (Input, Input)? {
        defer { previous = value }
        guard let previous else { return nil }
        return (previous, value)
    }

    @inlinable
    mutating func clear() { previous = nil }
}

/// The subscriber and subscription of `nwise` and `pairwise`. The upstream subscription is held by `link`;
/// `downstream` and `window` are guarded by `lock`.
@usableFromInline
final class SlidingWindowInner<Window: SlidingWindow, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
    Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Window.Output, Downstream.Failure == UpstreamFailure {
    @usableFromInline
    typealias Input = Window.Input
    @usableFromInline
    typealias Failure = UpstreamFailure

    @usableFromInline
    let link = UpstreamLink()
    /// Guards `downstream` and `window` (`@exclusivity(unchecked)`: every access is under it, or in `init`).
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    @usableFromInline
    @exclusivity(unchecked)
    var window: Window

    @inlinable
    init(downstream: Downstream, window: Window) {
        self.downstream = downstream
        self.window = window
    }

    @usableFromInline
    var description: String { Window.self is PairWindow<Input>.Type ? "Pairwise" : "Nwise" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        lock.lock()
        let downstream = self.downstream
        lock.unlock()
        downstream?.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard let downstream else {
            lock.unlock()
            return .none
        }
        let output = window.push(input)
        lock.unlock()
        guard let output else { return .max(1) }  // nothing out: replace the demand this value used
        return downstream.receive(output)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        guard link.finish() else { return }
        release()?.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) { link.request(demand) }

    @inlinable
    func cancel() {
        link.cancel()
        _ = release()
    }

    /// Takes the downstream out and drops the kept values; `nil` if already released.
    @inlinable
    func release() -> Downstream? {
        lock.lock()
        let released = downstream
        downstream = nil
        var dropped = Window?.none
        if released != nil {
            dropped = window
            window.clear()
        }
        lock.unlock()
        _ = dropped  // the kept values are freed here, after unlocking
        return released
    }
}
