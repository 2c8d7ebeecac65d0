import Synchronization

extension Subscriber {
    /// Hands this subscriber a subscription, then `completion` at once, unless the subscriber cancelled
    /// that subscription from inside `receive(subscription:)`: nothing reaches a subscriber after it cancels.
    ///
    /// For publishers that complete as soon as they are subscribed: `Empty`, `Fail`, an empty sequence, a
    /// subject that has already completed.
    @inlinable
    func receiveImmediateCompletion(_ completion: Subscribers.Completion<Failure>) {
        let subscription = ImmediateCompletionSubscription()
        receive(subscription: subscription)
        if subscription.isCancelled.load(ordering: .acquiring) { return }
        receive(completion: completion)
    }
}

/// The subscription of a publisher that completes at once: it has nothing to deliver on request, and only
/// records a cancel (an atomic flag: the subscriber may cancel from any thread) so that the completion is
/// not sent after it.
@usableFromInline
final class ImmediateCompletionSubscription: Subscription, Sendable, CustomStringConvertible {
    @usableFromInline
    let isCancelled = Atomic<Bool>(false)

    @inlinable
    init() {}

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {}

    @usableFromInline
    func cancel() { isCancelled.store(true, ordering: .releasing) }

    @usableFromInline
    var description: String { "Empty" }
}

/// A mirror without children: the Swift runtime traps when it reflects a noncopyable stored property (an
/// atomic), which `dump` and test-failure messages would otherwise do.
extension ImmediateCompletionSubscription: CustomReflectable {
    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: [:]) }
}
