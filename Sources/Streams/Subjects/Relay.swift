/// A publisher you can push values into but never complete or fail: ``PassthroughRelay`` and
/// ``CurrentValueRelay`` (CombineExt's `Relay`).
///
/// A relay is a ``Subject`` without `send(completion:)`: its `Failure` is `Never` and it finishes its
/// subscribers only when it is deallocated (as in CombineExt), so a subscriber cannot be ended by a producer
/// by mistake. Use one for UI events or state that lives as long as its owner.
///
/// - Demand, ordering and threading: those of the subject each relay is built on (see ``PassthroughRelay``
///   and ``CurrentValueRelay``): `accept` is safe from any thread and serialized.
/// - Feeding a relay from a publisher: `relay.subscribe(publisher)` or `publisher.subscribe(relay)` (the
///   same thing) relays the publisher's values and ignores its completion, so the relay stays usable.
///
/// ```swift
/// let taps = PassthroughRelay<Void>()
/// let c = taps.sink { print("tap") }
/// taps.accept()
/// ```
public protocol Relay<Output>: Publisher where Failure == Never {
    /// The type of the values the relay publishes.
    associatedtype Output

    /// Sends `value` to the relay's subscribers (as a subject's `send(_:)`).
    func accept(_ value: Output)

    /// Relays every value of `publisher` until the returned cancellable is cancelled or released; the
    /// publisher's completion is ignored (the relay does not complete).
    ///
    /// ```swift
    /// let link = relay.subscribe([1, 2, 3].publisher)
    /// ```
    ///
    /// - Parameter publisher: an infallible publisher of the relay's `Output`.
    /// - Returns: a cancellable that cancels the subscription to `publisher`.
    func subscribe<P: Publisher>(_ publisher: P) -> AnyCancellable where P.Output == Output, P.Failure == Never
}

extension Relay where Output == Void {
    /// Sends `()`.
    ///
    /// ```swift
    /// taps.accept()
    /// ```
    @inlinable
    public func accept() { accept(()) }
}

extension Publisher where Failure == Never {
    /// Relays this publisher's values to `relay` (its completion is ignored); the same as
    /// `relay.subscribe(self)`.
    ///
    /// ```swift
    /// let link = Just(1).subscribe(relay)
    /// ```
    ///
    /// - Parameter relay: the relay that accepts this publisher's values.
    /// - Returns: a cancellable that cancels the subscription to this publisher.
    @inlinable
    public func subscribe<R: Relay>(_ relay: R) -> AnyCancellable where R.Output == Output {
        relay.subscribe(self)
    }
}

/// A relay that broadcasts values to its current subscribers, with no initial value: a ``PassthroughSubject``
/// that cannot complete (CombineExt's `PassthroughRelay`).
///
/// - Demand: that of ``PassthroughSubject``: a subscriber without demand at the moment of `accept` does not get
///   that value.
/// - Ordering: subscribers are served in subscription order; a late subscriber sees only later values.
/// - Completion: none while the relay lives. When the relay is deallocated its subscribers receive `.finished`
///   (as in CombineExt) and are released; a subscription made after that is impossible.
/// - Feeding: `subscribe(_:)` relays a publisher's values and ignores its completion; it asks that publisher
///   for `.unlimited` at once, so values a synchronous publisher produces before anyone subscribes to the relay
///   are dropped, as an `accept` without subscribers is. The relay keeps no reference to the feeding
///   subscription. (CombineExt feeds its inner subject with `publisher.subscribe(subject)`: the publisher's
///   completion then completes that subject, which silently drops every later `accept`.)
/// - Threading: `accept` is safe from any thread; each subscriber receives serially (see ``Subject``). Its one
///   stored property is an immutable reference to a subject, itself safe from any thread.
///
/// ```swift
/// let relay = PassthroughRelay<String>()
/// let c = relay.sink { print($0) }
/// relay.accept("hello")
/// ```
public final class PassthroughRelay<Output>: Relay, Sendable {
    /// The failure type: a relay never fails.
    public typealias Failure = Never

