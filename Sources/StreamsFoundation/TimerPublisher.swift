import Foundation
import Streams

extension Timer {
    /// A connectable publisher of the current `Date` every `interval` seconds on `runLoop` in `mode` —
    /// Combine's `Timer.publish(every:tolerance:on:in:)`. Use `autoconnect()` to start it with its first
    /// subscriber, or `connect()`.
    ///
    /// - The run loop must run (`RunLoop.main` runs in an app; in a command-line program call
    ///   `RunLoop.main.run()` or run the loop of the thread you pass).
    /// - Demand: a tick without demand is dropped, as in Combine.
    ///
    /// ```swift
    /// let c = Timer.publish(every: 1, on: .main, in: .common).autoconnect().sink { print($0) }
    /// ```
    public static func publish(
        every interval: TimeInterval, tolerance: TimeInterval? = nil, on runLoop: RunLoop, in mode: RunLoop.Mode
    ) -> TimerPublisher {
        TimerPublisher(interval: interval, tolerance: tolerance, runLoop: runLoop, mode: mode)
    }

    /// The publisher returned by `publish(every:tolerance:on:in:)`. Sound as
    /// `@unchecked Sendable`: its properties are immutable, ticks go through a thread-safe subject, and the run
    /// loop is used only through `add(_:forMode:)` and `Timer.invalidate()`, which CoreFoundation makes
    /// thread-safe.
    public final class TimerPublisher: ConnectablePublisher, @unchecked Sendable {
        /// The current date at each tick.
        public typealias Output = Date
        /// Never fails.
        public typealias Failure = Never

        /// Seconds between ticks.
        public let interval: TimeInterval
        /// How late a tick may fire.
        public let tolerance: TimeInterval?
        /// The run loop the timer runs on.
        public let runLoop: RunLoop
        /// The run loop mode it runs in.
        public let mode: RunLoop.Mode
        private let subject = PassthroughSubject<Date, Never>()

        /// A timer publisher; nothing ticks until ``connect()``.
        public init(interval: TimeInterval, tolerance: TimeInterval? = nil, runLoop: RunLoop, mode: RunLoop.Mode) {
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
        }

        /// Attaches `subscriber`; it receives ticks once connected.
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Date, S.Failure == Never {
            subject.receive(subscriber: subscriber)
        }

        /// Starts the timer; cancelling the result stops it.
        public func connect() -> any Cancellable {
            let subject = self.subject
            // The first tick one interval after connecting, as in Combine: `Timer(fire:…)`, because Foundation on
            // Linux fires `Timer(timeInterval:repeats:block:)` at once.
            let action = TimerAction(repeats: true) { subject.send(Date()) }
            let timer = Timer(fire: Date(timeIntervalSinceNow: interval), interval: interval, repeats: true) { _ in
                action.run()
            }
            if let tolerance { timer.tolerance = tolerance }
            runLoop.add(timer, forMode: mode)
            return TimerConnection(timer: timer, action: action)
        }
    }
}

