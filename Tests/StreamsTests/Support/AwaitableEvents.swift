import Streams

/// Events sent from any thread or actor, awaited one at a time by a test.
///
/// `next()` waits for the next event itself; real time is only its bound (`limit`), after which it returns
/// `nil` so that a missing event fails the test instead of hanging it.
final class AwaitableEvents<Event: Sendable>: Sendable {
    private let stream: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream(of: Event.self) }

    /// Records `event` (never blocks).
    func send(_ event: Event) { continuation.yield(event) }

    /// The next event in the order they were sent, or `nil` if none arrives within `limit`.
    func next(within limit: Duration = .seconds(10)) async -> Event? {
        await withTaskGroup(of: Event?.self) { group in
            group.addTask { [stream] in
                var iterator = stream.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Events up to and including the first one `isLast` accepts (`nil` if that one does not arrive in time).
    func collect(within limit: Duration = .seconds(10), until isLast: @Sendable (Event) -> Bool) async -> [Event]? {
        var events: [Event] = []
        while let event = await next(within: limit) {
            events.append(event)
            if isLast(event) { return events }
        }
        return nil
    }
}

/// Suspends until the current task is cancelled (at once if it already is): an `AsyncSequence` element that
/// is slow to come, in tests of cancellation.
func suspendUntilCancelled() async {
    let slot = Locked<(waiting: CheckedContinuation<Void, Never>?, cancelled: Bool)>((nil, false))
    await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            let cancelled = slot.withLock { slot -> Bool in
                if !slot.cancelled { slot.waiting = continuation }
                return slot.cancelled
            }
            if cancelled { continuation.resume() }
        }
    } onCancel: {
        let waiting = slot.withLock { slot -> CheckedContinuation<Void, Never>? in
            slot.cancelled = true
            defer { slot.waiting = nil }
            return slot.waiting
        }
        waiting?.resume()
    }
}
