import Synchronization

extension Subscribers {
    /// A subscriber that requests unlimited values and hands each event to a closure.
    ///
    /// Created by ``Publisher/sink(receiveCompletion:receiveValue:)``. Cancelling it cancels the
    /// upstream subscription and stops the value handler at once; receiving the completion releases both
    /// closures (and whatever they capture). After a cancel the closures are released with the sink itself,
    /// which happens as soon as upstream and the ``AnyCancellable`` let go of it (both do on cancel). A
    /// completion that arrives while the value handler runs (sent from inside it) releases them when that
    /// handler returns, never under it.
    ///
    /// - Threading: the closures run on whatever thread the upstream delivers on, serially. `cancel()` may
    ///   come from any thread; a value racing with it may still be delivered, none after it returns on the
    ///   delivering thread. Delivering a value takes no lock: one relaxed atomic load.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
        @unchecked Sendable
    {
        /// `waiting` → (`subscribing` →) `subscribed` → `terminal`; whoever moves it to `terminal` from
        /// `subscribed` owns `upstream`.
        @usableFromInline
        let status = Atomic<UInt8>(Status.waiting)

        /// How many calls of the value handler are running (more than one only if the upstream delivers
        /// re-entrantly), plus ``releasePending`` once a completion arrived during one. Touched only by
        /// upstream's serial calls. While a value call runs, a completion leaves the handlers in place, and the
        /// outermost value call releases them when it returns: a completion sent from inside the value handler
        /// must not free the closure that is running. (Stored in the padding after `status`: no space.)
        @usableFromInline
        @exclusivity(unchecked)
        var deliveries: UInt32 = 0

        /// The upstream subscription: written only while `subscribing`, taken only by the thread that ends
        /// the sink from `subscribed`. Empty before and after (see ``SubscriptionSlot``).
        @usableFromInline
        @exclusivity(unchecked)
        var upstream = SubscriptionSlot()

        /// The value and completion handlers; touched only by upstream's (serial) calls and released by the
        /// completion. Stored in place and noncopyable, so a value borrows the closure where it lies instead
        /// of retaining it (the completion, which releases them, cannot race a value), and the sink needs no
        /// second object for them.
        @usableFromInline
        @exclusivity(unchecked)
        var handlers: SinkHandlers<Input, Failure>?

        @usableFromInline
        typealias Status = SinkStatus

        /// Creates a sink with a completion and a value handler.
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            handlers = SinkHandlers(receiveValue: receiveValue, receiveCompletion: receiveCompletion)
        }

        /// Stores the subscription and requests `.unlimited` (cancels it if one is already stored, or
        /// the sink has ended).
        @inlinable
        public func receive(subscription: any Subscription) {
            if Status.store(subscription, status: status, upstream: &upstream) { subscription.request(.unlimited) }
        }

        /// Calls the value handler (unless cancelled).
        @inlinable
        public func receive(_ input: Input) -> Subscribers.Demand {
            guard status.load(ordering: .relaxed) != Status.terminal else { return .none }
            deliveries &+= 1
            switch handlers {
            case .some(let handlers): handlers.receiveValue(input)
            case .none: break
            }
            deliveries &-= 1
            if deliveries == Self.releasePending { releaseHandlers() }
            return .none
        }

        /// The flag in `deliveries`: a completion arrived during a value call.
        @usableFromInline
        static var releasePending: UInt32 { 1 << 31 }

        /// Frees the handlers once a completion arrived and no value call is running (see `deliveries`).
        @usableFromInline
        func releaseHandlers() {
            deliveries = 0
            handlers = nil
        }

        /// Calls the completion handler once, then releases both handlers.
        @inlinable
        public func receive(completion: Subscribers.Completion<Failure>) {
            let previous = status.exchange(Status.terminal, ordering: .acquiringAndReleasing)
            if deliveries & ~Self.releasePending != 0 {
                // Sent from inside the value handler: the handlers stay until it returns (see `deliveries`).
                guard previous != Status.terminal else { return }
                if previous == Status.subscribed { upstream.clear() }
                deliveries |= Self.releasePending
                switch handlers {
                case .some(let handlers): handlers.receiveCompletion(completion)
                case .none: break
                }
                return
            }
            let released = handlers.takeInline()
            guard previous != Status.terminal else { return }
            if previous == Status.subscribed { upstream.clear() }
            switch consume released {
            case .some(let handlers): handlers.receiveCompletion(completion)
            case .none: break
            }
        }

