extension Publisher {
    /// Mirrors whichever of this publisher and `other` is first to publish an event (a value or a completion);
    /// the other one is cancelled.
    ///
    /// - Race: the first event decides. The loser is cancelled before the winner's first event is delivered,
    ///   and nothing of the loser reaches the subscriber, even an event it had already started to send.
    /// - Demand: until a winner is known, each request of the subscriber is forwarded to both publishers (or
    ///   kept for one whose subscription has not arrived yet); once decided, requests go to the winner alone.
    ///   The winner has been asked for exactly what the subscriber asked for, so it never gets more. With no
    ///   demand, only a completion can decide the race.
    /// - Order: the subscriber gets its subscription first, then this publisher is subscribed, then `other`.
    ///   When both could win at once (two `Just`s), this publisher wins.
    /// - Completion: the winner's completion is forwarded. A completion, even `.finished`, can win the race:
    ///   `Empty().amb(other)` finishes at once and cancels `other`.
    /// - Cancellation: cancels both (or the winner); nothing reaches the subscriber after it.
    /// - Threading: the two may publish on different threads; the race is decided under a lock, and from then
    ///   on only the winner's events are delivered, on its thread.
    /// - Difference from CombineExt: CombineExt asks each publisher for one value as soon as it is subscribed,
    ///   whatever the subscriber's demand, and buffers the winner's first value until it is requested; here
    ///   nothing is requested before the subscriber asks.
    ///
    /// ```swift
    /// let c = cache.load(key).amb(network.fetch(key)).sink { show($0) }   // the faster of the two
    /// ```
    /// - Parameter other: The publisher racing this one.
    @inlinable
    public func amb<Other: Publisher>(_ other: Other) -> Publishers.Amb<Self, Other>
    where Other.Output == Output, Other.Failure == Failure {
        Publishers.Amb(first: self, second: other)
    }

    /// Mirrors whichever of this publisher and `others` is first to publish an event; the rest are cancelled.
    ///
    /// One race among all of them (not nested pairs): demand, order (this publisher first, then `others` in
    /// order), completion, cancellation and threading are those of ``amb(_:)``.
    ///
    /// ```swift
    /// let c = primary.amb(with: mirror1, mirror2).sink { show($0) }
    /// ```
    /// - Parameter others: The publishers racing this one.
    public func amb<Other: Publisher>(with others: Other...) -> AnyPublisher<Output, Failure>
    where Other.Output == Output, Other.Failure == Failure {
        amb(with: others)
    }

    /// Mirrors whichever of this publisher and the publishers of `others` is first to publish an event; the rest
    /// are cancelled.
    ///
    /// One race among all of them: demand, order (this publisher first, then `others` in order), completion,
    /// cancellation and threading are those of ``amb(_:)``.
    ///
    /// ```swift
    /// let c = primary.amb(with: mirrors).sink { show($0) }
    /// ```
    /// - Parameter others: The publishers racing this one.
    public func amb<Others: Collection>(with others: Others) -> AnyPublisher<Output, Failure>
    where Others.Element: Publisher, Others.Element.Output == Output, Others.Element.Failure == Failure {
        AnyPublisher(AmbAll(publishers: [AnyPublisher(self)] + others.map { AnyPublisher($0) }))
    }
}

extension Collection where Element: Publisher {
    /// Mirrors whichever publisher of the collection is first to publish an event; the rest are cancelled.
    ///
    /// An empty collection finishes at once (as in CombineExt); one publisher is mirrored as it is. Demand,
    /// order (the collection's order), completion, cancellation and threading are those of
    /// ``Publisher/amb(_:)``.
    ///
    /// ```swift
    /// let c = servers.map { $0.ping() }.amb().sink { print("fastest answered", $0) }
    /// ```
    public func amb() -> AnyPublisher<Element.Output, Element.Failure> {
        if isEmpty { return AnyPublisher(Empty<Element.Output, Element.Failure>()) }
        return AnyPublisher(AmbAll(publishers: Array(self)))
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/amb(_:)``.
    public struct Amb<First: Publisher, Second: Publisher>: Publisher
    where First.Output == Second.Output, First.Failure == Second.Failure {
        /// The shared output type.
        public typealias Output = First.Output
        /// The shared failure type.
        public typealias Failure = First.Failure

        /// The first publisher of the race (subscribed first).
        public let first: First
        /// The second publisher of the race.
        public let second: Second

        /// Creates the operator.
        @inlinable
        public init(first: First, second: Second) {
            self.first = first
            self.second = second
        }

        /// Attaches `subscriber`: hands it its subscription, then subscribes `first`, then `second`.
        @inlinable
        @inline(__always)
        public consuming func receive<S: Subscriber>(subscriber: consuming S)
        where S.Input == Output, S.Failure == Failure {
            let inner = AmbInner(downstream: subscriber, count: 2)
            inner.start()
            first.receive(subscriber: AmbSide(parent: inner, index: 0))
            second.receive(subscriber: AmbSide(parent: inner, index: 1))
        }
    }
}

/// The publisher behind `amb(with:)` and `Collection.amb()`: one race among publishers of one type.
struct AmbAll<P: Publisher>: Publisher {
    typealias Output = P.Output
    typealias Failure = P.Failure

    let publishers: [P]

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let inner = AmbInner(downstream: subscriber, count: publishers.count)
        inner.start()
        for (index, publisher) in publishers.enumerated() {
            publisher.receive(subscriber: AmbSide(parent: inner, index: index))
        }
    }
}

