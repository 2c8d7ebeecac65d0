#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The package's one lock: a non-recursive mutex over `pthread_mutex_t`.
///
/// Not `Synchronization.Mutex`: on Linux that is built on futexes the thread sanitizer cannot
/// see, so every access it guards is reported as a race (DESIGN.md §4). Never call out to
/// user code (a downstream subscriber, a closure) while holding it.
@usableFromInline
package final class Lock: @unchecked Sendable {
    @usableFromInline
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// Creates an unlocked, non-recursive mutex.
    @inlinable
    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Acquires the lock. Pair with ``unlock()``; prefer ``withLock(_:)``.
    @inlinable
    package func lock() { pthread_mutex_lock(mutex) }

    /// Releases the lock.
    @inlinable
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` with the lock held and returns its result.
    @inlinable
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A value guarded by a ``Lock``: the state of a subscription or a scheduler.
@usableFromInline
package final class Locked<State>: @unchecked Sendable {
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    @exclusivity(unchecked)
    var state: State

    /// Wraps `state`.
    @inlinable
    package init(_ state: State) { self.state = state }

    /// Runs `body` on the guarded state with the lock held. `body` must not call out.
    @inlinable
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
