extension AnyPublisher {
    /// A publisher that runs `factory` for each subscriber, handing it a ``Publishers/Create/Subscriber`` to push
    /// values and a completion into (CombineExt's `AnyPublisher.create`). `factory` returns the cancellable that
    /// tears its work down.
    ///
    /// - Demand: values the downstream has not requested yet are buffered, unbounded, in order, and delivered
    ///   as it requests more (as CombineExt's demand buffer does): `create` never drops a value. The completion
    ///   follows the buffered values and needs no demand.
    /// - Timing: `factory` runs when a subscriber attaches, after that subscriber received its subscription
    ///   (not if it cancelled from inside `receive(subscription:)`). What it sends before returning is delivered
    ///   once it has returned.
    /// - Completion and cancellation: at most one completion; after it, and after `cancel()`, later sends are
    ///   ignored and nothing reaches the downstream. The cancellable `factory` returned is cancelled exactly once,
    ///   when the subscription ends: on `cancel()`, or right after the completion reached the downstream — so
    ///   the factory's resources are released either way. A cancel while `factory` is still running cancels its
    ///   cancellable as soon as it returns.
    /// - Threading: the ``Publishers/Create/Subscriber`` is `Sendable` and may be called from any thread; its
    ///   calls are serialized under the subscription's lock, and a send from inside a delivery (re-entrant) is
    ///   queued and delivered after it, never nested.
    ///
    /// Differences from CombineExt: the factory runs after the subscriber received its subscription rather than
    /// before, and the returned cancellable is also cancelled when the completion has been delivered.
    ///
    /// ```swift
    /// let ticks = AnyPublisher<Int, Never>.create { subscriber in
    ///     subscriber.send(1)
    ///     subscriber.send(2)
    ///     subscriber.send(completion: .finished)
    ///     return AnyCancellable { print("torn down") }
    /// }
    /// let c = ticks.sink { print($0) }   // prints 1, 2, torn down
    /// ```
    ///
    /// - Parameter factory: called once per subscription with the subscription's event sink; returns what to
    ///   cancel when the subscription ends.
    /// - Returns: the type-erased ``Publishers/Create`` publisher.
    @inlinable
    public static func create(
        _ factory: @escaping (Publishers.Create<Output, Failure>.Subscriber) -> any Cancellable
    ) -> AnyPublisher<Output, Failure> {
        AnyPublisher(Publishers.Create(factory: factory))
    }

    /// The publisher ``create(_:)`` returns: runs `factory` for each subscriber (see ``create(_:)``).
    ///
    /// ```swift
    /// let greeting = AnyPublisher<String, Never> { subscriber in
    ///     subscriber.send("hello")
    ///     subscriber.send(completion: .finished)
    ///     return AnyCancellable {}
    /// }
    /// ```
    ///
    /// - Parameter factory: called once per subscription with the subscription's event sink; returns what to
    ///   cancel when the subscription ends.
    @inlinable
    public init(_ factory: @escaping (Publishers.Create<Output, Failure>.Subscriber) -> any Cancellable) {
        self.init(Publishers.Create(factory: factory))
    }
}

extension Publishers {
    /// A publisher that runs a factory for each subscriber, which pushes values and a completion into a
    /// ``Publishers/Create/Subscriber``: the publisher behind ``AnyPublisher/create(_:)``, whose documentation
    /// states the contract (demand, buffering, cancellation, threading).
    ///
    /// ```swift
    /// let numbers = Publishers.Create<Int, Never> { subscriber in
    ///     subscriber.send(1)
    ///     subscriber.send(completion: .finished)
    ///     return AnyCancellable {}
    /// }
    /// ```
    public struct Create<Output, Failure: Error>: Publisher, CustomStringConvertible {
        /// The factory's type: given the subscription's ``Publishers/Create/Subscriber``, starts the work and
        /// returns what cancels it.
        public typealias SubscriberHandler = (Subscriber) -> any Cancellable

        /// Runs once per subscription.
        public let factory: SubscriberHandler

        /// A publisher that runs `factory` for each subscriber.
        ///
        /// - Parameter factory: called once per subscription; returns what to cancel when it ends.
        public init(factory: @escaping SubscriberHandler) {
            self.factory = factory
        }

        /// Hands `subscriber` its subscription, then runs the factory for it (unless it cancelled meanwhile).
        @inlinable
        public func receive<S: Streams.Subscriber>(subscriber: consuming S)
        where S.Input == Output, S.Failure == Failure {
            let subscription = CreateSubscription(downstream: copy subscriber)
            subscriber.receive(subscription: subscription)
            subscription.run(factory)
        }

