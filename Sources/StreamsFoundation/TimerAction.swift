import Foundation
import Streams

/// What a Foundation `Timer` runs, in a box its block captures.
///
/// Foundation on Linux never releases a block-based `Timer`'s block — not after it fires, not after
/// `invalidate()`, not even when it was never scheduled — so a block capturing the action would keep the
/// action, and everything it captures (a subscription, a subject), alive for good. The block holds only this
/// box, and the box lets go of the action when a one-shot timer has run or the timer is cancelled; what stays
/// behind is the `Timer` and an empty box.
///
/// Sound as `Sendable`: the action is guarded by its `Locked`.
final class TimerAction: Sendable {
    private let action: Locked<(@Sendable () -> Void)?>
    private let repeats: Bool

    /// A box for `action`; a one-shot box (`repeats: false`) empties itself when it runs.
    init(repeats: Bool, _ action: @escaping @Sendable () -> Void) {
        self.action = Locked(action)
        self.repeats = repeats
    }

    /// Runs the action, if it is still there (outside the lock).
    func run() {
        let action = self.action.withLock { action in
            defer { if !repeats { action = nil } }
            return action
        }
        action?()
    }

    /// Lets go of the action (released outside the lock).
    func clear() {
        let released = action.withLock { action in
            defer { action = nil }
            return action
        }
        _ = released
    }
}

/// Stops a connected or scheduled timer and lets go of its action. Sound as `@unchecked Sendable`: immutable,
/// `Timer.invalidate()` is thread-safe and ``TimerAction`` is `Sendable`.
struct TimerConnection: Cancellable, @unchecked Sendable {
    let timer: Timer
    let action: TimerAction

    func cancel() {
        timer.invalidate()
        action.clear()
    }
}
