import Streams

/// Awaits a completion-handler API that returns a `Cancellable`, resuming exactly once.
///
/// `start` is called at once with a completion handler; it begins the work and returns what cancels it.
/// - The first of "the handler is called" and "the task is cancelled" wins: a result resumes the caller
///   with it; cancellation cancels the work (via the returned `Cancellable`) and throws `.cancelled`
///   without waiting for the work to notice. Later handler calls are ignored.
/// - If the task is already cancelled, `start` is never called.
/// - The handler may be called on any thread, also synchronously inside `start`.
///
/// ```swift
/// let response = try await withCancellableCompletion { done in transport.send(request, completion: done) }
/// ```
public func withCancellableCompletion<Value: Sendable>(
    _ start: (@escaping @Sendable (Result<Value, NetworkError>) -> Void) -> any Cancellable
) async throws(NetworkError) -> Value {
    let bridge = CompletionBridge<Value>()
    let result = await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            bridge.begin(continuation, start: start)
        }
    } onCancel: {
        bridge.cancel()
    }
    return try result.get()
}

/// The state shared by the caller, the completion handler and the cancellation handler of one
/// `withCancellableCompletion` call.
private final class CompletionBridge<Value: Sendable>: Sendable {
    typealias Continuation = CheckedContinuation<Result<Value, NetworkError>, Never>

    private struct State {
        var continuation: Continuation?
        var work: (any Cancellable)?
        var isCancelled = false
        var isResumed = false
    }

    private let state = Locked(State())

    func begin(
        _ continuation: Continuation,
        start: (@escaping @Sendable (Result<Value, NetworkError>) -> Void) -> any Cancellable
    ) {
        let cancelledEarly = state.withLock { state in
            if state.isCancelled {
                state.isResumed = true
                return true
            }
            state.continuation = continuation
            return false
        }
        if cancelledEarly { return continuation.resume(returning: .failure(.cancelled)) }
        let work = start { [self] result in finish(result) }
        let cancelLate = state.withLock { state in
            if state.isCancelled { return true }
            if !state.isResumed { state.work = work }
            return false
        }
        if cancelLate { work.cancel() }
    }

    func cancel() {
        let (continuation, work) = state.withLock { state in
            state.isCancelled = true
            guard !state.isResumed else { return (nil, nil) as (Continuation?, (any Cancellable)?) }
            state.isResumed = state.continuation != nil
            defer {
                state.continuation = nil
                state.work = nil
            }
            return (state.continuation, state.work)
        }
        work?.cancel()
        continuation?.resume(returning: .failure(.cancelled))
    }

    private func finish(_ result: Result<Value, NetworkError>) {
        let continuation = state.withLock { state in
            guard !state.isResumed else { return nil as Continuation? }
            state.isResumed = true
            defer {
                state.continuation = nil
                state.work = nil
            }
            return state.continuation
        }
        continuation?.resume(returning: result)
    }
}
