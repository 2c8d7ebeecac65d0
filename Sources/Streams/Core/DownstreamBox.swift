/// A subscriber held by reference (by subject conduits, `scan`, `removeDuplicates`): its holder clears an
/// `Optional` of a class, which unspecialised code (`cancel`, `deinit`) does without looking up type
/// metadata, and calls through the immutable `value` without copying (retaining) each of its parts.
@usableFromInline
final class DownstreamBox<Value> {
    @usableFromInline
    let value: Value

    @inlinable
    init(_ value: Value) { self.value = value }
}
