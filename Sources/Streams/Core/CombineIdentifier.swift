import Synchronization

/// A unique identity for a subscriber or subscription — Combine's `CombineIdentifier`.
///
/// `CombineIdentifier()` is a new identity, different from every other; `CombineIdentifier(object)` is the
/// identity of an object, the same for every read. Hashable, so identities can key a dictionary.
///
/// ```swift
/// struct Logger<Input>: Subscriber {
///     let combineIdentifier = CombineIdentifier()
///     …
/// }
/// ```
public struct CombineIdentifier: Hashable, CustomStringConvertible, Sendable {
    /// An object's address, or a number from a counter (the low bit tells which).
    private let value: UInt64

    /// A new identity, unique in this process.
    public init() {
        value = (identifierCounter.add(1, ordering: .relaxed).newValue << 1) | 1
    }

    /// The identity of `object`: equal for the same object, as long as it lives, and different for two objects
    /// alive at once (it is the object's address).
    public init(_ object: AnyObject) {
        // The address itself, not its `hashValue`: a seeded hash costs a SipHash round per call and could, in
        // principle, give two live objects the same identity.
        value = UInt64(UInt(bitPattern: ObjectIdentifier(object))) << 1
    }

    /// The identity as hexadecimal text.
    public var description: String { "0x" + String(value, radix: 16) }
}

/// Numbers the identities made by `CombineIdentifier()` (an atomic counter, shared by every thread).
private let identifierCounter = Atomic<UInt64>(0)

/// A type with a ``CombineIdentifier`` — what `Subscriber` and `Subscription` refine, as in Combine.
///
/// Classes get one for free (their object identity). A struct subscriber that wants a stable identity
/// declares `let combineIdentifier = CombineIdentifier()`; one that does not gets a new identity per read.
public protocol CustomCombineIdentifierConvertible {
    /// This value's identity.
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    /// The object's identity.
    public var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}

extension CustomCombineIdentifierConvertible {
    /// A new identity per read, for a value type that declares none.
    public var combineIdentifier: CombineIdentifier { CombineIdentifier() }
}
