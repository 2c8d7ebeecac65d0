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
    /// Whether it holds nothing; a requirement (not an extension) so that unspecialised code asks `Optional`'s own
    /// witness, which needs no metadata beyond the slot's.
    var isNil: Bool { get }
}

extension Optional: OptionalSlot {
    @inlinable
    var wrapped: Wrapped? {
        get { self }
        set { self = newValue }
    }

    @inlinable
    var isNil: Bool { self == nil }
}

/// An ``OptionalSlot`` that is always empty and takes no space: for a field that some instantiations of a class never
/// use (a `PassthroughSubject`'s conduit keeps no latest value). Writing a value to it drops the value, so it is
/// chosen only where nothing is ever written.
@usableFromInline
struct EmptySlot<Wrapped>: OptionalSlot {
    @inlinable
    init(nilLiteral: ()) {}

    @inlinable
    var wrapped: Wrapped? {
        get { nil }
        set {}
    }

    @inlinable
    var isNil: Bool { true }
}

extension OptionalSlot {
    /// A slot holding `value`.
    @inlinable
    init(holding value: Wrapped) {
        self = nil
        wrapped = value
    }
}

/// A class that keeps its subscriber in an ``OptionalSlot`` field, `held` (instantiated as `Downstream?`), so that its
/// unspecialised `cancel()` and `deinit` clear and destroy it without a metadata lookup (they use `held` directly).
/// Specialised code reads and writes it as a plain `Optional` through ``downstream``. Used by the timing operators,
/// `Sequence.publisher`, `HeldResultCore`, `CombiningCore`, `buffer`, `Future`, `replaceError`, `retry` and others
/// (Docs/Architecture.md lists them).
@usableFromInline
protocol HoldsDownstreamInSlot: AnyObject {
    associatedtype Downstream
    associatedtype HeldDownstream: OptionalSlot where HeldDownstream.Wrapped == Downstream
    /// The subscriber, `nil` once completed or cancelled; guarded by the class's lock.
    var held: HeldDownstream { get set }
}

extension HoldsDownstreamInSlot {
    /// ``held`` as a plain `Optional`, for specialised code (where `HeldDownstream` is `Downstream?`).
    @inlinable
    var downstream: Downstream? {
        get { held.wrapped }
        set { held.wrapped = newValue }
    }
}

/// Any stored value of a generic type, seen through a protocol, for the same reason as ``OptionalSlot``: a class's
/// `deinit` runs unspecialised, and destroying a field of a generic struct type (a timing operator's state machine)
/// looks that type's metadata up in the runtime's hash table. Declared instead as a generic parameter
/// `Slot: ValueSlot` of the class (instantiated as the struct itself, which conforms), its metadata is one of the
/// class's own generic arguments: no lookup. Specialised code reaches the struct in place through ``value``.
@usableFromInline
protocol ValueSlot {
    associatedtype Value
    /// The value itself, in place.
    var value: Value { get set }
}