        /// Cancels upstream and stops the value handler. Idempotent.
        public func cancel() {
            guard status.exchange(Status.terminal, ordering: .acquiringAndReleasing) == Status.subscribed else {
                return
            }
            upstream.take().cancel()  // moved out, not copied
        }

        /// `Sink`.
        public var description: String { "Sink" }
    }
}

/// A sink's two handlers, stored in the sink (see `Subscribers.Sink.handlers`). Noncopyable, so that reading
/// them borrows them in place: a value is handed to `receiveValue` without retaining its context, which relies
/// on the stream contract (the upstream never delivers a value concurrently with the completion, which
/// releases them). Only closures: its layout is fixed, so the sink's unspecialised `deinit` destroys it without
/// looking up type metadata.
@usableFromInline
struct SinkHandlers<Input, Failure: Error>: ~Copyable {
    @usableFromInline
    let receiveValue: (Input) -> Void
    @usableFromInline
    let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

    @inlinable
    init(
        receiveValue: @escaping (Input) -> Void,
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
    ) {
        self.receiveValue = receiveValue
        self.receiveCompletion = receiveCompletion
    }
}

extension Optional where Wrapped: ~Copyable {
    /// `take()`, written out so that it is inlined: the sink's `receive(completion:)` often runs unspecialised
    /// (reached through an erased subscriber), where a call to the standard library's generic `take()` looks up the
    /// metadata of `SinkHandlers<Input, Failure>` and of its `Optional` each time. Inlined, it moves a value of fixed
    /// layout (two closures): no lookup.
    @inlinable
    @inline(__always)
    mutating func takeInline() -> Wrapped? {
        let taken = consume self
        self = nil
        return taken
    }
}

/// The states of a ``Subscribers/Sink`` and a ``Subscribers/Assign`` (outside the generic classes: they cannot
/// hold static stored properties).
@usableFromInline
enum SinkStatus {
    @usableFromInline static let waiting: UInt8 = 0
    @usableFromInline static let subscribing: UInt8 = 1
    @usableFromInline static let subscribed: UInt8 = 2
    @usableFromInline static let terminal: UInt8 = 3

    /// The handshake of a subscriber with a status byte and an upstream slot: stores `subscription` in `upstream`
    /// and returns `true` (the caller then asks it for values), or cancels it and returns `false` when one is
    /// stored already or the subscriber has ended. `upstream` is written only while `subscribing`; a cancel that
    /// comes meanwhile leaves it to this call, which clears it.
    @inlinable
    static func store(
        _ subscription: any Subscription, status: borrowing Atomic<UInt8>, upstream: inout SubscriptionSlot
    ) -> Bool {
        guard status.compareExchange(expected: waiting, desired: subscribing, ordering: .acquiring).exchanged else {
            subscription.cancel()
            return false
        }
        upstream.store(subscription)
        guard status.compareExchange(expected: subscribing, desired: subscribed, ordering: .releasing).exchanged else {
            upstream.clear()
            subscription.cancel()
            return false
        }
        return true
    }
}

extension Publisher {
    /// Subscribes with closures for the values and the completion, requesting unlimited values.
    ///
    /// Returns an ``AnyCancellable``: keep it, or the subscription is cancelled at once.
    /// - Threading: closures run on the thread the publisher delivers on.
    ///
    /// ```swift
    /// let c = [1, 2].publisher.sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    @inlinable
    public consuming func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        return ObjectCancellable(sink)
    }
}

extension Publisher where Failure == Never {
    /// Subscribes with a closure for the values of a publisher that cannot fail.
    ///
    /// ```swift
    /// let c = subject.sink { print($0) }
    /// ```
    @inlinable
    public consuming func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}

extension Subscribers.Sink: CustomReflectable {
    /// A mirror without children. Its stored properties include atomics, which the Swift runtime cannot
    /// reflect in a generic class (it traps), so `dump` and test-failure messages show the description only.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
