/// A subject that replays its latest `bufferSize` values — then its completion, if it has completed — to each
/// new subscriber, then forwards live events (CombineExt's `ReplaySubject`).
///
/// - Replay: the subject keeps the newest `bufferSize` values sent to it (older ones are dropped). A new
///   subscriber first receives those values, in order, then the values sent after it subscribed.
/// - Demand (per subscriber): a subscriber never receives more than it requested. The values it has no
///   demand for yet are kept *for it* — at most `bufferSize` of them, the newest (older ones are dropped for
///   that subscriber) — and delivered in order as it requests more. So a subscriber that attaches with no
///   demand still gets the replayed values once it asks, and a slow subscriber loses the oldest values first.
///   With `bufferSize` 0 a value sent while a subscriber has no demand is dropped for it, as with
///   ``PassthroughSubject``.
/// - Completion: delivered to each subscriber after the values kept for it (it needs no demand). A subscriber
///   that attaches after the completion receives the buffered values (as its demand allows), then the
///   completion. Values and completions sent after the completion are ignored; the buffer is kept.
/// - `send(subscription:)`: requests `.unlimited` from the upstream at once (the buffer keeps what arrives
///   before anyone subscribes). With `bufferSize` 0 it waits, as ``PassthroughSubject`` does, until a
///   subscriber has requested a value, so values nobody could receive are not pulled and lost — a deliberate
///   difference from CombineExt, which always requests at once.
/// - Threading: `send` is safe from any thread; sends are serialized, each subscriber receives serially and
///   all subscribers see the values in the same order; a send from inside a delivery is queued, not nested
///   (see ``Subject``). Its stored properties are immutable; the state is in the engine shared with
///   ``PassthroughSubject`` and ``Publisher/share(replay:)``, which guards it with the package's lock and
///   atomics.
/// - A negative `bufferSize` counts as 0.
///
/// Differences from CombineExt besides `send(subscription:)` with `bufferSize` 0: a subscriber without demand
/// keeps at most `bufferSize` values (CombineExt's demand buffer is unbounded), and a re-entrant send is
/// queued rather than nested.
///
/// ```swift
/// let log = ReplaySubject<String, Never>(bufferSize: 2)
/// log.send("a"); log.send("b"); log.send("c")
/// let c = log.sink { print($0) }   // prints b, c
/// log.send("d")                     // prints d
/// ```
public final class ReplaySubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    /// How many of the latest values are replayed to a new subscriber (never negative).
    public let bufferSize: Int

    // Immutable reference to the engine, which guards everything it holds with its own lock (`SubjectCore.lock`)
    // and atomics: that is why this class may be `@unchecked Sendable`.
    @usableFromInline
    let core: SubjectCore<Output, Failure, Output?, Subscribers.Completion<Failure>?>

    /// Creates a subject that replays its latest `bufferSize` values to each new subscriber.
    ///
    /// - Parameter bufferSize: how many values to keep and replay; a negative value counts as 0.
    @inlinable
    public init(bufferSize: Int) {
        let size = Swift.max(0, bufferSize)
        self.bufferSize = size
        core = SubjectCore(current: nil, replay: size, kind: .replaySubject)
    }

    /// Attaches a subscriber (served after the existing ones): it receives the buffered values as its demand
    /// allows, then the completion if the subject has completed, then live events.
    @inlinable
    public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
        core.attach(subscriber)
    }

    /// Adds `value` to the buffer (dropping the oldest when full) and sends it to every subscriber, or keeps
    /// it for a subscriber without demand; ignored after completion.
    @inlinable
    public func send(_ value: Output) { core.send(value) }

    /// Completes every subscriber after the values kept for it; later events are ignored. The buffer stays,
    /// for late subscribers.
    @inlinable
    public func send(completion: Subscribers.Completion<Failure>) { core.send(completion: completion) }

    /// Requests unlimited values from an upstream this subject was subscribed to: at once, or, with
    /// `bufferSize` 0, once one of its subscribers has requested a value (see the type's documentation).
    public func send(subscription: any Subscription) { core.send(subscription: subscription) }
}
