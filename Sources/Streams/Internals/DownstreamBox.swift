/// A subscriber held by reference (by subject conduits): its holder calls it through the immutable `value`
/// of an unretained box, without copying (retaining) each of its parts per value, and clears an `Optional`
/// of a class, which unspecialised code (`cancel`, `deinit`) does without looking up type metadata.
/// Operators that need no per-value hand-off keep their subscriber in an ``OptionalSlot`` field instead (no
/// allocation).
@usableFromInline
final class DownstreamBox<Value> {
    @usableFromInline
    let value: Value

    @inlinable
    init(_ value: Value) { self.value = value }
}

/// A subscriber stored in place in a generic class, which its holder calls without copying (retaining) each of
/// its parts per value and releases early (before the class is freed).
///
/// A generic parameter of the holder (instantiated as ``HeldDownstream``), for the same reason as
/// ``OptionalSlot``: the holder's unspecialised `deinit` then destroys it with the metadata among the class's
/// own generic arguments, without a lookup. Noncopyable, so that specialised code reads the subscriber by
/// borrowing it where it lies (``with(_:)``), which copyable storage cannot promise the optimiser.
@usableFromInline
protocol DownstreamSlot: ~Copyable {
    associatedtype Downstream
    /// Holds `downstream`.
    init(_ downstream: consuming Downstream)
    /// Holds nothing.
    init()
    /// Calls `body` with the subscriber, borrowed in place; `nil` if there is none.
    borrowing func with<R>(_ body: (borrowing Downstream) -> R) -> R?
    /// Moves the subscriber out, leaving nothing.
    mutating func take() -> Downstream?
}

/// An `Optional` that cannot be copied: see ``DownstreamSlot``.
@usableFromInline
enum HeldDownstream<Downstream>: ~Copyable, DownstreamSlot {
    case some(Downstream)
    case none

    @inlinable
    init(_ downstream: consuming Downstream) { self = .some(downstream) }

    @inlinable
    init() { self = .none }

    @inlinable
    @inline(__always)
    borrowing func with<R>(_ body: (borrowing Downstream) -> R) -> R? {
        switch self {
        case .some(let downstream): return body(downstream)
        case .none: return nil
        }
    }

    @inlinable
    mutating func take() -> Downstream? {
        switch consume self {
        case .some(let downstream):
            self = .none
            return downstream
        case .none:
            self = .none
            return nil
        }
    }
}
