/// Any `AsyncSequence` as a publisher, with back-pressure: one element is pulled from the sequence per unit of
/// demand, never ahead of it.
///
/// Spelled `AsyncSequencePublisher(sequence)`, or `sequence.streamsPublisher` to chain (`publisher` is left to
/// `Sequence`). The opposite direction, a publisher as an `AsyncSequence`, is `values`.
///
/// - Output and Failure: the sequence's `Element` and `Failure` (Swift 6's `AsyncSequence<Element, Failure>`).
///   A sequence that cannot throw (`AsyncStream`, `Failure == Never`) gives a publisher that cannot fail; a
///   throwing one (`AsyncThrowingStream<_, any Error>`) gives `Failure == any Error`; a typed-throws sequence
///   keeps its error type.
/// - Demand: each subscription makes its own iterator, on the first demand (none before: a subscriber that never
///   requests never starts the sequence). Then, per unit of demand, it calls `next()` once and delivers the
///   element; with no demand left it waits, without calling `next()`. `.unlimited` pulls until the end.
/// - Completion: `.finished` when `next()` returns `nil`; `.failure(error)` with the error `next()` throws.
/// - Isolation: the sequence is iterated by one unstructured `Task` per subscription (non-isolated, on the
///   global concurrent executor, `next(isolation: nil)`), and that task delivers the values and the completion,
///   serially: a subscriber is called on the cooperative thread pool, never on the subscribing thread except for
///   `receive(subscription:)`. Add `receive(on:)` (or end with `sinkOnMainActor`) to move delivery.
/// - Cancellation: `cancel()` cancels the iterating task, so a `next()` that is waiting sees task cancellation
///   (an `AsyncStream` returns `nil`, `Task.sleep` throws `CancellationError`); whatever it returns then is
///   dropped: nothing reaches the subscriber after `cancel()`. The task ends once that `next()` returns (a
///   sequence that ignores cancellation keeps it until it does). `cancel()` from inside `receive(_:)` stops
///   the loop before the next pull.
/// - Sendable: the sequence must be `Sendable`, since each subscription iterates it in a task of its own (for
///   `stream.map { … }`, mark the closure `@Sendable`). Its elements need not be. Subscribing twice iterates
///   twice: a single-pass sequence such as `AsyncStream` allows one subscription (use `share()`).
///
/// ```swift
/// let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
/// let c = AsyncSequencePublisher(stream)
///     .receive(on: .mainActor)
///     .sink { print($0) }   // 1, then 2
/// continuation.yield(1)
/// continuation.yield(2)
/// ```
public struct AsyncSequencePublisher<Base: AsyncSequence & Sendable>: Publisher {
    /// The sequence's elements.
    public typealias Output = Base.Element
    /// The sequence's failure: `Never` for a sequence that cannot throw.
    public typealias Failure = Base.Failure

    /// The sequence each subscription iterates.
    public let base: Base

    /// Publishes the elements of `base`, one per unit of demand.
    ///
    /// ```swift
    /// let publisher = AsyncSequencePublisher(AsyncStream<Int> { $0.yield(1); $0.finish() })
    /// ```
    public init(_ base: Base) { self.base = base }

    /// Attaches `subscriber`; the sequence is iterated from its first demand on, in a task of its own.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        AsyncSequenceSubscription(base: base, downstream: subscriber).start()
    }
}

extension AsyncSequence where Self: Sendable {
    /// This sequence as a publisher that pulls one element per unit of demand: `AsyncSequencePublisher(self)`
    /// (see there for the contract: iterated in a task of its own, cancelled by `cancel()`).
    ///
    /// ```swift
    /// let c = updates.streamsPublisher
    ///     .removeDuplicates()
    ///     .sinkOnMainActor { print($0) }
    /// ```
    public var streamsPublisher: AsyncSequencePublisher<Self> { AsyncSequencePublisher(self) }
}

/// One subscription to an ``AsyncSequencePublisher``: the demand, the iterating task and the downstream.
///
/// Every mutable field is in `state`, under its lock; `base` is immutable (and `Sendable`). The downstream is
/// called outside the lock: `receive(subscription:)` by `start()` before any task exists, then values and the
/// completion only by the one iterating task, so calls are serial.
final class AsyncSequenceSubscription<Base: AsyncSequence & Sendable, Downstream: Subscriber>: Subscription,
    AsyncSequenceIteration, CustomStringConvertible, Sendable
