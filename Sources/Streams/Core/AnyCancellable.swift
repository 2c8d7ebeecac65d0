import Synchronization

/// A type-erased cancellable that cancels when it is deallocated.
///
/// Keep the `AnyCancellable` returned by `sink` for as long as you want values: dropping it cancels the
/// subscription. `cancel()` is idempotent and thread-safe; the cancel action runs at most once and is
/// released afterwards. Equality and hashing are by identity, so it can live in a `Set`.
///
/// ```swift
/// var bag = Set<AnyCancellable>()
/// subject.sink { print($0) }.store(in: &bag)
/// ```
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
    // `action` comes first: with the one-byte flag after it the object is 34 bytes, a 48-byte heap block.
    private var action: Action?
    /// Set once by the first `cancel()`; only the caller that sets it touches `action` afterwards.
    /// (An atomic flag instead of a lock: no lock object and no mutex per cancellable.)
    private let isCancelled = Atomic<Bool>(false)

    /// What to cancel: a closure, or a cancellable object stored as it is (no closure allocated for it).
    /// Both payloads are two words.
    private enum Action {
        case run(() -> Void)
        case cancel(any AnyObject & Cancellable)
    }

    /// Wraps a closure to run (once) on cancel or deinit.
    public init(_ cancel: @escaping () -> Void) {
        action = .run(cancel)
    }

    /// Wraps another cancellable; cancelling or dropping this one cancels it.
    public init<C: Cancellable>(_ canceller: C) {
        action = .run { canceller.cancel() }
    }

    /// Wraps a cancellable object (a `Sink`, a subscription); cancelling or dropping this one cancels it.
    /// Stores the object itself, with no closure around it.
    public init<C: Cancellable & AnyObject>(_ canceller: C) {
        action = .cancel(canceller)
    }

    deinit { cancel() }

    /// Runs the cancel action once; later calls do nothing.
    public func cancel() {
        guard !isCancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var pending: Action? = nil
        swap(&pending, &action)  // moved out, not copied
        switch consume pending {
        case .run(let run): run()
        case .cancel(let canceller): canceller.cancel()
        case nil: break
        }
    }

    /// Identity equality.
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }

    /// Hashes the identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// Adds this cancellable to a collection (e.g. an array) that keeps it alive.
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        collection.append(self)
    }

    /// Adds this cancellable to a set that keeps it alive.
    public func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }
}

extension Cancellable {
    /// Wraps this cancellable in an ``AnyCancellable`` and stores it in a collection.
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        AnyCancellable(self).store(in: &collection)
    }

    /// Wraps this cancellable in an ``AnyCancellable`` and stores it in a set.
    public func store(in set: inout Set<AnyCancellable>) {
        AnyCancellable(self).store(in: &set)
    }
}
