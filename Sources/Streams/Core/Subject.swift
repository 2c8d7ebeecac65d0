/// A publisher you can send values into: `PassthroughSubject`, `CurrentValueSubject`.
///
/// - Threading: `send` may be called from any thread. Sends are serialized per subject: each subscriber
///   receives events serially, and all subscribers see the values in the same order. A send from another thread
///   while a delivery runs is queued for the delivering thread, and `send` returns without waiting for it.
/// - Re-entrancy (a deliberate difference from Combine): a value sent from inside a subscriber's
///   `receive(_:)` is queued and delivered after the current value has reached every subscriber,
///   not nested inside the current call. Combine nests, so there a later subscriber can see the
///   re-entrant value *before* the one that caused it. Likewise a send from inside a subscriber's
///   `receive(subscription:)` reaches that subscriber (if it has asked by then) once the call returns; nothing
///   reaches a subscriber during its own subscription. (Subscribing while another thread delivers, the
///   subscriber is served once its subscription call has returned and may miss what is sent before that.)
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
    /// Returns a cancellable that cancels the upstream subscription. The subject gets the upstream's subscription
    /// (``Subject/send(subscription:)``), which it asks for values as its own subscribers want them; after a
    /// cancel it gets nothing more (a value already on its way on another thread may still arrive, as in Combine).
    ///
    /// ```swift
    /// let link = [1, 2].publisher.subscribe(subject)
    /// ```
    @inlinable
    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable where S.Output == Output, S.Failure == Failure {
        let relay = SubjectRelay(subject: subject, feedsRelay: false)
        subscribe(relay)
        return ObjectCancellable(relay.link)
    }
}

/// The subscriber that feeds a subject from an upstream publisher: a stage (see ``StageLink``). The upstream holds
/// it, with the subject, until it completes or is cancelled; its link is the cancellable ``Publisher/subscribe(_:)``
/// (or a relay's `subscribe(_:)`) returns. A value costs a relaxed load of the link's phase and the subject's own
/// `send`.
///
/// Feeding a subject, it hands the subject the upstream's subscription, which the subject asks for values as its
/// subscribers want them, and forwards the completion. Feeding a relay (`feedsRelay`), it asks for `.unlimited`
/// itself (a subject keeps every upstream subscription it was given until it completes, and a relay never completes
/// while it lives) and drops the completion (a relay does not complete).
@usableFromInline
struct SubjectRelay<Target: Subject>: Subscriber, CustomStringConvertible {
    @usableFromInline
    typealias Input = Target.Output
    @usableFromInline
    typealias Failure = Target.Failure

    @usableFromInline
    let subject: Target
    /// Holds the upstream subscription for the cancel; ended by the cancel or by the upstream's completion.
    @usableFromInline
    let link: StageLink<Void, NoStageHooks>
    @usableFromInline
    let feedsRelay: Bool

    @inlinable
    init(subject: Target, feedsRelay: Bool) {
        self.subject = subject
        self.link = StageLink(.subjectRelay, state: (), hooks: NoStageHooks())
        self.feedsRelay = feedsRelay
    }

    @usableFromInline
    var description: String { "Subject" }
    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(link) }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        if feedsRelay { link.request(.unlimited) } else { subject.send(subscription: subscription) }
    }

    @inlinable
    func receive(_ input: Target.Output) -> Subscribers.Demand {
        guard link.isLive else { return .none }
        subject.send(input)
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Target.Failure>) {
        guard link.finish(), !feedsRelay else { return }
        subject.send(completion: completion)
    }
}
