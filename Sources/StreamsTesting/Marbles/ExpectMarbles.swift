import Streams
import Testing

/// Expects `publisher` to do what `diagram` shows; on a mismatch, records a Swift Testing issue with both
/// timelines as aligned diagrams and an event-by-event diff.
///
/// Frame 0 of `diagram` is the scheduler's time now. The subscription starts now, or at the `^` of
/// `subscription` (e.g. `"--^----!"`), and is cancelled at its `!`. The scheduler then runs until nothing is
/// pending (but not past 1,000 frames after the diagram's last event). Value characters are looked up in
/// `values`, or stand for themselves when the output is `String`; `#` stands for `error`.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let input = try scheduler.hot("-a-b------c|")
/// expectMarbles(input.debounce(for: scheduler.frames(3), scheduler: scheduler), "------b----(c|)", on: scheduler)
/// ```
/// - Returns: whether it matched.
@discardableResult
public func expectMarbles<P: Publisher>(
    _ publisher: P, _ diagram: String, values: [Character: P.Output] = [:], error: P.Failure? = nil,
    on scheduler: TestScheduler, subscription: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
) -> Bool where P.Output: Equatable {
    let comparison = compareMarbles(
        publisher, diagram, values: values, error: error, on: scheduler, subscription: subscription)
    if !comparison.matches {
        Issue.record(Comment(rawValue: comparison.description), sourceLocation: sourceLocation)
    }
    return comparison.matches
}

/// Expects the events a ``TestRecorder`` has recorded to be what `diagram` shows, after running its
/// ``TestScheduler`` until nothing is pending (at most 1,000 frames past the diagram's end). Frame 0 is the
/// scheduler's time zero. Use it when several subscribers share one timeline.
///
/// ```swift
/// let first = shared.record(on: scheduler)
/// let second = shared.record(on: scheduler)
/// expectMarbles(first, "-a-b|")
/// expectMarbles(second, "-a-b|")
/// ```
/// - Returns: whether it matched.
@discardableResult
public func expectMarbles<Output: Equatable, Failure: Error>(
    _ recorder: TestRecorder<Output, Failure>, _ diagram: String, values: [Character: Output] = [:],
    error: Failure? = nil, sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    let comparison = compareMarbles(recorder, diagram, values: values, error: error)
    if !comparison.matches {
        Issue.record(Comment(rawValue: comparison.description), sourceLocation: sourceLocation)
    }
    return comparison.matches
}

/// Compares what `recorder` has recorded with `diagram`, after running its ``TestScheduler`` until nothing is
/// pending (at most 1,000 frames past the diagram's end). Frame 0 is the scheduler's time zero.
public func compareMarbles<Output: Equatable, Failure: Error>(
    _ recorder: TestRecorder<Output, Failure>, _ diagram: String, values: [Character: Output] = [:],
    error: Failure? = nil
) -> MarbleComparison {
    let scheduler = recorder.clock as? TestScheduler
    let frame = scheduler?.frameDuration ?? .milliseconds(1)
    let expected: MarbleDiagram<Output, Failure>
    do {
        expected = try MarbleDiagram(diagram, values: values, error: error, frame: frame)
    } catch {
        return MarbleComparison(invalid: error, frame: frame)
    }
    if let scheduler {
        let last = max(expected.events.last?.time ?? .zero, scheduler.now.offset)
        scheduler.runUntilIdle(notAfter: SchedulerInstant(offset: last) + scheduler.frames(1000))
    }
    return MarbleComparison(expected: expected.events, actual: recorder.events, values: values, frame: frame)
}

/// Expects `publisher`'s subscriptions to be `diagrams`, one subscription diagram per subscription in order:
/// `^` where it subscribed, `!` where it was cancelled (none: never cancelled; a subscription that completed
/// is not cancelled). Column 0 is the publisher's creation. No diagrams: expects nobody subscribed. On a
/// mismatch, records an issue showing both as diagrams.
///
/// ```swift
/// let source = try scheduler.cold("--#", "--#", "--a|", error: TestError())
/// expectMarbles(source.retry(2), "------a|", on: scheduler)
/// expectSubscriptions(source, "^-", "  ^-", "    ^---")   // three subscriptions, none cancelled
/// ```
/// - Returns: whether it matched.
@discardableResult
public func expectSubscriptions<Output, Failure: Error>(
    _ publisher: TestPublisher<Output, Failure>, _ diagrams: String...,
    sourceLocation: SourceLocation =
        #_sourceLocation
) -> Bool {
    let comparison = compareSubscriptions(publisher, diagrams)
    if !comparison.matches {
        Issue.record(Comment(rawValue: comparison.description), sourceLocation: sourceLocation)
    }
    return comparison.matches
}
