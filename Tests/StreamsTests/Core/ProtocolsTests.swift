import Testing

@testable import Streams

/// The vocabulary (Sources/Streams/Core/Protocols.swift), as Combine defines it: `subscribe(_:)` is `receive(subscriber:)`,
/// a `Void` subscriber can `receive()` with no argument, `Subscriptions.empty` does nothing and reads "Empty", and a
/// class keeps one `combineIdentifier` (its identity) while a value type without one of its own gets a new one per
/// read.
@Suite struct ProtocolsTests {
    @Test func subscribeHandsTheSubscriberToTheSameReceive() {
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .unlimited)
        [1, 2].publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func aVoidSubscriberReceivesWithoutAnArgument() {
        let subject = PassthroughSubject<Void, Never>()
        var count = 0
        let subscriber = AnySubscriber<Void, Never>(
            receiveSubscription: { $0.request(.max(2)) },
            receiveValue: {
                count += 1
                return .none
            },
            receiveCompletion: nil)
        subject.subscribe(subscriber)
        #expect(subscriber.receive() == .none)
        subject.send()
        #expect(count == 2)
    }

    @Test func theEmptySubscriptionDoesNothingAndReadsEmpty() {
        let empty = Subscriptions.empty
        empty.request(.unlimited)
        empty.cancel()
        #expect(String(describing: empty) == "Empty")
        #expect(empty.combineIdentifier == Subscriptions.empty.combineIdentifier)  // one shared instance
    }

    @Test func aClassKeepsItsIdentityAndAValueTypeGetsANewOnePerRead() {
        final class ClassSubscriber: Subscriber {
            func receive(subscription: any Subscription) {}
            func receive(_ input: Int) -> Subscribers.Demand { .none }
            func receive(completion: Subscribers.Completion<Never>) {}
        }
        let object = ClassSubscriber()
        #expect(object.combineIdentifier == object.combineIdentifier)
        #expect(object.combineIdentifier != ClassSubscriber().combineIdentifier)
        let value = NoSubscription()
        #expect(value.combineIdentifier != value.combineIdentifier)
    }
}