/// The subscriber `amb` attaches to each racing publisher: forwards its events, with its index, to the race.
///
/// Strong: the race is kept alive by the winner while it delivers. The cycle through a racer's subscription
/// is broken when the race ends (every subscription is cancelled or released).
@usableFromInline
struct AmbSide<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let parent: AmbInner<Downstream>
    @usableFromInline
    let index: Int

    @inlinable
    init(parent: AmbInner<Downstream>, index: Int) {
        self.parent = parent
        self.index = index
    }

    @usableFromInline
    var description: String { "Amb.Side" }

    @inlinable
    func receive(subscription: any Subscription) { parent.sideReceive(subscription: subscription, index: index) }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand { parent.sideReceive(input, index: index) }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        parent.sideReceive(completion: completion, index: index)
    }
}

/// Where one racer's subscription stands, kept under the race's lock.
@usableFromInline
enum AmbLink {
    /// Not subscribed yet: the demand requested meanwhile.
    case waiting(Subscribers.Demand)
    /// Subscribed.
    case subscribed(any Subscription & AnyObject)
    /// Lost, completed, or the race ended: a subscription arriving now is cancelled.
    case done

    /// Ends the link, returning the subscription if it was live (for the caller to cancel or drop outside the
    /// lock).
    @inlinable
    mutating func end() -> (any Subscription & AnyObject)? {
        defer { self = .done }
        if case .subscribed(let subscription) = self { return subscription }
        return nil
    }
}

/// The race of `amb`, and the downstream's subscription. Every `var` is guarded by `lock`; calls out (to the
/// downstream, to a racer's subscription) are made with it released.
///
/// Invariant: until `winner` is set, every racer has been asked (or will be asked, when it subscribes) for
/// everything the downstream requested; afterwards only the winner is asked, and only the winner's events are
/// delivered.
@usableFromInline
final class AmbInner<Downstream: Subscriber>: Subscription, CustomStringConvertible, @unchecked Sendable {
    /// Guards every `var` below (`@exclusivity(unchecked)`: every access is under it, or in `init`).
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    /// One link per racer, by index. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var links: [AmbLink]
    /// The winner's index, or -1 while undecided. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var winner = -1

    /// Runs `request(_:)` and `cancel()` as specialised code (see ``SpecialisedCall``): their bodies test and clear
    /// `Optional`s of generic types, each a runtime metadata lookup if run unspecialised. Immutable.
    @usableFromInline
    let specialised: (AmbInner, SpecialisedCall) -> Void

    @inlinable
    init(downstream: Downstream, count: Int) {
        self.downstream = downstream
        self.links = Array(repeating: .waiting(.none), count: count)
        specialised = SpecialisedCall.forwarding()
    }

    @usableFromInline
    var description: String { "Amb" }

    /// Before any racer is subscribed: hands the subscriber its subscription (its requests wait in the links
    /// until the racers' subscriptions arrive).
    @inlinable
    func start() {
        lock.lock()
        let downstream = self.downstream
        lock.unlock()
        downstream?.receive(subscription: self)
    }

    // MARK: The racers

    @inlinable
    func sideReceive(subscription: any Subscription, index: Int) {
        lock.lock()
        guard downstream != nil, case .waiting(let pending) = links[index] else {
            lock.unlock()
            subscription.cancel()
            return
        }
        links[index] = .subscribed(SubscriptionSlot.object(subscription))
        lock.unlock()
        if pending > .none { subscription.request(pending) }
    }

    /// Decides the race for `index` if it is undecided. Lock held. Returns the losers' subscriptions to cancel
    /// (after the lock), or `nil` if `index` lost or the race has ended.
    @inlinable
    func decide(_ index: Int) -> [any Subscription & AnyObject]? {
        guard downstream != nil else { return nil }
        if winner == index { return [] }
        guard winner == -1 else { return nil }
        winner = index
        var losers: [any Subscription & AnyObject] = []
        for other in links.indices where other != index {
            if let subscription = links[other].end() { losers.append(subscription) }
        }
        return losers
    }

    @inlinable
    func sideReceive(_ input: Downstream.Input, index: Int) -> Subscribers.Demand {
        lock.lock()
        guard let losers = decide(index), let downstream else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        for loser in losers { loser.cancel() }
        return downstream.receive(input)
    }

    @inlinable
    func sideReceive(completion: Subscribers.Completion<Downstream.Failure>, index: Int) {
        lock.lock()
        guard let losers = decide(index), let downstream else {
            lock.unlock()
            return
        }
        self.downstream = nil
        let own = links[index].end()
        lock.unlock()
        _ = own  // completed: released, not cancelled
        for loser in losers { loser.cancel() }
        downstream.receive(completion: completion)
    }

    // MARK: The downstream

    /// `request(_:)`'s body, specialised (see ``specialised``).
    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        lock.lock()
        guard downstream != nil else { return lock.unlock() }
        var targets: [any Subscription & AnyObject] = []
        for index in links.indices where winner == -1 || winner == index {
            switch links[index] {
            case .waiting(let pending): links[index] = .waiting(pending + demand)
            case .subscribed(let subscription): targets.append(subscription)
            case .done: break
            }
        }
        lock.unlock()
        for target in targets { target.request(demand) }
    }

    /// `cancel()`'s body, specialised (see ``specialised``).
    @inlinable
    func cancelNow() {
        lock.lock()
        let released = downstream
        downstream = nil
        var live: [any Subscription & AnyObject] = []
        for index in links.indices {
            if let subscription = links[index].end() { live.append(subscription) }
        }
        lock.unlock()
        _ = released
        for subscription in live { subscription.cancel() }
    }
}

// `request(_:)` and `cancel()` run `requestNow(_:)` and `cancelNow()` through `specialised`.
extension AmbInner: SpecialisedSubscription {}
