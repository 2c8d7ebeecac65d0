/// Whether a publisher type's whole life is known from its value, and how to read that value: `Just`,
/// `setFailureType(to:)` over a `Just` in generic code (what `flatMap` makes of a `Just` inner when its upstream can
/// fail), `Result.Publisher` (what `Just(x).setFailureType(to:)` is, as in Combine), when it holds a success, and a
/// `Future` once it has been fulfilled with a success (a promise called inside the future's closure, as a cache or a
/// synchronous check does; it never changes after), and a `Deferred` future, whose future is made where subscribing
/// would make it (``madeFuture(of:)``) and then read or subscribed to. On the first request of at least one, such a
/// publisher delivers its one value and then `.finished`, synchronously.
///
/// `flatMap` reads the value of such an inner publisher instead of subscribing to it, when its engine is idle and
/// the downstream has demand: what the subscriber sees is the same (the value, delivered during the upstream's
/// `receive(_:)`, and the inner's place freed at once), without a side, a subscription and three more critical
/// sections per inner (`FlatMapInner.receiveScalar` in `Sources/Streams/Operators/FlatMap.swift`). `switchToLatest`
/// does the same after cancelling the current inner (`SwitchInner.receiveScalar` in
/// `Sources/Streams/Operators/SwitchToLatest.swift`).
///
/// The kind is found by comparing metatypes, once per subscription: no conformance lookup, no dynamic cast.
@usableFromInline
enum ScalarPublisherKind: Sendable {
    /// Not known to be scalar: subscribe to it.
    case none
    /// `Just<Output>`.
    case just
    /// `Publishers.SetFailureType<Just<Output>, Failure>`.
    case justWithFailure
    /// `Result<Output, Failure>.Publisher`: scalar when it holds a success.
    case result
    /// `Future<Output, Failure>`: scalar once fulfilled with a success.
    case future
    /// `Deferred<Future<Output, Failure>>`: its future is made first (``madeFuture(of:)``), then read as a `.future`.
    case deferredFuture

    /// The kind of `P`.
    @inlinable
    init<P: Publisher>(of _: P.Type) {
        if P.self == Just<P.Output>.self {
            self = .just
        } else if P.self == Publishers.SetFailureType<Just<P.Output>, P.Failure>.self {
            self = .justWithFailure
        } else if P.self == Result<P.Output, P.Failure>.Publisher.self {
            self = .result
        } else if P.self == Future<P.Output, P.Failure>.self {
            self = .future
        } else if P.self == Deferred<Future<P.Output, P.Failure>>.self {
            self = .deferredFuture
        } else {
            self = .none
        }
    }

    /// The one value of `publisher`, whose type `P` is of this kind (`nil` for `.none`, a failed result, a future
    /// not fulfilled yet or fulfilled with a failure, and a deferred future: read the one ``madeFuture(of:)`` made).
    @inlinable
    func output<P: Publisher>(of publisher: P) -> P.Output? {
        switch self {
        case .none, .deferredFuture:
            return nil
        case .just:
            // Sound: this kind was computed from `P`, so `P` is `Just<P.Output>` (the same type, the same layout).
            return unsafeBitCast(publisher, to: Just<P.Output>.self).output
        case .justWithFailure:
            // Sound, as above: `P` is `Publishers.SetFailureType<Just<P.Output>, P.Failure>`.
            return unsafeBitCast(publisher, to: Publishers.SetFailureType<Just<P.Output>, P.Failure>.self).upstream
                .output
        case .result:
            // Sound, as above: `P` is `Result<P.Output, P.Failure>.Publisher`.
            return try? unsafeBitCast(publisher, to: Result<P.Output, P.Failure>.Publisher.self).result.get()
        case .future:
            // Sound, as above: `P` is `Future<P.Output, P.Failure>`, so `publisher`'s bytes are that class reference
            // (`load` copies it, retained). Not `unsafeDowncast`, which would first box an unconstrained `P`.
            return withUnsafeBytes(of: publisher) { $0.load(as: Future<P.Output, P.Failure>.self) }.fulfilledValue
        }
    }

    /// For a `.deferredFuture`: the future `publisher` makes, made now, once, as subscribing to it would make it (the
    /// caller then reads it or subscribes to it instead of `publisher`). `nil` for the other kinds.
    @inlinable
    func madeFuture<P: Publisher>(of publisher: P) -> Future<P.Output, P.Failure>? {
        guard case .deferredFuture = self else { return nil }
        // Sound, as in `output(of:)`: `P` is `Deferred<Future<P.Output, P.Failure>>`.
        return unsafeBitCast(publisher, to: Deferred<Future<P.Output, P.Failure>>.self).createPublisher()
    }
}