        /// `Create`.
        public var description: String { "Create" }

        /// What a ``Publishers/Create`` factory pushes events into: the one subscription it was made for.
        ///
        /// - Sends after the completion, or after the subscription was cancelled, are ignored.
        /// - Values the downstream has not requested are buffered (unbounded) until it does.
        /// - `Sendable`: call it from any thread; calls are serialized by the subscription's lock. Keeping it
        ///   keeps only the subscription's small state alive, not the downstream, once the subscription ended.
        ///
        /// ```swift
        /// AnyPublisher<Int, Never>.create { subscriber in
        ///     subscriber.send(1)
        ///     subscriber.send(completion: .finished)
        ///     return AnyCancellable {}
        /// }
        /// ```
        public struct Subscriber: Sendable, CustomStringConvertible {
            @usableFromInline
            let sink: CreateEventSink<Output, Failure>

            @inlinable
            init(sink: CreateEventSink<Output, Failure>) { self.sink = sink }

            /// Sends `value` downstream, or buffers it until the downstream requests it.
            ///
            /// - Parameter value: the value to publish.
            @inlinable
            public func send(_ value: Output) { sink.emitValue(sink, value) }

            /// Completes the subscription, after the buffered values; later sends are ignored.
            ///
            /// - Parameter completion: `.finished` or `.failure`.
            @inlinable
            public func send(completion: Subscribers.Completion<Failure>) { sink.emitCompletion(sink, completion) }

            /// `Create.Subscriber`.
            public var description: String { "Create.Subscriber" }
        }
    }
}

extension Publishers.Create.Subscriber where Output == Void {
    /// Sends `()`.
    ///
    /// ```swift
    /// subscriber.send()
    /// ```
    public func send() { send(()) }
}

/// The subscription side of a ``Publishers/Create/Subscriber``: where its events go, erased from the downstream's
/// type. Not a protocol: a call through a protocol would run the subscription's unspecialised generic body (a
/// runtime metadata lookup at each step of every value, and the downstream called unspecialised). The subscription
/// sets two closures in its `init`, which client code specialises; they capture nothing (no allocation) and receive
/// the sink back to downcast. Immutable: `Sendable`.
@usableFromInline
class CreateEventSink<Output, Failure: Error>: @unchecked Sendable {
    @usableFromInline
    let emitValue: (CreateEventSink, Output) -> Void
    @usableFromInline
    let emitCompletion: (CreateEventSink, Subscribers.Completion<Failure>) -> Void

    @inlinable
    init(
        emitValue: @escaping (CreateEventSink, Output) -> Void,
        emitCompletion: @escaping (CreateEventSink, Subscribers.Completion<Failure>) -> Void
    ) {
        self.emitValue = emitValue
        self.emitCompletion = emitCompletion
    }
}

