import Streams

/// A subscriber that, inside `receive(subscription:)`, requests `initial` and then runs `during` (typically a send
/// into the subject it subscribes to), and logs each event with whether it arrived inside that call: a subject
/// must never call its subscriber re-entrantly during its own subscription.
final class HandshakeSubscriber<Input: Sendable, Failure: Error>: Subscriber, @unchecked Sendable {
    private let initial: Subscribers.Demand?
    private let during: @Sendable () -> Void
    private let isInsideHandshake = Locked(false)
    private let log = Locked<[String]>([])
    private let subscriptionSlot = Locked<(any Subscription)?>(nil)

    init(initial: Subscribers.Demand?, during: @escaping @Sendable () -> Void) {
        self.initial = initial
        self.during = during
    }

    /// The events in order: `subscription`, `value(v)`, `finished`, `failure`, each marked `(nested)` if it
    /// arrived inside `receive(subscription:)`.
    var events: [String] { log.withLock { $0 } }

    func request(_ demand: Subscribers.Demand) { subscriptionSlot.withLock { $0 }?.request(demand) }

    /// Cancels the subscription (from the test, or from inside `during`).
    func cancelForTest() { subscriptionSlot.withLock { $0 }?.cancel() }

    func receive(subscription: any Subscription) {
        subscriptionSlot.withLock { $0 = subscription }
        note("subscription")
        isInsideHandshake.withLock { $0 = true }
        if let initial { subscription.request(initial) }
        during()
        isInsideHandshake.withLock { $0 = false }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        note("value(\(input))")
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: note("finished")
        case .failure: note("failure")
        }
    }

    private func note(_ event: String) {
        let nested = isInsideHandshake.withLock { $0 }
        log.withLock { $0.append(nested ? "\(event) (nested)" : event) }
    }
}