where Downstream.Input == Base.Element, Downstream.Failure == Base.Failure {
    struct State {
        /// `nil` once cancelled or completed: nothing more is delivered.
        var downstream: Downstream?
        /// Requested and not yet pulled.
        var demand = Subscribers.Demand.none
        /// `receive(subscription:)` has returned: values may be delivered from now on.
        var subscribed = false
        /// The iterating task was created (on the first demand after `subscribed`).
        var started = false
        /// The iterating task, to cancel; `nil` before it starts and after it ends.
        var task: Task<Void, Never>?
        /// The iterating task waiting for demand (resumed with `true` and one unit of it, or `false` on cancel).
        var waiting: CheckedContinuation<Bool, Never>?
    }

    let base: Base
    let state: Locked<State>

    init(base: Base, downstream: Downstream) {
        self.base = base
        state = Locked(State(downstream: downstream))
    }

    var description: String { "AsyncSequence" }

    /// Hands the subscription to the downstream, then starts iterating if it asked for values meanwhile.
    func start() {
        state.withLock { $0.downstream }?.receive(subscription: self)
        let launch = state.withLock { state -> Bool in
            state.subscribed = true
            return state.claimStart()
        }
        if launch { launchTask() }
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        let (launch, waiting) = state.withLock { state -> (Bool, CheckedContinuation<Bool, Never>?) in
            guard state.downstream != nil else { return (false, nil) }
            state.demand += demand
            if let waiting = state.waiting {
                state.waiting = nil
                state.demand -= 1
                return (false, waiting)
            }
            return (state.claimStart(), nil)
        }
        waiting?.resume(returning: true)
        if launch { launchTask() }
    }

    func cancel() {
        let (task, waiting, downstream) = state.withLock { state in
            defer {
                state.downstream = nil
                state.task = nil
                state.waiting = nil
                state.demand = .none
            }
            return (state.task, state.waiting, state.downstream)
        }
        task?.cancel()
        waiting?.resume(returning: false)
        _ = downstream  // released here, outside the lock
    }

    /// Starts the iterating task. A `cancel()` that came first finds no task to cancel: it is cancelled here.
    func launchTask() {
        // Through a non-generic existential: a closure that used `self` directly would capture `Downstream`'s
        // metatype, which need not be `Sendable`.
        let iteration: any AsyncSequenceIteration = self
        let task = Task { await iteration.iterate() }
        let cancelled = state.withLock { state -> Bool in
            guard state.downstream != nil else { return true }
            state.task = task
            return false
        }
        if cancelled { task.cancel() }
    }

    /// The iterating task: one `next()` per unit of demand until the end, a failure or `cancel()`.
    func iterate() async {
        guard await takeDemand() else { return }
        var iterator = base.makeAsyncIterator()
        while true {
            let element: Base.Element?
            do throws(Base.Failure) {
                element = try await iterator.next(isolation: nil)
            } catch {
                return complete(.failure(error))
            }
            guard let element else { return complete(.finished) }
            guard deliver(element), await takeDemand() else { return }
        }
    }

    /// Takes one unit of demand, waiting for a `request` if there is none; `false` once cancelled.
    func takeDemand() async -> Bool {
        switch state.withLock({ $0.takeDemand() }) {
        case .some(let proceed): return proceed
        case .none:
            return await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool? in
                    let now = state.takeDemand()
                    if now == nil { state.waiting = continuation }
                    return now
                }
                if let now { continuation.resume(returning: now) }
            }
        }
    }

    /// Sends one value and adds the demand the downstream returns; `false` if cancelled (before or during).
    func deliver(_ element: Base.Element) -> Bool {
        guard let downstream = state.withLock({ $0.downstream }) else { return false }
        let more = downstream.receive(element)
        return state.withLock { state in
            guard state.downstream != nil else { return false }
            state.demand += more
            return true
        }
    }

    /// Sends the completion, unless cancelled; releases the downstream and the task.
    func complete(_ completion: Subscribers.Completion<Base.Failure>) {
        let downstream = state.withLock { state in
            defer {
                state.downstream = nil
                state.task = nil
            }
            return state.downstream
        }
        downstream?.receive(completion: completion)
    }
}

/// What the iterating task runs: an ``AsyncSequenceSubscription`` seen without its generic parameters.
protocol AsyncSequenceIteration: AnyObject, Sendable {
    /// Iterates until the end, a failure or `cancel()`.
    func iterate() async
}

extension AsyncSequenceSubscription.State {
    /// Whether the caller should start the iterating task now (subscribed, demand, not yet started).
    mutating func claimStart() -> Bool {
        guard downstream != nil, subscribed, !started, demand > .none else { return false }
        started = true
        return true
    }

    /// `true` with one unit of demand taken, `false` if cancelled, `nil` if the task must wait for demand.
    mutating func takeDemand() -> Bool? {
        guard downstream != nil else { return false }
        guard demand > .none else { return nil }
        demand -= 1
        return true
    }
}