    @usableFromInline
    let subject = PassthroughSubject<Output, Never>()

    /// Creates a relay with no subscribers.
    ///
    /// ```swift
    /// let relay = PassthroughRelay<Int>()
    /// ```
    @inlinable
    public init() {}

    deinit { subject.send(completion: .finished) }

    /// Attaches a subscriber (served after the existing ones).
    @inlinable
    public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }

    /// Sends `value` to every subscriber with demand.
    ///
    /// ```swift
    /// relay.accept(1)
    /// ```
    @inlinable
    public func accept(_ value: Output) { subject.send(value) }

    /// Relays every value of `publisher`, ignoring its completion (see `subscribe(_:)`).
    ///
    /// ```swift
    /// let link = relay.subscribe(otherRelay)
    /// ```
    ///
    /// - Parameter publisher: an infallible publisher of the relay's `Output`.
    /// - Returns: a cancellable that cancels the subscription to `publisher`.
    @inlinable
    public func subscribe<P: Publisher>(_ publisher: P) -> AnyCancellable
    where P.Output == Output, P.Failure == Never {
        let feed = SubjectRelay(subject: subject, feedsRelay: true)
        publisher.subscribe(feed)
        return ObjectCancellable(feed.link)
    }
}

/// A relay that holds a current value and gives it to every new subscriber first: a ``CurrentValueSubject``
/// that cannot complete (CombineExt's `CurrentValueRelay`).
///
/// - Demand: that of ``CurrentValueSubject``: a subscriber receives the current value once it has demand; a
///   value accepted while it has no demand is kept (only the newest) and delivered when demand arrives.
/// - ``value``: the latest accepted value (read-only, as in CombineExt: set it with ``accept(_:)``).
/// - Completion: none while the relay lives. When the relay is deallocated its subscribers receive `.finished`
///   (as in CombineExt) and are released.
/// - Feeding: `subscribe(_:)` relays a publisher's values and ignores its completion; it asks that publisher
///   for `.unlimited` at once, as a `CurrentValueSubject` does.
/// - Threading: `accept` and `value` are safe from any thread; each subscriber receives serially (see
///   ``Subject``). Its one stored property is an immutable reference to a subject, itself safe from any thread.
///
/// ```swift
/// let count = CurrentValueRelay(0)
/// let c = count.sink { print($0) }   // prints 0
/// count.accept(count.value + 1)       // prints 1
/// ```
public final class CurrentValueRelay<Output>: Relay, Sendable {
    /// The failure type: a relay never fails.
    public typealias Failure = Never

    @usableFromInline
    let subject: CurrentValueSubject<Output, Never>

    /// Creates a relay whose current value is `value`.
    ///
    /// ```swift
    /// let selection = CurrentValueRelay<Int?>(nil)
    /// ```
    ///
    /// - Parameter value: the initial current value.
    @inlinable
    public init(_ value: Output) { subject = CurrentValueSubject(value) }

    deinit { subject.send(completion: .finished) }

    /// The latest accepted value (the initial one until the first ``accept(_:)``).
    @inlinable
    public var value: Output { subject.value }

    /// Attaches a subscriber; it receives the current value first, when it has demand.
    @inlinable
    public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }

    /// Stores `value` as the current value and sends it to every subscriber (kept for those without demand).
    ///
    /// ```swift
    /// selection.accept(3)
    /// ```
    @inlinable
    public func accept(_ value: Output) { subject.send(value) }

    /// Relays every value of `publisher`, ignoring its completion (see `subscribe(_:)`).
    ///
    /// ```swift
    /// let link = relay.subscribe(Just(42))
    /// ```
    ///
    /// - Parameter publisher: an infallible publisher of the relay's `Output`.
    /// - Returns: a cancellable that cancels the subscription to `publisher`.
    @inlinable
    public func subscribe<P: Publisher>(_ publisher: P) -> AnyCancellable
    where P.Output == Output, P.Failure == Never {
        let feed = SubjectRelay(subject: subject, feedsRelay: true)
        publisher.subscribe(feed)
        return ObjectCancellable(feed.link)
    }
}
