/// An object that announces each change before it happens: `objectWillChange` — Combine's
/// `ObservableObject`.
///
/// A class whose changes come from `@Published` properties writes nothing but the conformance: the default
/// `objectWillChange` (an ``ObservableObjectPublisher``) sends before any of its `@Published` properties —
/// its own and its superclasses' — changes. It is found by reflection (`Mirror`) the first time it is read,
/// and the same publisher is returned from then on. A class with no `@Published` property gets a publisher
/// that never sends, unless it declares its own `objectWillChange` and sends it itself.
///
/// - Threading: `objectWillChange` may be read from any thread; it sends on the thread that sets a property.
///
/// ```swift
/// final class Basket: ObservableObject {
///     @Published var items: [String] = []
/// }
/// let basket = Basket()
/// let c = basket.objectWillChange.sink { print("will change; still", basket.items) }
/// basket.items.append("tea")   // will change; still []
/// ```
public protocol ObservableObject: AnyObject {
    /// The publisher that sends before the object changes.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never

    /// Sends before the object changes.
    var objectWillChange: ObjectWillChangePublisher { get }
}

/// Serialises the first reads of `objectWillChange` of every object, so an object gets one publisher even
/// when two threads read it for the first time at once.
private let willChangeInstallation = Lock()

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// The publisher that sends before any `@Published` property of this object changes.
    public var objectWillChange: ObservableObjectPublisher {
        var storages: [any PublishedStorage] = []
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                if let property = child.value as? any PublishedProperty { storages.append(property.storage) }
            }
            mirror = current.superclassMirror
        }
        guard !storages.isEmpty else { return ObservableObjectPublisher() }
        return willChangeInstallation.withLock {
            if let installed = storages.lazy.compactMap(\.willChangePublisher).first { return installed }
            let publisher = ObservableObjectPublisher()
            for storage in storages { storage.install(publisher) }
            return publisher
        }
    }
}

/// The default `objectWillChange` of an ``ObservableObject``: publishes `()` on each ``send()``, to the
/// subscribers that have demand (like a `PassthroughSubject<Void, Never>`); never completes.
///
/// ```swift
/// let willChange = ObservableObjectPublisher()
/// let c = willChange.sink { print("changing") }
/// willChange.send()   // changing
/// ```
public final class ObservableObjectPublisher: Publisher, Sendable {
    /// `()`: only the fact of a change.
    public typealias Output = Void
    /// Never fails.
    public typealias Failure = Never

    /// The subscribers. Reached from inlinable code, so that a subscriber's conduit is built where its type is
    /// known: built here, in unspecialised code, every `send()` looked up type metadata for it.
    @usableFromInline
    let subject = PassthroughSubject<Void, Never>()

    /// A publisher with no subscribers.
    public init() {}

    /// Attaches `subscriber`.
    @inlinable
    public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Void, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }

    /// Tells every subscriber with demand that the object is about to change.
    @inlinable
    public func send() { subject.send(()) }
}
