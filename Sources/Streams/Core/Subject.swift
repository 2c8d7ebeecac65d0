/// A publisher you can send values into: `PassthroughSubject`, `CurrentValueSubject`.
///
/// - Threading: `send` may be called from any thread. Sends are serialized per subject: each subscriber
///   receives events serially, and all subscribers see the values in the same order.
/// - Re-entrancy (a deliberate difference from Combine): a value sent from inside a subscriber's
///   `receive(_:)` is queued and delivered after the current value has reached every subscriber,
///   not nested inside the current call. Combine nests, so there a later subscriber can see the
///   re-entrant value *before* the one that caused it.
///
/// ```swift
/// let subject = PassthroughSubject<Int, Never>()
/// subject.send(1)
/// subject.send(completion: .finished)
/// ```
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    /// Sends a value to every subscriber that has demand.
    func send(_ value: Output)
    /// Sends the completion to every subscriber; later sends are ignored.
    func send(completion: Subscribers.Completion<Failure>)
    /// Receives the subscription when the subject subscribes to a publisher (`publisher.subscribe(subject)`);
    /// the subject requests unlimited values from it: a `PassthroughSubject` once one of its subscribers has
    /// requested a value (at once if one already has), a `CurrentValueSubject` at once (as in Combine).
    func send(subscription: any Subscription)
}

extension Subject where Output == Void {
    /// Sends `()`.
    @inlinable
    public func send() { send(()) }
}

extension Publisher {
    /// Subscribes a subject to this publisher, so the subject re-publishes its events.
    ///
    /// Returns a cancellable that cancels the upstream subscription.
    ///
    /// ```swift
    /// let link = [1, 2].publisher.subscribe(subject)
    /// ```
    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable where S.Output == Output, S.Failure == Failure {
        let relay = SubjectRelay(subject: subject)
        subscribe(relay)
        return ObjectCancellable(relay)
    }
}

/// Feeds a subject from an upstream publisher; cancelling it cancels the upstream. Its state is in `link` and
/// `subject`, each under its own lock; the subject it sends to is safe to call from any thread.
final class SubjectRelay<Target: Subject>: Subscriber, Cancellable, @unchecked Sendable {
    typealias Input = Target.Output
    typealias Failure = Target.Failure

    private let link = UpstreamLink()
    private let subject: Locked<Target?>

    init(subject: Target) { self.subject = Locked(subject) }

    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        subject.withLock { $0 }?.send(subscription: subscription)
    }

    func receive(_ input: Target.Output) -> Subscribers.Demand {
        subject.withLock { $0 }?.send(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Target.Failure>) {
        guard link.finish() else { return }
        let target = subject.withLock { state -> Target? in
            defer { state = nil }
            return state
        }
        target?.send(completion: completion)
    }

    func cancel() {
        link.cancel()
        subject.withLock { $0 = nil }
    }
}
