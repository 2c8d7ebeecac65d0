import Streams

/// A publisher that runs an `async` operation in a new `Task` for each subscriber and publishes its result.
///
/// The async → publisher bridge. Unlike `Future { try await … }` (eager, shared, never cancelled):
/// - Lazy: the task starts when the subscriber first requests a value; each subscriber gets its own task.
/// - Cancelling the subscription cancels the task (so `URLSession` work inside it is cancelled too), and
///   nothing is delivered after `cancel()`.
/// - Exactly once: a success is delivered as one value followed by `.finished`; a thrown error as `.failure`.
/// - Threading: events are delivered on the task's executor (not on the subscribing thread).
///
/// ```swift
/// let profile = TaskPublisher { () async throws(NetworkError) in try await client.send(Me.profile) }
/// let cancellable = profile.sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
/// ```
public struct TaskPublisher<Output: Sendable, Failure: Error>: Publisher, Sendable {
    /// The operation run once per subscription.
    public let operation: @Sendable () async throws(Failure) -> Output

    /// A publisher that runs `operation` for each subscriber.
    public init(_ operation: @escaping @Sendable () async throws(Failure) -> Output) {
        self.operation = operation
    }

    /// Attaches `subscriber`; the operation starts on its first request.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = TaskSubscription(operation: operation, downstream: subscriber)
        subscriber.receive(subscription: subscription)
    }
}

/// Runs one task for one subscriber and delivers its result at most once. All its state is in `state`, under
/// that `Locked`'s lock.
private final class TaskSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    @unchecked Sendable
where Downstream.Input: Sendable {
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    private struct State {
        var operation: (@Sendable () async throws(Failure) -> Output)?
        var downstream: Downstream?
        var task: Task<Void, Never>?
    }

    // `downstream == nil` means delivered or cancelled.
    private let state: Locked<State>

    init(operation: @escaping @Sendable () async throws(Failure) -> Output, downstream: Downstream) {
        state = Locked(State(operation: operation, downstream: downstream))
    }

    var description: String { "TaskPublisher" }

    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        let operation = state.withLock { state in
            defer { state.operation = nil }
            return state.downstream == nil ? nil : state.operation
        }
        guard let operation else { return }
        let callback = ResultCallback<Output, Failure> { [self] result in deliver(result) }
        let task = Task {
            let result: Result<Output, Failure>
            do throws(Failure) {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            callback(result)
        }
        let cancelled = state.withLock { state in
            if state.downstream == nil { return true }
            state.task = task
            return false
        }
        if cancelled { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state in
            defer {
                state.downstream = nil
                state.operation = nil
                state.task = nil
            }
            return state.task
        }
        task?.cancel()
    }

    private func deliver(_ result: Result<Output, Failure>) {
        let downstream = state.withLock { state in
            defer {
                state.downstream = nil
                state.task = nil
            }
            return state.downstream
        }
        guard let downstream else { return }
        switch result {
        case .success(let value):
            _ = downstream.receive(value)
            downstream.receive(completion: .finished)
        case .failure(let error):
            downstream.receive(completion: .failure(error))
        }
    }
}
