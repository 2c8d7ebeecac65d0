import Synchronization

/// A publisher that emits one value and finishes. It cannot fail.
///
/// - Demand: the value is delivered on the first request of at least one, then `.finished` at once.
/// - Threading: delivers on the thread that requests.
///
/// ```swift
/// let c = Just(42).sink { print($0) }   // 42
/// ```
public struct Just<Output>: Publisher {
    /// Never fails.
    public typealias Failure = Never

    /// The value published.
    public let output: Output

    /// A publisher of `output`.
    @inlinable
    public init(_ output: Output) { self.output = output }

    /// Attaches `subscriber`.
    @inlinable
    public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(subscription: JustSubscription<Output?>(value: output, downstream: copy subscriber))
    }
}

/// `Just`'s subscription: delivers the value and `.finished` on the first request of at least one.
///
/// `request`, `cancel` and `deinit` arrive through unspecialised code, where a stored property of a type such
/// as `Optional<Output>` or `Optional<Downstream>` would make each of them look up type metadata. So the
/// value is typed by the generic parameter `Slot` (an `Output?`, see ``OptionalSlot``), and the downstream
/// lives in the `deliver` closure, formed in the specialised `receive(subscriber:)`: when the subscriber is
/// a class (a `flatMap` side, a sink), the closure's context is that object and costs no allocation. The
/// closure's type names no generic parameter (it takes the subscription as `AnyObject`), so `request` moves it
/// out without instantiating a function type's metadata, and the closure, specialised, takes the value.
/// Lock-free: `request` and `cancel` race for one atomic state, and only the winner takes the value and
/// `deliver`, so the value is released once delivered or cancelled. A cancel that arrives while the value is
/// being delivered (from inside the subscriber's `receive(_:)`) moves the state on, and `.finished` is then
/// not sent: nothing reaches a subscriber after it cancels.
@usableFromInline
final class JustSubscription<Slot: OptionalSlot>: Subscription, CustomStringConvertible, @unchecked Sendable {
    /// `idle` → `delivering` → `done`, or `idle` → `done` (cancelled); see ``JustState``.
    @usableFromInline
    let state = Atomic<UInt8>(JustState.idle)
    /// The publisher it stands for, for ``description``: `Optional.Publisher` and `Result.Publisher` deliver their
    /// value through this subscription too, and Combine names theirs "Optional" and "Once". One byte, in the
    /// padding after `state`. Immutable.
    @usableFromInline
    let name: JustSubscriptionName
    /// The value; taken by the winner of `state`. Written in `init`, then only by the one thread whose atomic
    /// exchange moved `state` out of `idle`.
    @usableFromInline
    @exclusivity(unchecked)
    var value: Slot
    /// Takes the value out of the subscription it is given (always this one, as `AnyObject`) and delivers it, then
    /// `.finished` if ``endDelivery()`` says the subscriber did not cancel meanwhile; taken by the winner of
    /// `state`. Written in `init`, then only by the one thread whose atomic exchange moved `state` out of `idle`.
    @usableFromInline
    @exclusivity(unchecked)
    var deliver: ((AnyObject) -> Void)?

    @inlinable
    init<Downstream: Subscriber>(
        value: Downstream.Input, downstream: Downstream, name: JustSubscriptionName = .just
    ) where Slot.Wrapped == Downstream.Input {
        self.name = name
        self.value = nil
        self.value.wrapped = value
        deliver = { object in
            // Sound: `request(_:)`, the only caller, passes `self`, a `JustSubscription<Slot>`.
            let subscription = unsafeDowncast(object, to: JustSubscription<Slot>.self)
            var taken: Slot = nil
            swap(&taken, &subscription.value)  // the winner of `state` owns `value` now
            guard let value = taken.wrapped else { return }
            _ = downstream.receive(value)
            if subscription.endDelivery() { downstream.receive(completion: .finished) }
        }
    }

    @usableFromInline
    var description: String { name.rawValue }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard demand > .none,
            state.compareExchange(
                expected: JustState.idle, desired: JustState.delivering, ordering: .acquiringAndReleasing
            ).exchanged
        else { return }
        var deliver: ((AnyObject) -> Void)? = nil
        swap(&deliver, &self.deliver)  // moved out: no retain of the subscriber
        deliver?(self)
    }

    /// The value was delivered: whether `.finished` follows (`false` if the subscriber cancelled meanwhile).
    @inlinable
    func endDelivery() -> Bool {
        state.compareExchange(expected: JustState.delivering, desired: JustState.done, ordering: .acquiringAndReleasing)
            .exchanged
    }

    @inlinable
    func cancel() {
        let previous = state.exchange(JustState.done, ordering: .acquiringAndReleasing)
        guard previous == JustState.idle else { return }  // delivering: `endDelivery` sees the cancel
        var dropped: Slot = nil
        swap(&dropped, &value)
        var closure: ((AnyObject) -> Void)? = nil
        swap(&closure, &deliver)
        _ = (dropped, closure)  // releases the value and the downstream
    }
}

/// What a ``JustSubscription`` calls itself: the name Combine gives the subscription of each publisher that
/// delivers one value on request.
@usableFromInline
enum JustSubscriptionName: String, Sendable {
    case just = "Just"
    /// `Optional.Publisher` of a value.
    case optional = "Optional"
    /// `Result.Publisher` of a success (Combine's name, from its former `Publishers.Once`).
    case once = "Once"
}

/// The states of a ``JustSubscription``.
@usableFromInline
enum JustState {
    @usableFromInline static let idle: UInt8 = 0
    @usableFromInline static let delivering: UInt8 = 1
    /// Delivered, or cancelled.
    @usableFromInline static let done: UInt8 = 2
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}

/// A mirror without children: the Swift runtime traps when it reflects a noncopyable stored property (an atomic)
/// of a generic class, which `dump` and test-failure messages would otherwise do.
extension JustSubscription: CustomReflectable {
    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: [:]) }
}
