import Synchronization

/// A publisher that starts publishing only when told to: subscribers attach first, then ``connect()``
/// subscribes it to its upstream — Combine's `ConnectablePublisher`.
///
/// ```swift
/// let prices = source.makeConnectable()
/// let a = prices.sink { print("a", $0) }
/// let b = prices.sink { print("b", $0) }
/// let connection = prices.connect()   // both see every value from the start
/// ```
public protocol ConnectablePublisher<Output, Failure>: Publisher {
    /// Connects to the upstream; cancelling what it returns disconnects.
    func connect() -> any Cancellable
}

extension ConnectablePublisher {
    /// Connects on the first subscription and disconnects when the last subscriber cancels; a later
    /// subscriber connects again. Completion does not disconnect (see ``Publishers/Autoconnect``).
    ///
    /// ```swift
    /// let shared = source.multicast { PassthroughSubject() }.autoconnect()   // what share() does
    /// ```
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}

extension Publisher {
    /// A connectable publisher that sends the upstream's events through `subject` to every subscriber, once
    /// connected: every subscriber sees the same values (those sent after it subscribed).
    ///
    /// - Demand: as the subject's (`PassthroughSubject` delivers only to subscribers with demand); the
    ///   subject asks the upstream for `.unlimited` once connected.
    ///
    /// ```swift
    /// let multicast = source.multicast(subject: PassthroughSubject<Int, Never>())
    /// ```
    public func multicast<S: Subject>(subject: S) -> Publishers.Multicast<Self, S>
    where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self, createSubject: { subject })
    }

    /// A connectable publisher that sends the upstream's events through a subject made by `createSubject`
    /// (called once, on the first subscription or connection).
    ///
    /// - Threading: `createSubject` runs under the multicast's lock, so that subscribers arriving together on
    ///   several threads share the one subject it makes (as in OpenCombine); it must not subscribe to or connect
    ///   this same multicast (that deadlocks: the lock is not re-entrant).
    ///
    /// ```swift
    /// let multicast = source.multicast { CurrentValueSubject<Int, Never>(0) }
    /// ```
    public func multicast<S: Subject>(_ createSubject: @escaping () -> S) -> Publishers.Multicast<Self, S>
    where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }
}

extension Publisher where Failure == Never {
    /// This publisher made connectable: nothing is published until ``ConnectablePublisher/connect()``; then
    /// every subscriber sees the same values, as with `multicast { PassthroughSubject() }`.
    ///
    /// ```swift
    /// let ticks = timer.makeConnectable()
    /// ```
    public func makeConnectable() -> Publishers.MakeConnectable<Self> {
        Publishers.MakeConnectable(upstream: self)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/multicast(subject:)`` and ``Publisher/multicast(_:)``.
    ///
    /// Sound as `@unchecked Sendable`: the subject is created once under `lock` and is thread-safe itself;
    /// `upstream` and `createSubject` are immutable.
    public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher,
        @unchecked Sendable
    where SubjectType.Output == Upstream.Output, SubjectType.Failure == Upstream.Failure {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher connected to.
        public let upstream: Upstream
        /// Makes the subject, once.
        public let createSubject: () -> SubjectType
        /// The subject, once made. Guarded by `lock`.
        private var madeSubject: SubjectType?
        private let lock = Lock()

        /// A multicast of `upstream` through the subject `createSubject` makes.
        public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
            self.upstream = upstream
            self.createSubject = createSubject
        }

        /// Not inlinable: it runs once per subscriber or connection. Calls out (`createSubject`) while holding the
        /// lock, on purpose, against the rule elsewhere: the subject must be made exactly once (as OpenCombine's
        /// `Multicast` makes it), and making it outside the lock would let two first subscribers each make one.
        @usableFromInline
        var subject: SubjectType {
            lock.withLock {
                if let madeSubject { return madeSubject }
                let subject = createSubject()
                madeSubject = subject
                return subject
            }
        }

        /// Attaches `subscriber` to the subject. Inlinable, as both calls below are: specialised for the
        /// subscriber's and the upstream's types, so the values they carry run no unspecialised generic code.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            subject.receive(subscriber: subscriber)
        }

