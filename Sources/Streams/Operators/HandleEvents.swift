extension Publisher {
    /// Calls the given closures on each event of the subscription, for side effects such as logging;
    /// the events themselves pass through unchanged.
    ///
    /// - Order: each closure runs just *before* the event is passed on: `receiveSubscription` with the
    ///   upstream's subscription, `receiveOutput` and `receiveCompletion` before the downstream gets
    ///   them, `receiveRequest` before the demand goes upstream, `receiveCancel` before upstream is
    ///   cancelled (once, and only if the downstream cancels before a completion). Demand the downstream
    ///   returns from a value call also goes upstream (as the return value of that call): `receiveRequest`
    ///   sees it too, just after the downstream returned it, as in Combine.
    /// - Release: the request and cancel closures are released at the completion or the first `cancel()`; the
    ///   value, completion and subscription closures with the subscriber the operator gives its upstream, which
    ///   the upstream lets go of then (as every Streams publisher does). No closure runs after the completion or
    ///   the first `cancel()`.
    /// - Threading: closures run on the thread of the event, never under a lock.
    ///
    /// ```swift
    /// let p = fetch().handleEvents(receiveOutput: { log("got \($0)") }, receiveCancel: { log("cancelled") })
    /// ```
    @inlinable
    public func handleEvents(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(
            upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion, receiveCancel: receiveCancel, receiveRequest: receiveRequest)
    }
}

extension Publishers {
    /// The publisher returned by
    /// ``Publisher/handleEvents(receiveSubscription:receiveOutput:receiveCompletion:receiveCancel:receiveRequest:)``.
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher observed.
        public let upstream: Upstream
        /// Called with the upstream's subscription.
        public var receiveSubscription: ((any Subscription) -> Void)?
        /// Called with each value.
        public var receiveOutput: ((Output) -> Void)?
        /// Called with the completion.
        public var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
        /// Called when the downstream cancels.
        public var receiveCancel: (() -> Void)?
        /// Called with each downstream request.
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        /// Creates the operator.
        @inlinable
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Void)? = nil,
            receiveOutput: ((Output) -> Void)? = nil,
            receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
            receiveCancel: (() -> Void)? = nil,
            receiveRequest: ((Subscribers.Demand) -> Void)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: HandleEventsStage(
                    downstream: subscriber, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
                    receiveCompletion: receiveCompletion,
                    hooks: HandleEventsHooks(receiveCancel: receiveCancel, receiveRequest: receiveRequest),
                    reportsReturnedDemand: receiveRequest != nil))
        }
    }
}

/// The closures `handleEvents` runs on a request or a cancel, before the link forwards it (see ``StageHooks``).
/// A closure runs outside any lock.
///
/// Who touches the closures: the link calls `willCancel` and then `release` only on the thread that ended it, once
/// (see ``StageHooks``), so those two need no lock between them; the only other reader is `willRequest`, on any
/// thread. So the closures are kept in one of three ways (``Storage``):
/// - neither closure (the common `handleEvents(receiveOutput:)`): nothing at all, nothing to run or release;
/// - only `receiveCancel`: a plain box (``CancelClosure``), no lock: `willRequest` reads nothing, so a request, a
///   cancel and the end of the stream cost no lock, and the subscription no mutex;
/// - a `receiveRequest` closure: a ``Locked`` box; `willRequest` reads under the lock, and `release` drops the
///   closures under it. `willCancel` still reads without it: the only write, `release`'s, comes later on its own
///   thread, and a concurrent `willRequest` only reads.
///
/// The closures sit in a struct or class of their own and are read through it, never passed through a generic
/// parameter (a tuple in `Locked<…>`, a result of `withLock`): a closure stored as a generic value is wrapped in
/// a reabstraction thunk, one allocation each time it goes in or comes out.
@usableFromInline
struct HandleEventsHooks: StageHooks, @unchecked Sendable {
    /// The request and cancel closures.
    @usableFromInline
    struct Closures {
        @usableFromInline
        var receiveCancel: (() -> Void)?
        @usableFromInline
        var receiveRequest: ((Subscribers.Demand) -> Void)?

        @inlinable
        init(receiveCancel: (() -> Void)?, receiveRequest: ((Subscribers.Demand) -> Void)?) {
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }
    }

