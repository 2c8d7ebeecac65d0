import Streams
import Testing

/// A subscriber that keeps its subscription (as many hand-written subscribers do) and holds a token, so a
/// test can see when it is freed: only if the operator lets go of it on cancel, since the subscriber keeps
/// the operator alive in turn.
private final class KeepingSubscriber<Input, Failure: Error>: Subscriber {
    var subscription: (any Subscription)?
    var values: [Input] = []
    let token: LifetimeToken

    init(token: LifetimeToken) { self.token = token }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        values.append(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {}
}

/// Cancel releases the subscriber (and what it holds) at once, through a well-behaved upstream: the stages
/// (`scan`, `removeDuplicates`), whose subscriber the subject lets go of, and the subjects and `Just`, whose kept
/// value or subscription state is stored for unspecialised cancel and deinit paths (`OptionalSlot` fields).
@Suite struct CancelReleaseTests {
    /// Subscribes a keeping subscriber to `publisher`, lets `send` deliver, cancels through the kept
    /// subscription and reports whether the subscriber was freed, with the values it got.
    private func cancelFrees<P: Publisher>(
        _ publisher: P, send: () -> Void
    ) -> (freed: Bool, values: [P.Output]) {
        weak var weakToken: LifetimeToken?
        var values: [P.Output] = []
        do {
            let token = LifetimeToken()
            weakToken = token
            let subscriber = KeepingSubscriber<P.Output, P.Failure>(token: token)
            publisher.subscribe(subscriber)
            send()
            values = subscriber.values
            subscriber.subscription?.cancel()
        }
        return (weakToken == nil, values)
    }

    @Test func scanReleasesItsSubscriberOnCancelAndKeepsNoValueAlive() {
        let subject = PassthroughSubject<Int, Never>()
        let result = cancelFrees(subject.scan(0, +)) {
            subject.send(1)
            subject.send(2)
        }
        #expect(result.values == [1, 3])
        #expect(result.freed)
    }

    @Test func removeDuplicatesReleasesItsSubscriberOnCancel() {
        let subject = PassthroughSubject<Int, Never>()
        let result = cancelFrees(subject.removeDuplicates()) {
            subject.send(1)
            subject.send(1)
            subject.send(2)
        }
        #expect(result.values == [1, 2])
        #expect(result.freed)
    }

    @Test func aSubjectReleasesItsSubscriberOnCancel() {
        let subject = CurrentValueSubject<Int, Never>(7)
        let result = cancelFrees(subject) { subject.send(8) }
        #expect(result.values == [7, 8])
        #expect(result.freed)
    }

    /// A conduit keeps its subject's engine alive (as Combine's conduits keep their subject): a subscriber
    /// may still cancel after the subject is gone, and is freed then.
    @Test func aSubscriberOfADroppedSubjectMayCancelAndIsFreed() {
        weak var weakToken: LifetimeToken?
        weak var weakSubject: PassthroughSubject<Int, Never>?
        var subscriber: KeepingSubscriber<Int, Never>?
        do {
            let token = LifetimeToken()
            weakToken = token
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            let keeping = KeepingSubscriber<Int, Never>(token: token)
            subscriber = keeping
            subject.subscribe(keeping)
            subject.send(1)
        }
        #expect(weakSubject == nil)
        #expect(subscriber?.values == [1])
        subscriber?.subscription?.cancel()
        subscriber = nil
        #expect(weakToken == nil)
    }

    @Test func justReleasesItsSubscriberOnCancelBeforeDemand() {
        weak var weakToken: LifetimeToken?
        var subscription: (any Subscription)?
        do {
            let token = LifetimeToken()
            weakToken = token
            Just(1).subscribe(
                AnySubscriber<Int, Never>(
                    receiveSubscription: { subscription = $0 },
                    receiveValue: { _ in withExtendedLifetime(token) { .none } },
                    receiveCompletion: { _ in }))
        }
        #expect(weakToken != nil)  // held by the subscription until it ends
        subscription?.cancel()
        #expect(weakToken == nil)
        subscription?.request(.unlimited)  // after cancel: nothing is delivered, nothing crashes
    }

    @Test func removeDuplicatesFreesTheLastValueWithTheSubscription() {
        let subject = PassthroughSubject<LifetimeToken, Never>()
        weak var weakValue: LifetimeToken?
        var cancellable: AnyCancellable?
        do {
            let value = LifetimeToken()
            weakValue = value
            cancellable = subject.removeDuplicates { $0 === $1 }.sink { _ in }
            subject.send(value)
        }
        #expect(weakValue != nil)  // kept to compare the next value with
        cancellable = nil
        #expect(weakValue == nil)
        _ = cancellable
    }
}
