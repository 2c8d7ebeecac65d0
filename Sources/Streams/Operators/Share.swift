import Synchronization

extension Publisher {
    /// Shares one subscription to this publisher among all subscribers.
    ///
    /// Returns a reference type (as in Combine): keep one `share()` and subscribe to it many times.
    /// - Connection: the upstream is subscribed when the first subscriber attaches, right after that
    ///   subscriber has received its subscription (so it can request first). When every subscriber has
    ///   cancelled, the upstream subscription is cancelled, and the next subscriber connects again (a
    ///   fresh upstream subscription).
    /// - Values: a subscriber sees only the values published after it attached; subscribers are served
    ///   in subscription order.
    /// - Demand: `share` requests `.unlimited` from upstream once some subscriber has requested a value
    ///   (nothing before: a synchronous upstream is not run dry while nobody can take its values; after a
    ///   reconnection at once, if any subscriber ever asked, as Combine's reused subject does); a value
    ///   is delivered to each subscriber that has demand for it and dropped for the others (as a
    ///   `PassthroughSubject` does).
    /// - Completion: forwarded to every subscriber; a subscriber that attaches after the upstream
    ///   completed receives the completion at once (no reconnection).
    /// - Threading: each subscriber receives events serially, on the upstream's thread.
    /// - Equivalence: behaves exactly as `multicast { PassthroughSubject() }.autoconnect()` (Combine's
    ///   definition of `share()`); it has its own engine only for speed, with no stage per subscriber.
    ///
    /// ```swift
    /// let shared = client.profile().share()
    /// let a = shared.sink { print("a", $0) }; let b = shared.sink { print("b", $0) }   // one request
    /// ```
    @inlinable
    public func share() -> Publishers.Share<Self> {
        Publishers.Share(upstream: self)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/share()``: one upstream subscription for many subscribers.
    ///
    /// A class, compared by identity: every subscriber of the same instance shares its connection. Immutable;
    /// the shared state is in `connections`, under its lock.
    public final class Share<Upstream: Publisher>: Publisher, Equatable, CustomStringConvertible,
        @unchecked Sendable
    {
        /// The upstream's output.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The shared publisher.
        public let upstream: Upstream
        @usableFromInline
        let connections: ShareConnections<Upstream>

        /// Shares `upstream`.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
            connections = ShareConnections(upstream: upstream, replay: 0)
        }

        /// Attaches `subscriber`; connects to upstream if it is the first one.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            connections.attach(subscriber)
        }

        /// Identity.
        @inlinable
        public static func == (lhs: Share, rhs: Share) -> Bool { lhs === rhs }

        /// `Share`.
        public var description: String { "Share" }
    }
}

/// The current connection of a `share()` / `share(replay:)` publisher, replaced when it is retired. `current`
/// is guarded by `lock`; `upstream` and `replay` are immutable.
@usableFromInline
final class ShareConnections<Upstream: Publisher>: @unchecked Sendable {
    @usableFromInline
    let upstream: Upstream
    @usableFromInline
    let replay: Int
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    var current: ShareConnection<Upstream.Output, Upstream.Failure>?

    @inlinable
    init(upstream: Upstream, replay: Int) {
        self.upstream = upstream
        self.replay = replay
    }

    /// Attaches to the live connection, making a new one if there is none or it was just retired.
    @inlinable
    func attach<S: Subscriber>(_ subscriber: S) where S.Input == Upstream.Output, S.Failure == Upstream.Failure {
        var stale: ShareConnection<Upstream.Output, Upstream.Failure>?
        while true {
            lock.lock()
            if current == nil || current === stale {
                // A reconnection keeps "a subscriber has asked for values" (Combine's `share()` reuses one
                // `PassthroughSubject`, whose flag is never cleared): the new upstream is asked at once.
                let hadDemand = current?.core.hasDownstreamDemand.load(ordering: .relaxed) ?? false
                current = ShareConnection(replay: replay, hadDemand: hadDemand)
            }
            // Non-nil: set just above if it was missing.
            let connection = current.unsafelyUnwrapped
            lock.unlock()
            switch connection.attach(subscriber) {
            case .retired:
                stale = connection
            case .attached(let isFirst):
                if isFirst { connection.connect(to: upstream) }
                return
            }
        }
    }
}

/// One connection to the upstream: a ``SubjectCore`` that multicasts what the upstream sends (with
/// `replay` values kept for late subscribers) and the upstream subscription.
///
/// Per value the upstream's call goes straight into the core's emitter (see ``SubjectCore``): no lock,
/// no copy of the subscriber list. When the last subscriber leaves before the completion, the core
/// retires this connection (it takes no new subscribers) and the upstream is cancelled. Its `var`s are
/// guarded by `lock`; `core` is immutable and synchronises itself.
@usableFromInline
final class ShareConnection<Output, Failure: Error>: Subscriber, @unchecked Sendable {
    @usableFromInline
    enum AttachResult {
        case retired
        case attached(isFirst: Bool)
    }

    @usableFromInline
    let lock = Lock()
    /// Guarded by `lock`.
    @usableFromInline
    var hasStarted = false
    @usableFromInline
    var isRetired = false
    @usableFromInline
    var upstreamSubscription: (any Subscription & AnyObject)?
    @usableFromInline
    let core: SubjectCore<Output, Failure, Output?, Subscribers.Completion<Failure>?>

    @inlinable
    init(replay: Int, hadDemand: Bool) {
        core = SubjectCore(current: nil, replay: replay, retiresWhenEmpty: true, kind: .share)
        core.onEmpty = { [weak self] in self?.retire() }
        if hadDemand { core.hasDownstreamDemand.store(true, ordering: .relaxed) }
    }

    /// Adds a subscriber (or completes it at once if the upstream has completed and nothing is replayed).
    @inlinable
    func attach<S: Subscriber>(_ subscriber: S) -> AttachResult where S.Input == Output, S.Failure == Failure {
        lock.lock()
        let isFirst = !hasStarted
        hasStarted = true
        lock.unlock()
        switch core.attach(subscriber) {
        case .retired: return .retired
        case .attached: return .attached(isFirst: isFirst)
        }
    }

    /// Subscribes to `upstream` unless every subscriber has already left.
    @inlinable
    func connect<Upstream: Publisher>(to upstream: Upstream)
    where Upstream.Output == Output, Upstream.Failure == Failure {
        lock.lock()
        let retired = isRetired
        lock.unlock()
        if !retired { upstream.receive(subscriber: self) }
    }

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard !isRetired, upstreamSubscription == nil, !core.isCompleted.load(ordering: .acquiring) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstreamSubscription = SubscriptionSlot.object(subscription)
        lock.unlock()
        // The core asks for `.unlimited` once a subscriber has requested a value (at once for
        // `share(replay:)`), as Combine's `share()` (a `PassthroughSubject` inside) does.
        core.send(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Output) -> Subscribers.Demand {
        core.send(input)
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        let subscription = upstreamSubscription
        upstreamSubscription = nil
        lock.unlock()
        _ = subscription
        core.send(completion: completion)
    }

    /// The last subscriber left before the completion: cancel the upstream, for good.
    @usableFromInline
    func retire() {
        lock.lock()
        isRetired = true
        let subscription = upstreamSubscription
        upstreamSubscription = nil
        lock.unlock()
        subscription?.cancel()
        core.releaseUpstreams()
    }
}
