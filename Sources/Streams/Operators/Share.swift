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
    /// - Demand: `share` requests `.unlimited` from upstream; a value is delivered to each subscriber
    ///   that has demand for it and dropped for the others (as a `PassthroughSubject` does).
    /// - Completion: forwarded to every subscriber; a subscriber that attaches after the upstream
    ///   completed receives the completion at once (no reconnection).
    /// - Threading: each subscriber receives events serially, on the upstream's thread.
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
    /// A class, compared by identity: every subscriber of the same instance shares its connection.
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
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            connections.attach(subscriber)
        }

        /// Identity.
        @inlinable
        public static func == (lhs: Share, rhs: Share) -> Bool { lhs === rhs }

        /// `Share`.
        public var description: String { "Share" }
    }
}

/// The current connection of a `share()` / `share(replay:)` publisher, replaced when it is retired.
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
            if current == nil || current === stale { current = ShareConnection(replay: replay) }
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

/// One connection to the upstream: the subscribers' conduits in subscription order, the upstream
/// subscription, the replay buffer and the completion.
///
/// Per value it takes one lock, copies the conduit list (a reference-count increment, no allocation)
/// and offers the value to each conduit, which checks demand and serializes delivery.
@usableFromInline
final class ShareConnection<Output, Failure: Error>: ConduitParent, Subscriber, @unchecked Sendable {
    @usableFromInline
    enum AttachResult {
        case retired
        case attached(isFirst: Bool)
    }

    @usableFromInline
    let lock = Lock()
    @usableFromInline
    let replay: Int
    // Guarded by `lock`.
    @usableFromInline
    var conduits: ContiguousArray<ConduitEntry<Output, Failure>> = []
    @usableFromInline
    var completion: Subscribers.Completion<Failure>?
    @usableFromInline
    var hasStarted = false
    /// Every subscriber cancelled before completion: the upstream is cancelled and this connection is
    /// never used again.
    @usableFromInline
    var isRetired = false
    @usableFromInline
    var upstreamSubscription: (any Subscription)?
    @usableFromInline
    var buffer: RingBuffer<Output>

    @inlinable
    init(replay: Int) {
        self.replay = replay
        buffer = RingBuffer(capacity: replay)
    }

    /// Adds a subscriber (or completes it at once if the upstream has completed and nothing is replayed).
    @inlinable
    func attach<S: Subscriber>(_ subscriber: S) -> AttachResult where S.Input == Output, S.Failure == Failure {
        lock.lock()
        if isRetired {
            lock.unlock()
            return .retired
        }
        if replay == 0 {
            if let completion {
                lock.unlock()
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: completion)
                return .attached(isFirst: false)
            }
            let conduit = SubjectConduit(
                parent: self, downstream: subscriber, keepsLatest: false, initial: nil, description: "Share")
            conduits.append(conduit.entry)
            let isFirst = !hasStarted
            hasStarted = true
            lock.unlock()
            conduit.start()
            return .attached(isFirst: isFirst)
        }
        let conduit = ReplayConduit(
            parent: completion == nil ? self : nil, downstream: subscriber, capacity: replay, replaying: buffer,
            completion: completion)
        if completion == nil { conduits.append(conduit.entry) }
        let isFirst = !hasStarted
        hasStarted = true
        lock.unlock()
        conduit.start()
        return .attached(isFirst: isFirst)
    }

    /// Subscribes to `upstream` unless every subscriber has already left.
    @inlinable
    func connect<Upstream: Publisher>(to upstream: Upstream)
    where Upstream.Output == Output, Upstream.Failure == Failure {
        lock.lock()
        let retired = isRetired
        lock.unlock()
        if !retired { upstream.subscribe(self) }
    }

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard !isRetired, completion == nil, upstreamSubscription == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstreamSubscription = subscription
        lock.unlock()
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Output) -> Subscribers.Demand {
        lock.lock()
        guard !isRetired, completion == nil else {
            lock.unlock()
            return .none
        }
        if replay > 0 { buffer.append(input) }
        let targets = conduits
        lock.unlock()
        for conduit in targets { conduit.offer(input) }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard !isRetired, self.completion == nil else { return lock.unlock() }
        self.completion = completion
        let targets = conduits
        conduits = []
        let subscription = upstreamSubscription
        upstreamSubscription = nil
        lock.unlock()
        _ = subscription
        for conduit in targets { conduit.finish(completion) }
    }

    /// A subscriber cancelled; the last one to leave (before completion) cancels the upstream.
    @inlinable
    func remove(_ conduit: ObjectIdentifier) {
        lock.lock()
        if let index = conduits.firstIndex(where: { $0.id == conduit }) { conduits.remove(at: index) }
        guard conduits.isEmpty, completion == nil, !isRetired else { return lock.unlock() }
        isRetired = true
        let subscription = upstreamSubscription
        upstreamSubscription = nil
        let released = buffer
        buffer = RingBuffer(capacity: 0)
        lock.unlock()
        _ = released
        subscription?.cancel()
    }
}
