#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a ``FeatureStore`` waits when another process holds the store's lock: it tries the lock without
/// blocking, says once that it is waiting (``onWait``), then tries again every ``pollInterval`` until the lock
/// is free, ``timeout`` has passed or ``isCancelled`` says to stop; then the load or change throws
/// ``FeatureStoreError/storeLocked(path:waited:)`` and nothing is read or changed.
///
/// The thread never blocks inside `flock`, so it can always give up; the lock is normally held for the few
/// milliseconds a change takes, so waiting means another `streams-repl` is in the middle of a slow change
/// (or stopped while holding it). A lock held by a process that died is released by the system at once.
///
/// ```swift
/// let waiting = StoreLockWaiting(timeout: .seconds(5), onWait: { message in print(message) })
/// let store = try FeatureStore(directory: directory, lockWaiting: waiting)
/// ```
public struct StoreLockWaiting: Sendable {
    /// The longest a store waits for the lock by default: 30 s.
    public static let defaultTimeout: Duration = .seconds(30)
    /// How often the lock is tried again by default: every 50 ms.
    public static let defaultPollInterval: Duration = .milliseconds(50)

    /// The longest a load or change waits for the lock.
    public var timeout: Duration
    /// How long to sleep between two tries.
    public var pollInterval: Duration
    /// Called once per wait, before the first sleep, with a sentence saying the store is locked and the
    /// wait's bound (e.g. to print it on stderr).
    public var onWait: @Sendable (String) -> Void
    /// Checked before each sleep: `true` stops waiting at once (the load or change throws
    /// ``FeatureStoreError/storeLocked(path:waited:)``).
    public var isCancelled: @Sendable () -> Bool
    /// The current time on a monotonic clock (virtual in tests).
    public var now: @Sendable () -> Duration
    /// Sleeps for the given time (a virtual clock's advance in tests).
    public var sleep: @Sendable (Duration) -> Void

    /// A way of waiting; by default up to 30 s, trying every 50 ms on the real clock, saying nothing.
    ///
    /// - Parameters:
    ///   - timeout: the longest wait (negative counts as zero: one try, no wait).
    ///   - pollInterval: the time between tries (at least 1 ms is slept).
    ///   - isCancelled: whether to stop waiting now (checked before each sleep).
    ///   - now: a monotonic clock; the default is `ContinuousClock`.
    ///   - sleep: sleeps for a time; the default really sleeps.
    ///   - onWait: called once per wait with the sentence to show.
    public init(
        timeout: Duration = StoreLockWaiting.defaultTimeout,
        pollInterval: Duration = StoreLockWaiting.defaultPollInterval,
        isCancelled: @escaping @Sendable () -> Bool = { false },
        now: @escaping @Sendable () -> Duration = StoreLockWaiting.monotonicNow,
        sleep: @escaping @Sendable (Duration) -> Void = StoreLockWaiting.realSleep,
        onWait: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.timeout = max(timeout, .zero)
        self.pollInterval = max(pollInterval, .milliseconds(1))
        self.isCancelled = isCancelled
        self.now = now
        self.sleep = sleep
        self.onWait = onWait
    }

    /// The sentence passed to ``onWait``: "store is locked by another streams-repl; waiting…", with the lock
    /// file and the bound.
    public func waitingMessage(lockPath: String) -> String {
        "the store is locked by another streams-repl (lock file \(lockPath)); waiting up to "
            + "\(Self.seconds(timeout)) s for it…"
    }

    /// Time since an arbitrary fixed point, on the system's monotonic clock.
    public static let monotonicNow: @Sendable () -> Duration = {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
    }

    /// Really sleeps (`nanosleep`; a signal may cut it short, the caller's loop then tries again sooner).
    public static let realSleep: @Sendable (Duration) -> Void = { duration in
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(max(seconds, 0)), tv_nsec: Int(max(attoseconds, 0) / 1_000_000_000))
        _ = nanosleep(&request, nil)
    }

    /// Whole seconds of `duration`, rounded up (`0.2 s` → 1), for messages.
    static func seconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds + (attoseconds > 0 ? 1 : 0)
    }
}
