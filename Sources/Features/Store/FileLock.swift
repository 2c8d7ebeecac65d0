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

    /// Runs `body` holding the lock, waiting for other holders to release it first.
    func withLock<Result>(_ body: () throws(FeatureStoreError) -> Result) throws(FeatureStoreError) -> Result {
        var status: Int32
        repeat {
            status = flock(descriptor, LOCK_EX)
        } while status != 0 && errno == EINTR
        guard status == 0 else {
            throw .writeFailed(path: path, reason: "cannot lock: \(FileLock.lastErrorDescription())")
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// The text of the current `errno`.
    static func lastErrorDescription() -> String {
        String(cString: strerror(errno))
    }
}