    /// A `receiveCancel` closure without a `receiveRequest` one: `nil` once the stream has ended. `@unchecked
    /// Sendable`: sound, its one field is touched by one thread at a time, as `run` says.
    @usableFromInline
    final class CancelClosure: @unchecked Sendable {
        /// Sound without a lock or a dynamic exclusivity check (`@exclusivity(unchecked)`): written in `init`, then
        /// read and cleared only by the one thread that ended the link, `willCancel` before `release` (see above).
        @usableFromInline
        @exclusivity(unchecked)
        var run: (() -> Void)?

        @inlinable
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Where the closures are kept: see above.
    @usableFromInline
    enum Storage {
        case none
        case cancelOnly(CancelClosure)
        /// `nil` once the stream has ended; locked by `willRequest` and `release`.
        case guarded(Locked<Closures?>)
    }

    @usableFromInline
    let storage: Storage

    @inlinable
    init(receiveCancel: (() -> Void)?, receiveRequest: ((Subscribers.Demand) -> Void)?) {
        if receiveRequest != nil {
            storage = .guarded(Locked(Closures(receiveCancel: receiveCancel, receiveRequest: receiveRequest)))
        } else if let receiveCancel {
            storage = .cancelOnly(CancelClosure(receiveCancel))
        } else {
            storage = .none
        }
    }

    @inlinable
    func willRequest(_ demand: Subscribers.Demand) {
        guard case .guarded(let closures) = storage else { return }
        closures.lock()
        let receiveRequest = closures.state?.receiveRequest
        closures.unlock()
        receiveRequest?(demand)
    }
    @inlinable
    func willCancel() {
        // The thread that ended the link, before its `release`: nobody writes the closures meanwhile.
        switch storage {
        case .none: break
        case .cancelOnly(let box): box.run?()
        case .guarded(let closures): closures.state?.receiveCancel?()
        }
    }
    @inlinable
    func release() {
        switch storage {
        case .none: break
        case .cancelOnly(let box): box.run = nil  // nobody else reads it (see above)
        case .guarded(let closures):
            closures.lock()
            let released = closures.state
            closures.state = nil
            closures.unlock()
            _ = released  // destroyed here, outside the lock
        }
    }
}

/// `handleEvents`' subscriber: a stage (see ``StageLink``) with no state. The subscription, value and
/// completion closures live here, released with it by the upstream; the request and cancel closures are the
/// link's hooks, which the link runs only while the stream is live and drops when it ends.
@usableFromInline
struct HandleEventsStage<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let link: StageLink<Void, HandleEventsHooks>
    @usableFromInline
    let receiveSubscription: ((any Subscription) -> Void)?
    @usableFromInline
    let receiveOutput: ((Input) -> Void)?
    @usableFromInline
    let receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
    /// Whether demand returned from a value call is reported to the request hook (as Combine does): only when there
    /// is a `receiveRequest` closure, so that a value costs no lock otherwise; `print` turns it off, as it logs that
    /// demand itself, as `(synchronous)`.
    @usableFromInline
    let reportsReturnedDemand: Bool

    @inlinable
    init(
        downstream: Downstream, receiveSubscription: ((any Subscription) -> Void)?, receiveOutput: ((Input) -> Void)?,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?, hooks: HandleEventsHooks,
        reportsReturnedDemand: Bool
    ) {
        self.downstream = downstream
        self.link = StageLink(.handleEvents, state: (), hooks: hooks)
        self.receiveSubscription = receiveSubscription
        self.receiveOutput = receiveOutput
        self.receiveCompletion = receiveCompletion
        self.reportsReturnedDemand = reportsReturnedDemand
    }

    @usableFromInline
    var description: String { "HandleEvents" }
    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(link) }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        receiveSubscription?(subscription)
        downstream.receive(subscription: link)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard link.isLive else { return .none }
        receiveOutput?(input)
        let more = downstream.receive(input)
        // Demand returned from a value call is a request too (Combine reports it to `receiveRequest`).
        if more > .none && reportsReturnedDemand { link.hooks.willRequest(more) }
        return more
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        receiveCompletion?(completion)
        downstream.receive(completion: completion)
    }
}