/// One subscription to a ``Publishers/Create``: its demand, the values waiting for demand, the completion and the
/// factory's cancellable, all under `state`'s lock.
///
/// Delivery is serialized by `isDelivering` (set under the lock): the thread that finds it clear delivers, with the
/// lock released around each call downstream, until nothing deliverable is left; any other thread (or a re-entrant
/// call from inside a delivery) only updates the state. It starts set, so nothing is delivered before `run`
/// returns from the factory. `@unchecked Sendable`: every mutable field is in `state`, read and written only with
/// its lock held.
///
/// Its event entry points (see ``CreateEventSink``) and `request`/`cancel` (see ``SpecialisedCall``) run as code
/// specialised for the downstream.
@usableFromInline
final class CreateSubscription<Downstream: Subscriber>: CreateEventSink<Downstream.Input, Downstream.Failure>,
    Subscription, CustomStringConvertible, @unchecked Sendable
{
    @usableFromInline
    typealias Output = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    struct State {
        /// `nil` once the subscription ended (cancelled, or the completion delivered).
        @usableFromInline
        var downstream: Downstream?
        @usableFromInline
        var demand = Subscribers.Demand.none
        /// Values sent without demand, oldest first (unbounded).
        @usableFromInline
        var buffer = RingBuffer<Output>(capacity: nil)
        /// The completion sent, delivered after `buffer`.
        @usableFromInline
        var completion: Subscribers.Completion<Failure>?
        /// One thread (or the start) is delivering; others only update the state.
        @usableFromInline
        var isDelivering = true
        /// The factory's cancellable, once it returned and while the subscription lasts.
        @usableFromInline
        var cancellable: (any Cancellable)?

        @inlinable
        init(downstream: Downstream) { self.downstream = downstream }
    }

    @usableFromInline
    let state: Locked<State>
    /// Runs `request(_:)` and `cancel()` as specialised code (see ``SpecialisedCall``). Immutable.
    @usableFromInline
    let specialised: (CreateSubscription, SpecialisedCall) -> Void

    @inlinable
    init(downstream: Downstream) {
        state = Locked(State(downstream: downstream))
        specialised = SpecialisedCall.forwarding()
        // The sink handed to the factory is this subscription: `unsafeDowncast` is sound because these closures are
        // only ever called with the sink they were stored in (see `Publishers.Create.Subscriber`).
        super.init(
            emitValue: { sink, value in unsafeDowncast(sink, to: CreateSubscription.self).emit(value) },
            emitCompletion: { sink, completion in
                unsafeDowncast(sink, to: CreateSubscription.self).emit(completion: completion)
            })
    }

    @usableFromInline
    var description: String { "Create" }

    /// Runs the factory (unless the downstream cancelled in `receive(subscription:)`), stores its cancellable,
    /// then delivers what the demand allows.
    @inlinable
    func run(_ factory: (Publishers.Create<Output, Failure>.Subscriber) -> any Cancellable) {
        guard state.withLock({ $0.downstream != nil }) else { return }
        let cancellable = factory(Publishers.Create<Output, Failure>.Subscriber(sink: self))
        state.lock()
        guard state.state.downstream != nil else {
            // Cancelled while the factory ran: cancel its work now that we have the handle.
            state.unlock()
            cancellable.cancel()
            return
        }
        state.state.cancellable = cancellable
        drain()
    }

    @inlinable
    func emit(_ value: Output) {
        state.lock()
        guard state.state.downstream != nil, state.state.completion == nil else { return state.unlock() }
        state.state.buffer.append(value)
        guard !state.state.isDelivering else { return state.unlock() }
        state.state.isDelivering = true
        drain()
    }

    @inlinable
    func emit(completion: Subscribers.Completion<Failure>) {
        state.lock()
        guard state.state.downstream != nil, state.state.completion == nil else { return state.unlock() }
        state.state.completion = completion
        guard !state.state.isDelivering else { return state.unlock() }
        state.state.isDelivering = true
        drain()
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        specialised(self, .request(demand))
    }

    /// `request(_:)`'s body, specialised (see ``specialised``).
    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        state.lock()
        guard state.state.downstream != nil else { return state.unlock() }
        state.state.demand += demand
        guard !state.state.isDelivering else { return state.unlock() }
        state.state.isDelivering = true
        drain()
    }

    /// `cancel()`'s body, specialised (see ``specialised``).
    @inlinable
    func cancelNow() {
        let released = state.withLock { state -> (Downstream?, RingBuffer<Output>, (any Cancellable)?) in
            let released = (state.downstream, state.buffer, state.cancellable)
            state.downstream = nil
            state.buffer.removeAll()
            state.completion = nil
            state.cancellable = nil
            return released
        }
        guard released.0 != nil else { return }
        // Exactly once: the downstream was still there, so neither a cancel nor the completion ended it yet. If the
        // factory is still running, `run` cancels its cancellable when it returns.
        released.2?.cancel()
    }

    /// Called with the lock held and `isDelivering` set: delivers buffered values while there is demand, then the
    /// completion once the buffer is empty. Returns with the lock released.
    @inlinable
    func drain() {
        while let downstream = state.state.downstream {
            if state.state.demand > .none, let value = state.state.buffer.popFirst() {
                if state.state.demand != .unlimited { state.state.demand -= 1 }
                state.unlock()
                let more = downstream.receive(value)
                state.lock()
                if more > .none, state.state.downstream != nil { state.state.demand += more }
                continue
            }
            guard state.state.buffer.isEmpty, let completion = state.state.completion else { break }
            let cancellable = state.state.cancellable
            state.state.downstream = nil
            state.state.cancellable = nil
            state.state.isDelivering = false
            state.unlock()
            downstream.receive(completion: completion)
            cancellable?.cancel()
            return
        }
        state.state.isDelivering = false
        state.unlock()
    }
}

// `request(_:)` and `cancel()` run `requestNow(_:)` and `cancelNow()` through `specialised`.
extension CreateSubscription: SpecialisedSubscription {}
