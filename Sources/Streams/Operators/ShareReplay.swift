import Synchronization

extension Publisher {
    /// Shares one subscription to this publisher among all subscribers, replaying the latest `count`
    /// values to each new subscriber.
    ///
    /// Behaves as ``share()`` (one upstream subscription made when the first subscriber attaches,
    /// `.unlimited` requested from upstream, subscription order, cancelled when every subscriber has
    /// cancelled and reconnected — with an empty buffer — by the next one), plus:
    /// - Replay: a new subscriber first receives the latest `count` values published on the current
    ///   connection, then the live values.
    /// - Demand: each subscriber keeps up to `count` values it has no demand for yet (the newest ones;
    ///   older ones are dropped) and receives them, in order, as it requests more. So a subscriber that
    ///   attaches with no demand still gets the replayed values once it asks.
    /// - Completion: delivered to a subscriber after the values kept for it. A subscriber that attaches
    ///   after the upstream completed receives the replayed values (as its demand allows), then the
    ///   completion.
    /// - `share(replay: 0)` behaves as `share()`; a negative `count` counts as 0.
    ///
    /// Not in Combine; named after RxSwift's `share(replay:)` (with its default `.whileConnected` scope).
    ///
    /// ```swift
    /// let session = login().share(replay: 1)
    /// let late = session.sink { print($0) }   // gets the current session at once
    /// ```
    @inlinable
    public func share(replay count: Int) -> Publishers.ShareReplay<Self> {
        Publishers.ShareReplay(upstream: self, count: count)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/share(replay:)``: one upstream subscription for many
    /// subscribers, with the latest values replayed to new subscribers.
    ///
    /// A class, compared by identity: every subscriber of the same instance shares its connection. Immutable;
    /// the shared state is in `connections`, under its lock.
    public final class ShareReplay<Upstream: Publisher>: Publisher, Equatable, CustomStringConvertible,
        @unchecked Sendable
    {
        /// The upstream's output.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The shared publisher.
        public let upstream: Upstream
        /// How many of the latest values are replayed (never negative).
        public let count: Int
        @usableFromInline
        let connections: ShareConnections<Upstream>

        /// Shares `upstream`, replaying its latest `count` values; a negative `count` counts as 0.
        @inlinable
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = Swift.max(0, count)
            connections = ShareConnections(upstream: upstream, replay: self.count)
        }

        /// Attaches `subscriber`; it receives the replayed values first, as its demand allows.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            connections.attach(subscriber)
        }

        /// Identity.
        @inlinable
        public static func == (lhs: ShareReplay, rhs: ShareReplay) -> Bool { lhs === rhs }

        /// `ShareReplay`.
        public var description: String { "ShareReplay" }
    }
}

/// One subscriber's connection to a `share(replay:)`: the values it may not receive yet (newest
/// `capacity`), its demand, and serialized delivery (as ``SubjectConduit``: the thread that finds it
/// idle delivers, others only enqueue; no lock is held while calling downstream).
@usableFromInline
final class ReplayConduit<Parent: ConduitParent, Downstream: Subscriber>: Subscription, CustomStringConvertible,
    @unchecked Sendable
