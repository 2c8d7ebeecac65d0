import Synchronization

/// A property of a class whose changes are published: `$property` is a publisher of its value, and a change
/// notifies the enclosing ``ObservableObject``'s `objectWillChange` first — Combine's `@Published`.
///
/// - Timing: a change is published on *willSet*, as in Combine. In order: `objectWillChange` sends, then
///   every subscriber of `$property` receives the new value, then the property holds it. So a subscriber that
///   reads the property while receiving sees the old value (compare with the value it received).
/// - Subscribing to `$property` delivers the current value first (when demanded), then every later one; it
///   never completes. Demand is respected: a subscriber without demand misses values (the newest is
///   delivered when it asks, as with `CurrentValueSubject`).
/// - Only for properties of classes (the wrapper reads and writes through the enclosing instance); on a
///   struct's property it does not compile, as in Combine.
/// - Threading: the property may be read and set from any thread; each set is published. Two sets racing on
///   different threads are both published, in the order the subject serializes them; which value the
///   property then holds is the one stored last, so synchronise such writers as you would for any property.
///
/// ```swift
/// final class SearchModel: ObservableObject {
///     @Published var query = ""
/// }
/// let model = SearchModel()
/// let c = model.$query.sink { print("query:", $0) }   // query: (empty), then each change
/// model.query = "swift"                              // query: swift
/// ```
@propertyWrapper
public struct Published<Value> {
    @usableFromInline
    var box: PublishedBox<Value>

    /// A published property starting at `wrappedValue` (what `@Published var x = value` calls).
    public init(wrappedValue: Value) {
        box = PublishedBox(wrappedValue)
    }

    /// A published property starting at `initialValue` (Combine's older spelling).
    public init(initialValue: Value) {
        self.init(wrappedValue: initialValue)
    }

    /// Not used: a `@Published` property is read and written through its enclosing instance, so that a
    /// change can notify that instance's `objectWillChange`.
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { box.value }
        set { box.set(newValue) }
    }

    /// The publisher of the property's values: `$property`. Setting it (as `assign(to: &$property)`'s
    /// in-out access does) replaces the property's storage with that publisher's.
    public var projectedValue: Publisher {
        get { Publisher(box: box) }
        set { box = newValue.box }
    }

    /// Reads and writes the property of `object` stored at `storage`; a write publishes (see the type's
    /// documentation for the order).
    @inlinable
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].box.value }
        set { object[keyPath: storageKeyPath].box.set(newValue) }
    }
}

extension Published {
    /// The publisher of a `@Published` property (`$property`): the current value on subscription, then each
    /// new value on willSet; never completes.
    public struct Publisher: Streams.Publisher {
        /// The property's type.
        public typealias Output = Value
        /// Never fails.
        public typealias Failure = Never

        @usableFromInline
        let box: PublishedBox<Value>

        init(box: PublishedBox<Value>) { self.box = box }

        /// Attaches `subscriber`: it receives the current value when it requests, then every change.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Value, S.Failure == Never {
            box.subject.receive(subscriber: subscriber)
        }
    }
}

extension Streams.Publisher where Failure == Never {
    /// Assigns every value to a `@Published` property, for as long as that property exists: the subscription
    /// ends when the object holding the property is freed, so there is no `AnyCancellable` to keep.
    ///
    /// - Demand: `.unlimited`. Each value is set as if assigned to the property: `objectWillChange` and
    ///   `$property`'s subscribers see it.
    /// - No retain cycle: the subscription holds the property's storage weakly, so `$x` of `self` may be
    ///   assigned from a pipeline that starts at `self`'s other publishers.
    ///
    /// ```swift
    /// final class Model: ObservableObject {
    ///     @Published var query = ""
    ///     @Published private(set) var length = 0
    ///     init() { $query.map(\.count).assign(to: &$length) }
    /// }
    /// ```
    public func assign(to published: inout Published<Output>.Publisher) {
        let box = published.box
        let cancellable = sink { [weak box] value in box?.set(value) }
        box.keep(cancellable)
    }
}

/// The storage of one `@Published` property: its value, the subject behind `$property`, the enclosing
/// object's `objectWillChange` once someone asked for it, and the subscriptions `assign(to:)` keeps alive.
///
/// Sound as `@unchecked Sendable`: every mutable field is in `state`, under its lock, and `subject` is
/// thread-safe itself.
@usableFromInline
final class PublishedBox<Value>: PublishedStorage, @unchecked Sendable {
    /// The stored value and the kept subscriptions; guarded by its own lock (never held while calling out).
    @usableFromInline
    let state: Locked<State>
    /// The enclosing object's will-change publisher, installed at most once (by ``install(_:)``); read without
    /// a lock on every change. (`AtomicLazyReference` would do, but its `load()` is not inlinable: two generic
    /// metadata lookups per change.)
    /// Sound: the publisher stored here is retained by ``install(_:)`` and released only in `deinit`, so a
    /// reference read from it is valid for as long as this storage is, which its reader keeps alive.
    @usableFromInline
    let willChange = Atomic<Unmanaged<ObservableObjectPublisher>?>(nil)
    /// What `$property` subscribers subscribe to; it publishes before `state.value` changes.
    @usableFromInline
    let subject: CurrentValueSubject<Value, Never>

    @usableFromInline
    struct State {
        @usableFromInline
        var value: Value
        var kept: [AnyCancellable] = []
    }

    init(_ value: Value) {
        state = Locked(State(value: value))
        subject = CurrentValueSubject(value)
    }

    /// The property's value.
    @inlinable
    var value: Value { state.withLock { $0.value } }

    /// Publishes `newValue` (willChange, then `$property`), then stores it.
    @inlinable
    func set(_ newValue: Value) {
        willChangePublisher?.send()
        subject.send(newValue)
        state.withLock { $0.value = newValue }
    }

    /// Keeps `cancellable` alive as long as this storage.
    func keep(_ cancellable: AnyCancellable) {
        state.withLock { $0.kept.append(cancellable) }
    }

    /// The installed will-change publisher, if any (see ``willChange``).
    @inlinable
    var willChangePublisher: ObservableObjectPublisher? {
        willChange.load(ordering: .acquiring)?.takeUnretainedValue()
    }

    func install(_ publisher: ObservableObjectPublisher) {
        // Sound: this retain is either stored (and balanced in `deinit`) or released at once below.
        let retained = Unmanaged.passRetained(publisher)
        let (stored, _) = willChange.compareExchange(
            expected: nil, desired: retained, ordering: .acquiringAndReleasing)
        if !stored { retained.release() }  // one was installed already: keep that one
    }

    deinit {
        // Sound: the one retain `install(_:)` stored; nobody reads `willChange` once this storage is gone.
        willChange.load(ordering: .acquiring)?.release()
    }
}

/// A `@Published` property's storage seen without its value type, so `ObservableObject` can find it by
/// reflection and connect its `objectWillChange`.
protocol PublishedStorage: AnyObject {
    /// The enclosing object's will-change publisher, once installed.
    var willChangePublisher: ObservableObjectPublisher? { get }
    /// Installs `publisher` unless one is installed.
    func install(_ publisher: ObservableObjectPublisher)
}

/// A `Published` wrapper seen without its value type (what `Mirror` finds in an object's stored properties).
protocol PublishedProperty {
    /// The property's storage.
    var storage: any PublishedStorage { get }
}

extension Published: PublishedProperty {
    var storage: any PublishedStorage { box }
}
