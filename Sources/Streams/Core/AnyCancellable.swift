import Synchronization

/// A type-erased cancellable that cancels when it is deallocated.
///
/// Keep the `AnyCancellable` returned by `sink` for as long as you want values: dropping it cancels the
/// subscription. `cancel()` is idempotent and thread-safe; the cancel action runs at most once and is
/// released afterwards. Equality and hashing are by identity, so it can live in a `Set`.
///
/// Not `final`, but not `open` either: only Streams derives from it (the cancellable `sink`, `assign` and
/// `subscribe(_:)` return holds its subscriber directly, in one word).
///
/// Its only state is one atomic pointer, which the first `cancel()` takes; so the action runs at most once,
/// on the thread that cancels (or releases the last reference).
///
/// ```swift
/// var bag = Set<AnyCancellable>()
/// subject.sink { print($0) }.store(in: &bag)
/// ```
public class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
    /// What to cancel, retained (an `Unmanaged` pointer); `nil` once the first `cancel()` took it, so only
    /// that caller runs it. In an `AnyCancellable` itself a ``CancelAction``; in an ``ObjectCancellable`` the
    /// cancellable object itself. One word: the object is 24 bytes, a 32-byte heap block.
    @usableFromInline
    let target: Atomic<UnsafeMutableRawPointer?>

    /// Wraps a closure to run (once) on cancel or deinit.
    public init(_ cancel: @escaping () -> Void) {
        // Retained here; released only by the `cancel()` whose atomic exchange takes it out of `target`.
        target = Atomic(Unmanaged.passRetained(ClosureAction(cancel) as CancelAction).toOpaque())
    }

    /// Wraps another cancellable; cancelling or dropping this one cancels it.
    public init<C: Cancellable>(_ canceller: C) {
        // Retained here; released only by the `cancel()` whose atomic exchange takes it out of `target`.
        target = Atomic(Unmanaged.passRetained(ValueAction(canceller) as CancelAction).toOpaque())
    }

    /// Wraps a cancellable object (a `Sink`, a subscription); cancelling or dropping this one cancels it.
    public init<C: Cancellable & AnyObject>(_ canceller: C) {
        // Retained here; released only by the `cancel()` whose atomic exchange takes it out of `target`.
        target = Atomic(Unmanaged.passRetained(ValueAction(canceller) as CancelAction).toOpaque())
    }

    /// For ``ObjectCancellable``: holds `object` (retained), which the subclass's `cancel()` knows the type of.
    @usableFromInline
    init(retaining object: AnyObject) {
        target = Atomic(Unmanaged.passRetained(object).toOpaque())
    }

    deinit { cancel() }

    /// Runs the cancel action once; later calls do nothing.
    public func cancel() {
        guard let pointer = target.exchange(nil, ordering: .acquiringAndReleasing) else { return }
        // Sound: the atomic exchange gave this call the only copy of the pointer `init` retained, so the retain
        // is balanced exactly once. It is a `CancelAction`: only `ObjectCancellable`, which overrides this method,
        // uses `init(retaining:)`.
        Unmanaged<CancelAction>.fromOpaque(pointer).takeRetainedValue().run()
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

/// The `AnyCancellable` that `sink`, `assign` and `subscribe(_:)` return: it holds the cancellable object
/// (their subscriber) itself, in the one word of its base, rather than in a ``CancelAction`` beside it.
/// Its `cancel()` knows the object's type, so it calls it with no dynamic cast. Its only state is the base's
/// `target`, an atomic.
@usableFromInline
final class ObjectCancellable<Object: Cancellable & AnyObject>: AnyCancellable, @unchecked Sendable {
    @inlinable
    init(_ object: Object) {
        super.init(retaining: object)
    }

    @usableFromInline
    override func cancel() {
        guard let pointer = target.exchange(nil, ordering: .acquiringAndReleasing) else { return }
        // Sound: `init(retaining:)` stored an `Object`, retained; the atomic exchange gave this call the only copy,
        // so the retain is balanced exactly once.
        Unmanaged<Object>.fromOpaque(pointer).takeRetainedValue().cancel()
    }
}

/// What an ``AnyCancellable`` made by one of its public initialisers runs on cancel: a class, so the
/// cancellable holds it in one word.
@usableFromInline
class CancelAction {
    /// Runs the action (once: the cancellable calls it at most once).
    func run() {}
}

/// A closure to run on cancel.
final class ClosureAction: CancelAction {
    let action: () -> Void
    init(_ action: @escaping () -> Void) { self.action = action }
    override func run() { action() }
}

/// A cancellable value (or object) to cancel.
final class ValueAction<C: Cancellable>: CancelAction {
    let canceller: C
    init(_ canceller: C) { self.canceller = canceller }
    override func run() { canceller.cancel() }
}
