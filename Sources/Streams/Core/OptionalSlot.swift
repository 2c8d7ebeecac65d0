/// An `Optional`, seen through a protocol, for the stored properties of generic classes whose `cancel` or
/// `deinit` run unspecialised (reached through `any Subscription` or the destructor).
///
/// A stored property of type `T?` makes unspecialised code look up the metadata of `Optional<T>` in the
/// runtime's hash table each time it copies, clears or destroys the property. Declared instead as a generic
/// parameter `Slot: OptionalSlot` of the class (instantiated as `T?`), its metadata is one of the class's
/// own generic arguments: no lookup. Specialised code sees a plain `Optional`.
@usableFromInline
protocol OptionalSlot: ExpressibleByNilLiteral {
    associatedtype Wrapped
    /// The optional itself.
    var wrapped: Wrapped? { get set }
}

extension Optional: OptionalSlot {
    @inlinable
    var wrapped: Wrapped? {
        get { self }
        set { self = newValue }
    }
}
