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
/// see, so every access it guards is reported as a race. Never call out to
/// user code (a downstream subscriber, a closure) while holding it.
///
/// A value with reference semantics: copies share one mutex. The mutex is tail-allocated in a
/// single heap object (one allocation per lock, not an object plus a separately allocated mutex).
@usableFromInline
package struct Lock: @unchecked Sendable {
    @usableFromInline
    let storage: LockStorage<Void>

    /// Creates an unlocked, non-recursive mutex.
    @inlinable
    package init() { storage = LockStorage.make(()) }

    /// Acquires the lock. Pair with ``unlock()``; prefer ``withLock(_:)``.
    @inlinable
    package func lock() { storage.lock() }

    /// Releases the lock.
    @inlinable
    package func unlock() { storage.unlock() }

    /// Runs `body` with the lock held and returns its result.
    @inlinable
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        storage.lock()
        defer { storage.unlock() }
        return try body()
    }
}

/// A value guarded by a ``Lock``: the state of a subscription or a scheduler.
///
/// A value with reference semantics: copies share the state and the mutex, both stored in one heap
/// object (the state as its header, the mutex tail-allocated).
@usableFromInline
package struct Locked<State>: @unchecked Sendable {
    @usableFromInline
    let storage: LockStorage<State>

    /// Wraps `state`.
    @inlinable
    package init(_ state: State) { storage = LockStorage.make(state) }

    /// The guarded state, without the lock: only with the lock held (``lock``).
    @inlinable
    var state: State {
        unsafeAddress { UnsafePointer(storage.headerPointer) }
        nonmutating unsafeMutableAddress { storage.headerPointer }
    }

    /// Acquires the lock, for explicit `lock()`/`unlock()` on hot paths; prefer ``withLock(_:)``.
    @inlinable
    func lock() { storage.lock() }

    /// Releases the lock.
    @inlinable
    func unlock() { storage.unlock() }

    /// Runs `body` on the guarded state with the lock held. `body` must not call out.
    @inlinable
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        storage.lock()
        defer { storage.unlock() }
        return try body(&storage.headerPointer.pointee)
    }
}

/// One heap object holding a header (the guarded state) and a tail-allocated `pthread_mutex_t`.
@usableFromInline
final class LockStorage<Header>: ManagedBuffer<Header, pthread_mutex_t> {
    /// Creates the object with `header` and an initialised, unlocked mutex.
    @inlinable
    static func make(_ header: Header) -> LockStorage<Header> {
        let buffer = create(minimumCapacity: 1) { _ in header }
        buffer.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        }
        return unsafeDowncast(buffer, to: LockStorage<Header>.self)
    }

    /// The header's address, stable while the buffer lives. Accessing the state through it skips the
    /// dynamic exclusivity check that `header` (a class property) costs on every access; the lock is what
    /// makes those accesses exclusive.
    @inlinable
    var headerPointer: UnsafeMutablePointer<Header> { withUnsafeMutablePointerToHeader { $0 } }

    @inlinable
    func lock() { withUnsafeMutablePointerToElements { _ = pthread_mutex_lock($0) } }

    @inlinable
    func unlock() { withUnsafeMutablePointerToElements { _ = pthread_mutex_unlock($0) } }

    deinit {
        withUnsafeMutablePointerToElements { mutex in
            pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
        }
    }
}
