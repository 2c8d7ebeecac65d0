import Streams
import Testing

/// Watches objects through weak references and reports those still alive when they should be gone: the
/// subscribers, subscriptions and closure captures of a pipeline after it was cancelled or completed.
///
/// Watch objects with ``watch(_:as:)``, put a ``token(_:)`` in the pipeline's closures to see that the
/// operators release them, and subscribe with ``record(_:on:demand:)`` to watch the subscriber and the
/// subscription it receives. ``survivors`` names what is still alive; ``expectAllFreed(sourceLocation:)``
/// records a Swift Testing issue naming each one by its type (or label). ``expectNoLeaks(sourceLocation:_:)``
/// runs a body with a tracker and checks once the body's own references are gone.
///
/// - Threading: safe to use from any thread; the list of watched objects is guarded by a lock.
///
/// ```swift
/// let subject = PassthroughSubject<Int, Never>()   // outlives the check
/// expectNoLeaks { tracker in
///     let token = tracker.token("map closure")
///     let recorder = tracker.record(subject.map { token($0 * 2) })
///     subject.send(1)
///     recorder.cancel()                               // then the subject must have let everything go
/// }
/// ```
public final class LeakTracker: Sendable {
    private struct Entry {
        weak var object: AnyObject?
        let name: String
    }

    /// The watched objects, guarded by the lock; the objects themselves are only compared with `nil`.
    private let entries = Locked<[Entry]>([])

    /// A tracker watching nothing yet.
    public init() {}

    /// Watches `object` (weakly) and returns it. `name` (default: its type) is how a survivor is reported.
    ///
    /// ```swift
    /// let sink = tracker.watch(Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in }))
    /// ```
    @discardableResult
    public func watch<Object: AnyObject>(_ object: Object, as name: String? = nil) -> Object {
        let entry = Entry(object: object, name: name ?? String(describing: type(of: object)))
        entries.withLock { $0.append(entry) }
        return object
    }

    /// Watches `value` if it is an instance of a class (a subscription usually is); a value of a struct or
    /// enum owns no shared state and is ignored. Returns whether it is watched.
    @discardableResult
    public func watchIfObject(_ value: Any, as name: String? = nil) -> Bool {
        guard type(of: value) is AnyClass else { return false }
        let object = value as AnyObject
        watch(object, as: name ?? String(describing: type(of: object)))
        return true
    }

    /// A new watched ``LeakToken``: capture it in a pipeline's closures (`map { token($0) }`) to check that
    /// the operator releases them when the subscription ends.
    ///
    /// ```swift
    /// let token = tracker.token("filter predicate")
    /// let recorder = tracker.record(subject.filter { token($0.isMultiple(of: 2)) })
    /// ```
    public func token(_ name: String = "LeakToken") -> LeakToken {
        let token = LeakToken(name: name)
        watch(token, as: "LeakToken \u{201C}\(name)\u{201D}")
        return token
    }

    /// Subscribes a ``TestRecorder`` to `publisher` and watches it and the subscription it receives.
    ///
    /// ```swift
    /// let recorder = tracker.record(subject.scan(0, +), on: scheduler)
    /// recorder.cancel()
    /// ```
    public func record<P: Publisher>(
        _ publisher: P, on scheduler: (any Scheduler)? = nil, demand: Subscribers.Demand = .unlimited
    ) -> TestRecorder<P.Output, P.Failure> {
        let recorder = publisher.record(on: scheduler, demand: demand)
        watch(recorder, as: "TestRecorder<\(P.Output.self), \(P.Failure.self)>")
        if let subscription = recorder.subscription {
            watchIfObject(subscription, as: "subscription \(type(of: subscription))")
        }
        return recorder
    }

    /// The names of the watched objects still alive, in the order they were watched.
    public var survivors: [String] {
        entries.withLock { entries in entries.filter { $0.object != nil }.map(\.name) }
    }

    /// How many objects are watched (alive or not).
    public var watchedCount: Int { entries.withLock { $0.count } }

    /// Records a Swift Testing issue naming each watched object still alive; returns whether none is.
    ///
    /// ```swift
    /// recorder.cancel()
    /// tracker.expectAllFreed()     // "leaked: subscription Map<…>.Inner (still alive)"
    /// ```
    @discardableResult
    public func expectAllFreed(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let survivors = survivors
        for name in survivors {
            Issue.record(Comment(rawValue: "leaked: \(name) is still alive"), sourceLocation: sourceLocation)
        }
        return survivors.isEmpty
    }
}

/// An object to capture in a pipeline's closures, watched by the ``LeakTracker`` that made it: if the
/// operator keeps the closure after the subscription ends, the token stays alive and is reported.
///
/// Calling it returns its argument, so it fits in an expression: `map { token($0 * 2) }`.
///
/// ```swift
/// let token = tracker.token("flatMap transform")
/// subject.flatMap { value in token(Just(value)) }
/// ```
public final class LeakToken: Sendable {
    /// The name given to ``LeakTracker/token(_:)``.
    public let name: String

    init(name: String) { self.name = name }

    /// Returns `value`; a closure that calls it holds the token.
    public func callAsFunction<Value>(_ value: Value) -> Value { value }

    /// Holds nothing but the token: for closures that have no value to pass (`handleEvents { _ in token() }`).
    public func callAsFunction() {}
}

/// Runs `body` with a new ``LeakTracker``, then records an issue for each object it watched that is still alive
/// once `body` has returned (and so released its local references).
///
/// Keep the upstream (a subject) outside the body so that it outlives the check: what it still retains
/// after a cancel or a completion is reported.
///
/// ```swift
/// let subject = PassthroughSubject<Int, Never>()
/// expectNoLeaks { tracker in
///     let recorder = tracker.record(subject.scan(0, +))
///     subject.send(completion: .finished)
/// }
/// ```
/// - Returns: whether nothing was left alive.
@discardableResult
public func expectNoLeaks(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: (LeakTracker) throws -> Void
) rethrows -> Bool {
    let tracker = LeakTracker()
    try body(tracker)
    return tracker.expectAllFreed(sourceLocation: sourceLocation)
}