        /// Subscribes the subject to the upstream; cancelling the result disconnects. Each call connects
        /// anew.
        @inlinable
        public func connect() -> any Cancellable {
            upstream.subscribe(subject)
        }
    }

    /// The publisher returned by ``Publisher/makeConnectable()``.
    public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher where Upstream.Failure == Never {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Never fails.
        public typealias Failure = Never

        @usableFromInline
        let multicast: Multicast<Upstream, PassthroughSubject<Output, Never>>

        /// A connectable form of `upstream`.
        public init(upstream: Upstream) {
            multicast = Multicast(upstream: upstream, createSubject: { PassthroughSubject() })
        }

        /// Attaches `subscriber`; it gets values once connected.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Never {
            multicast.receive(subscriber: subscriber)
        }

        /// Connects to the upstream.
        @inlinable
        public func connect() -> any Cancellable { multicast.connect() }
    }

    /// The publisher returned by ``ConnectablePublisher/autoconnect()``: connects when the first subscriber
    /// arrives, disconnects when the last one cancels.
    ///
    /// - Connection: the first subscriber is attached (and has its subscription) before `connect()` is
    ///   called, so it can request first. If it cancels during that hand-over, nothing is connected and the
    ///   next subscriber connects (Combine connects anyway and keeps a count of one: a listed difference).
    /// - Completion does not disconnect: subscribers that completed still count, and a subscriber arriving
    ///   after the upstream completed gets the completion from the upstream connectable (for a
    ///   `multicast`, from its subject) without a new connection, as in Combine.
    /// - When every subscriber has cancelled, the connection is cancelled; the next subscriber connects
    ///   again.
    ///
    /// Sound as `@unchecked Sendable`: the subscriber count and the connection are guarded by `state`'s lock
    /// (never held while connecting or disconnecting); `upstream` is immutable.
    public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher, @unchecked Sendable {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The connectable publisher connected on demand.
        public let upstream: Upstream

        /// The subscribers and the connection. Its type is not nested in this generic class: the bookkeeping below
        /// runs unspecialised, where a state type generic over `Upstream` would cost a runtime metadata lookup on
        /// every call (four per subscriber, two when the publisher is made).
        @usableFromInline
        let state = Locked(AutoconnectState())

        /// An autoconnecting form of `upstream`.
        public init(upstream: Upstream) { self.upstream = upstream }

        /// Attaches `subscriber`; connects if it is the first. Inlinable, so the subscription and the connection
        /// are made with the subscriber's and the upstream's types known: the values they carry run specialised
        /// code. The bookkeeping is in the functions it calls.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let left = OnceFlag()
            let parent = self
            subscriberJoined()
            // Only a cancel counts as leaving (as in Combine): a subscriber that has received the completion
            // still holds its place, so a later subscriber gets the completion from the subject instead of
            // connecting the upstream again.
            upstream
                .handleEvents(receiveCancel: { if left.set() { parent.subscriberLeft() } })
                .receive(subscriber: subscriber)
            guard claimsConnection() else { return }
            let connection = upstream.connect()
            if !keeps(connection) { connection.cancel() }
        }

        @usableFromInline
        func subscriberJoined() {
            state.withLock { $0.subscribers += 1 }
        }

        /// Whether this subscriber connects: nobody has and somebody is still subscribed.
        @usableFromInline
        func claimsConnection() -> Bool {
            state.withLock { state in
                guard !state.isConnected, state.subscribers > 0 else { return false }
                state.isConnected = true
                return true
            }
        }

        /// Stores the connection just made; `false` if it is stale (everybody left meanwhile): the caller cancels it.
        @usableFromInline
        func keeps(_ connection: any Cancellable) -> Bool {
            state.withLock { state in
                guard state.isConnected, state.connection == nil, state.subscribers > 0 else { return false }
                state.connection = connection
                return true
            }
        }

        @usableFromInline
        func subscriberLeft() {
            let connection = state.withLock { state -> (any Cancellable)? in
                state.subscribers -= 1
                guard state.subscribers == 0 else { return nil }
                state.isConnected = false
                defer { state.connection = nil }
                return state.connection
            }
            connection?.cancel()
        }
    }
}

/// ``Publishers/Autoconnect``'s bookkeeping, guarded by its lock.
@usableFromInline
struct AutoconnectState {
    /// The subscribers that have joined and not cancelled.
    var subscribers = 0
    /// The connection, or `nil`; `isConnected` is set before `connect()` returns it.
    var connection: (any Cancellable)?
    /// A subscriber has claimed the connection (it may still be on its way).
    var isConnected = false

    @usableFromInline
    init() {}
}

/// A flag set once, from any thread (an atomic guard against leaving twice): one atomic exchange, no mutex.
@usableFromInline
final class OnceFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    @usableFromInline
    init() {}
    /// True for the first caller only.
    @usableFromInline
    func set() -> Bool {
        !flag.exchange(true, ordering: .acquiringAndReleasing)
    }
}
