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
    /// - Completion: forwarded at once; a window not yet full is dropped. The buffered values are released with
    ///   the subscription, when the upstream lets go of its subscriber (at the completion or the cancel).
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
    /// - Completion: forwarded at once. The held previous value is released with the subscription, when the
    ///   upstream lets go of its subscriber (at the completion or the cancel).
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
                subscriber: SlidingWindowStage<ArrayWindow<Upstream.Output>, S>(
                    downstream: subscriber, window: ArrayWindow(size: size), name: .nwise))
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
                subscriber: SlidingWindowStage<PairWindow<Upstream.Output>, S>(
                    downstream: subscriber, window: PairWindow(), name: .pairwise))
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
}

/// The subscriber of `nwise` and `pairwise`: a stage (see ``StageLink``). The window is the link's state, which only
/// the upstream's serial calls touch, so a value takes no lock: one relaxed load of the link's phase and a push. A
/// value that completes no window asks upstream for one more in its place (`.max(1)`), so the downstream's demand
/// counts windows.
@usableFromInline
struct SlidingWindowStage<Window: SlidingWindow, Downstream: Subscriber>: Subscriber, CustomStringConvertible
where Downstream.Input == Window.Output {
    @usableFromInline
    typealias Input = Window.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let downstream: Downstream
    /// The window is its state.
    @usableFromInline
    let link: StageLink<Window, NoStageHooks>

    @inlinable
    init(downstream: Downstream, window: Window, name: StageName) {
        self.downstream = downstream
        self.link = StageLink(name, state: window, hooks: NoStageHooks())
    }

    @usableFromInline
    var description: String { link.description }
    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(link) }

    @inlinable
    func receive(subscription: any Subscription) { link.attach(subscription, handingTo: downstream) }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard link.isLive else { return .none }
        guard let output = link.state.push(input) else { return .max(1) }  // nothing out: replace the demand used
        return downstream.receive(output)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { link.forward(completion, to: downstream) }
}
