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
