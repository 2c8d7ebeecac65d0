import Dispatch
import Foundation
import Streams

/// A `RunLoop` as a `Scheduler`: actions run on the loop's thread, as the loop turns.
///
/// Foundation on Linux marks `RunLoop` as not `Sendable`, and `Scheduler` must be, so a run loop cannot be a
/// scheduler itself. This wrapper is one, and the operators Combine code calls with a run loop —
/// `receive(on:)`, `subscribe(on:)`, `debounce`, `throttle`, `delay`, `timeout`, `measureInterval`, and
/// `collect(.byTime…)` / `collect(.byTimeOrCount…)` — accept a `RunLoop` directly
/// (`.receive(on: RunLoop.main)` compiles unchanged) by wrapping it.
///
/// - Clock: ``now`` is the monotonic uptime shared with `DispatchQueue`.
/// - The loop must run for actions to happen (an app's main loop does; elsewhere `RunLoop.current.run()`).
/// - Sound as `@unchecked Sendable`: the run loop is used only through `perform(inModes:block:)` and
///   `add(_:forMode:)` (CoreFoundation's `CFRunLoopPerformBlock` and `CFRunLoopAddTimer`, which are safe from
///   any thread), and through `Timer.invalidate()` to cancel.
///
/// ```swift
/// let c = prices.receive(on: RunLoop.main).sink { print($0) }
/// let onLoop = RunLoopScheduler(RunLoop.current)   // for any other API taking a scheduler
/// ```
public struct RunLoopScheduler: Streams.Scheduler, @unchecked Sendable {
    /// The run loop actions run on.
    public let runLoop: RunLoop
    /// The modes actions run in (default: the common modes).
    public let modes: [RunLoop.Mode]

    /// A scheduler running actions on `runLoop` in `modes`.
    public init(_ runLoop: RunLoop, modes: [RunLoop.Mode] = [.common]) {
        self.runLoop = runLoop
        self.modes = modes
    }

    /// The monotonic uptime clock.
    public var now: SchedulerInstant { DispatchQueue.main.now }

    /// Runs `action` on the loop as soon as it turns.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        runLoop.perform(inModes: modes, block: action)
    }

    /// Runs `action` on the loop at `deadline`; cancelling the result invalidates its timer.
    public func schedule(after deadline: SchedulerInstant, _ action: @escaping @Sendable () -> Void)
        -> any Cancellable
    {
        let (seconds, attoseconds) = (deadline - now).components
        let delay = max(0, Double(seconds) + Double(attoseconds) / 1e18)
        // `Timer(fire:…)`, not `Timer(timeInterval:repeats:block:)`: Foundation on Linux gives the latter a fire date
        // of now, so the action would run on the loop's next turn instead of at the deadline.
        let box = TimerAction(repeats: false, action)
        let timer = Timer(fire: Date(timeIntervalSinceNow: delay), interval: 0, repeats: false) { _ in box.run() }
        for mode in modes { runLoop.add(timer, forMode: mode) }
        return TimerConnection(timer: timer, action: box)
    }
}

extension Publisher {
    /// `receive(on:)` on a run loop (wrapped in a ``RunLoopScheduler``).
    public func receive(on runLoop: RunLoop) -> Publishers.ReceiveOn<Self> {
        receive(on: RunLoopScheduler(runLoop))
    }

    /// `subscribe(on:)` on a run loop (wrapped in a ``RunLoopScheduler``).
    public func subscribe(on runLoop: RunLoop) -> Publishers.SubscribeOn<Self> {
        subscribe(on: RunLoopScheduler(runLoop))
    }

    /// `debounce(for:scheduler:)` on a run loop (wrapped in a ``RunLoopScheduler``).
    public func debounce(for dueTime: Duration, scheduler: RunLoop) -> Publishers.Debounce<Self> {
        debounce(for: dueTime, scheduler: RunLoopScheduler(scheduler))
    }

    /// `throttle(for:scheduler:latest:)` on a run loop (wrapped in a ``RunLoopScheduler``).
    public func throttle(for interval: Duration, scheduler: RunLoop, latest: Bool) -> Publishers.Throttle<Self> {
        throttle(for: interval, scheduler: RunLoopScheduler(scheduler), latest: latest)
    }

    /// `delay(for:scheduler:)` on a run loop (wrapped in a ``RunLoopScheduler``).
    public func delay(for interval: Duration, scheduler: RunLoop) -> Publishers.Delay<Self> {
        delay(for: interval, scheduler: RunLoopScheduler(scheduler))
    }

    /// `delay(for:tolerance:scheduler:)` on a run loop (wrapped in a ``RunLoopScheduler``; the tolerance is unused).
    public func delay(for interval: Duration, tolerance: Duration?, scheduler: RunLoop) -> Publishers.Delay<Self> {
        delay(for: interval, tolerance: tolerance, scheduler: RunLoopScheduler(scheduler))
    }

    /// `measureInterval(using:)` on a run loop (wrapped in a ``RunLoopScheduler``).
    public func measureInterval(using runLoop: RunLoop) -> Publishers.MeasureInterval<Self> {
        measureInterval(using: RunLoopScheduler(runLoop))
    }

    /// `timeout(_:scheduler:customError:)` on a run loop (wrapped in a ``RunLoopScheduler``).
    public func timeout(_ interval: Duration, scheduler: RunLoop, customError: (() -> Failure)? = nil)
        -> Publishers.Timeout<Self>
    {
        timeout(interval, scheduler: RunLoopScheduler(scheduler), customError: customError)
    }
}

extension Publishers.TimeGroupingStrategy {
    /// `.byTime` on a run loop (wrapped in a ``RunLoopScheduler``), so `collect(.byTime(RunLoop.main, 1))` compiles as
    /// in Combine.
    public static func byTime(_ runLoop: RunLoop, _ interval: Duration) -> Self {
        .byTime(RunLoopScheduler(runLoop), interval)
    }

    /// `.byTimeOrCount` on a run loop (wrapped in a ``RunLoopScheduler``).
    public static func byTimeOrCount(_ runLoop: RunLoop, _ interval: Duration, _ count: Int) -> Self {
        .byTimeOrCount(RunLoopScheduler(runLoop), interval, count)
    }
}