where Downstream.Input == Parent.Output, Downstream.Failure == Parent.Failure {
    @usableFromInline
    typealias Output = Parent.Output
    @usableFromInline
    typealias Failure = Parent.Failure

    @usableFromInline
    let lock = Lock()
    // Guarded by `lock`. `downstream == nil` means completed or cancelled.
    @usableFromInline
    var downstream: Downstream?
    @usableFromInline
    var parent: Parent?
    @usableFromInline
    var demand = Subscribers.Demand.none
    /// True while one thread delivers; starts true for the subscription handshake.
    @usableFromInline
    var isDelivering = true
    /// Values already counted against demand, waiting for the current delivery to return.
    @usableFromInline
    var queue: RingBuffer<Output>
    /// Values without demand yet (newest `capacity`), delivered after `queue`.
    @usableFromInline
    var backlog: RingBuffer<Output>
    @usableFromInline
    var completion: Subscribers.Completion<Failure>?
    /// Which publisher this subscription belongs to (its `description`). Immutable.
    @usableFromInline
    let kind: ConduitKind
    /// The conduit's position in the core's list (see ``BroadcastOp/setSlot``): set by the emitter, read by
    /// `cancel` as a hint.
    @usableFromInline
    let slot = Atomic<UInt32>(0)

    /// Runs `request(_:)` and `cancel()` as specialised code (see ``SpecialisedCall``): their bodies test and clear
    /// `Optional`s of generic types, each a runtime metadata lookup if run unspecialised. Immutable.
    @usableFromInline
    let specialised: (ReplayConduit, SpecialisedCall) -> Void

    @inlinable
    init(
        parent: Parent?, downstream: Downstream, kind: ConduitKind, capacity: Int, replaying buffer: RingBuffer<Output>,
        completion: Subscribers.Completion<Failure>?
    ) {
        self.parent = parent
        self.downstream = downstream
        self.kind = kind
        self.queue = RingBuffer(capacity: nil)
        self.backlog = buffer
        self.completion = completion
        specialised = SpecialisedCall.forwarding()
    }

    @inlinable
    var description: String { kind == .replaySubject ? "ReplaySubject" : "ShareReplay" }

    /// Sends the subscription downstream, then delivers what its demand allows.
    @inlinable
    func start() {
        lock.lock()
        let downstream = self.downstream
        lock.unlock()
        downstream?.receive(subscription: self)
        lock.lock()
        drain()
    }

    /// The entry its parent stores.
    @inlinable
    var entry: BroadcastEntry {
        BroadcastEntry { [self] operation, payload in
            switch operation {
            case .value: offer(BroadcastEntry.load(payload, as: Output.self))
            case .finish:
                finish(BroadcastEntry.load(payload, as: Subscribers.Completion<Failure>.self))
            case .identify: BroadcastEntry.identify(self, to: payload)
            case .setSlot: slot.store(BroadcastEntry.slot(payload), ordering: .relaxed)
            case .latest, .detach: break  // no kept value; a cancel released everything already
            }
        }
    }

    @inlinable
    func offer(_ value: Output) {
        lock.lock()
        guard downstream != nil, completion == nil else { return lock.unlock() }
        // Kept values are older than `value`: count them against demand first, so a value the
        // subscriber has demand for is never dropped from the bounded backlog.
        while demand > .none, let kept = backlog.popFirst() {
            if demand != .unlimited { demand -= 1 }
            queue.append(kept)
        }
        if demand > .none {
            if demand != .unlimited { demand -= 1 }
            queue.append(value)
        } else {
            backlog.append(value)
        }
        guard !isDelivering else { return lock.unlock() }
        isDelivering = true
        drain()
    }

    @inlinable
    func finish(_ completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard downstream != nil, self.completion == nil else { return lock.unlock() }
        self.completion = completion
        parent = nil
        guard !isDelivering else { return lock.unlock() }
        isDelivering = true
        drain()
    }

    /// `request(_:)`'s body, specialised (see ``specialised``).
    @inlinable
    func requestNow(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        lock.lock()
        guard downstream != nil else { return lock.unlock() }
        demand += more
        guard !isDelivering else { return lock.unlock() }
        isDelivering = true
        drain()
    }

    /// `cancel()`'s body, specialised (see ``specialised``).
    @inlinable
    func cancelNow() {
        lock.lock()
        let released = (downstream, parent, queue, backlog)
        downstream = nil
        parent = nil
        queue.removeAll()
        backlog.removeAll()
        lock.unlock()
        released.1?.remove(ObjectIdentifier(self), slot: slot.load(ordering: .relaxed))
    }

    /// Lock held and `isDelivering == true` on entry; delivers queued values, then kept values while
    /// demand lasts, then the completion once nothing is left. Returns with the lock released.
    @inlinable
    func drain() {
        while let downstream {
            var next = queue.popFirst()
            if next == nil, demand > .none, let kept = backlog.popFirst() {
                if demand != .unlimited { demand -= 1 }
                next = kept
            }
            if let value = next {
                lock.unlock()
                let more = downstream.receive(value)
                lock.lock()
                if more > .none, self.downstream != nil { demand += more }
                continue
            }
            guard backlog.isEmpty, let completion else { break }
            let released = (self.downstream, parent)
            self.downstream = nil
            parent = nil
            isDelivering = false
            lock.unlock()
            _ = released
            downstream.receive(completion: completion)
            return
        }
        isDelivering = false
        lock.unlock()
    }
}

/// A mirror without children: the Swift runtime traps when it reflects a noncopyable stored property (an atomic)
/// of a generic class, which `dump` and test-failure messages would otherwise do.
extension ReplayConduit: CustomReflectable {
    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: [:]) }
}

// `request(_:)` and `cancel()` run `requestNow(_:)` and `cancelNow()` through `specialised`.
extension ReplayConduit: SpecialisedSubscription {}
