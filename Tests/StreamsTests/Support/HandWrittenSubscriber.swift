import Streams

/// A subscriber written by hand, as Combine's contract tests use: it asks for exactly what a test says
/// and records every call, so a test sees what an operator delivers for a given demand.
///
/// - `initial`: requested inside `receive(subscription:)` (`nil`: nothing; Combine forbids
///   `request(.none)`, so "no demand" is no call at all).
/// - `perValue`: returned from each `receive(_:)`.
/// - `cancelOnValue`: cancels from inside `receive(_:)` of the n-th value (1-based).
/// - `cancelOnSubscription`: cancels from inside `receive(subscription:)`.
final class HandWrittenSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    /// One call the subscriber received.
    enum Event: Equatable, CustomStringConvertible where Input: Equatable {
        case subscription
        case value(Input)
        case finished
        case failure(String)

        var description: String {
            switch self {
            case .subscription: "subscription"
            case .value(let value): "value(\(value))"
            case .finished: "finished"
            case .failure(let error): "failure(\(error))"
            }
        }
    }

    private let state = Locked<[Call]>([])
    private let initial: Subscribers.Demand?
    private let perValue: Subscribers.Demand
    private let cancelOnValue: Int?
    private let cancelOnSubscription: Bool
    private let subscriptionSlot = Locked<(any Subscription)?>(nil)
    private let valueCount = Locked(0)

    private enum Call {
        case subscription
        case value(Input)
        case completion(Subscribers.Completion<Failure>)
    }

    init(
        initial: Subscribers.Demand? = nil, perValue: Subscribers.Demand = .none, cancelOnValue: Int? = nil,
        cancelOnSubscription: Bool = false
    ) {
        self.initial = initial
        self.perValue = perValue
        self.cancelOnValue = cancelOnValue
        self.cancelOnSubscription = cancelOnSubscription
    }

    /// The subscription received, to request or cancel from the test.
    var subscription: (any Subscription)? { subscriptionSlot.withLock { $0 } }

    func request(_ demand: Subscribers.Demand) { subscription?.request(demand) }
    func cancel() { subscription?.cancel() }

    func receive(subscription: any Subscription) {
        subscriptionSlot.withLock { $0 = subscription }
        state.withLock { $0.append(.subscription) }
        if cancelOnSubscription { return subscription.cancel() }
        if let initial { subscription.request(initial) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        state.withLock { $0.append(.value(input)) }
        let count = valueCount.withLock { count in
            count += 1
            return count
        }
        if count == cancelOnValue { subscription?.cancel() }
        return perValue
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        state.withLock { $0.append(.completion(completion)) }
    }
}

extension HandWrittenSubscriber where Input: Equatable {
    /// The values received so far, in order.
    var values: [Input] {
        events.compactMap { event in
            guard case .value(let value) = event else { return nil }
            return value
        }
    }

    /// Every call so far, in order.
    var events: [Event] {
        state.withLock { calls in
            calls.map { call in
                switch call {
                case .subscription: .subscription
                case .value(let value): .value(value)
                case .completion(.finished): .finished
                case .completion(.failure(let error)): .failure(String(describing: error))
                }
            }
        }
    }
}
