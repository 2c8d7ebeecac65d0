import Streams

/// Lets a test's async operation signal that it started, suspend until its task is cancelled (no sleeping),
/// and lets the test await those moments.
final class CancellationProbe: Sendable {
    private let startedStream: AsyncStream<Void>
    private let startedSignal: AsyncStream<Void>.Continuation
    private let cancelledStream: AsyncStream<Void>
    private let cancelledSignal: AsyncStream<Void>.Continuation
    private let waiter = Locked<(continuation: CheckedContinuation<Void, Never>?, cancelled: Bool)>((nil, false))

    init() {
        (startedStream, startedSignal) = AsyncStream.makeStream()
        (cancelledStream, cancelledSignal) = AsyncStream.makeStream()
    }

    /// Called by the operation: signals "started", then returns only once the current task is cancelled.
    func suspendUntilCancelled() async {
        startedSignal.yield()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = waiter.withLock { state in
                    if state.cancelled { return true }
                    state.continuation = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let continuation = waiter.withLock { state in
                state.cancelled = true
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume()
            cancelledSignal.yield()
        }
    }

    /// Waits until the operation has started.
    func started() async {
        var iterator = startedStream.makeAsyncIterator()
        _ = await iterator.next()
    }

    /// Waits until the operation's task was cancelled.
    func cancelled() async {
        var iterator = cancelledStream.makeAsyncIterator()
        _ = await iterator.next()
    }
}

/// A value that reports when it is released, so a test knows a task holding it has finished.
final class ReleaseMarker: Sendable {
    private let signal: AsyncStream<Void>.Continuation
    init(_ signal: AsyncStream<Void>.Continuation) { self.signal = signal }
    deinit { signal.yield() }
}
