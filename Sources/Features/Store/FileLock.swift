#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive advisory lock (`flock`) on a lock file, so processes sharing a store directory take turns.
///
/// Each instance opens its own descriptor, so two instances (in one process or two) exclude each other.
/// Not reentrant: the holder must not take it again.
final class FileLock: @unchecked Sendable {
    /// The lock file's path.
    let path: String
    private let descriptor: Int32

    /// Opens (creating if needed) the lock file at `path`.
    init(path: String) throws(FeatureStoreError) {
        self.path = path
        descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .writeFailed(path: path, reason: FileLock.lastErrorDescription())
        }
    }

    deinit { close(descriptor) }

    /// Runs `body` holding the lock. When another holder has it, waits as `waiting` says (never blocking
    /// inside `flock`, so the wait is bounded and can be cancelled).
    ///
    /// - Throws: ``FeatureStoreError/storeLocked(path:waited:)`` when the lock stayed taken for
    ///   `waiting.timeout` (or the wait was cancelled); `body`'s error.
    func withLock<Result>(
        waiting: StoreLockWaiting, _ body: () throws(FeatureStoreError) -> Result
    ) throws(FeatureStoreError) -> Result {
        try acquire(waiting)
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Takes the lock: tries without blocking; if taken, says so once, then sleeps and tries again until the
    /// time is up.
    private func acquire(_ waiting: StoreLockWaiting) throws(FeatureStoreError) {
        guard try !tryLock() else { return }
        let start = waiting.now()
        waiting.onWait(waiting.waitingMessage(lockPath: path))
        while true {
            let waited = waiting.now() - start
            if waited >= waiting.timeout || waiting.isCancelled() {
                throw .storeLocked(path: path, waited: waited)
            }
            waiting.sleep(min(waiting.pollInterval, waiting.timeout - waited))
            if try tryLock() { return }
        }
    }

    /// One try without blocking: `true` when the lock is now held, `false` when another holder has it.
    private func tryLock() throws(FeatureStoreError) -> Bool {
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
            switch errno {
            case EINTR: continue
            case EWOULDBLOCK: return false
            default: throw .writeFailed(path: path, reason: "cannot lock: \(FileLock.lastErrorDescription())")
            }
        }
    }

    /// The text of the current `errno`.
    static func lastErrorDescription() -> String {
        String(cString: strerror(errno))
    }
}
