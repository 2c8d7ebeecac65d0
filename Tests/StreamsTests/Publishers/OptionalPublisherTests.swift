import Streams
import StreamsTesting
import Testing

/// `Optional.Publisher`, as Combine documents it: a value waits for a request of at least one and is followed by
/// `.finished`; `nil` just finishes, without demand.
@Suite struct OptionalPublisherTests {
    /// Nothing but the subscription arrives before a request; a request of one delivers the value, then `.finished`.
    @Test func aValueWaitsForARequestThenFinishes() {
        let subscriber = HandWrittenSubscriber<Int, Never>()
        Optional(1).publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .finished])
    }

    /// A request made from inside `receive(subscription:)` delivers the value and `.finished` at once.
    @Test func aRequestFromInsideReceiveSubscriptionDeliversAtOnce() {
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(1))
        Optional(1).publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .finished])
    }

    /// Unlimited demand delivers exactly the one value, then `.finished`.
    @Test func unlimitedDemandDeliversTheOneValueThenFinishes() {
        let recorder = Optional("a").publisher.record()
        #expect(recorder.events == [.value("a", at: .zero), .finished(at: .zero)])
        #expect(recorder.subscriptionCount == 1)
    }

    /// `nil` sends the subscription and `.finished` at once, without any request.
    @Test func nilFinishesAtOnceWithoutDemand() {
        let subscriber = HandWrittenSubscriber<Int, Never>()
        Int?.none.publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .finished])
    }

    /// `nil` sends nothing after `.finished`, whatever is requested later.
    @Test func nilSendsNothingMoreAfterALaterRequest() {
        let subscriber = HandWrittenSubscriber<Int, Never>()
        Int?.none.publisher.subscribe(subscriber)
        subscriber.request(.max(1))
        subscriber.request(.unlimited)
        #expect(subscriber.events == [.subscription, .finished])
    }

    /// A cancel before any request means neither the value nor `.finished` is ever delivered.
    @Test func aCancelBeforeTheRequestDeliversNothing() {
        let subscriber = HandWrittenSubscriber<Int, Never>()
        Optional(1).publisher.subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription])
    }

    /// Once the value and `.finished` are out, further requests deliver nothing more.
    @Test func aSecondRequestDeliversNothingMore() {
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(1))
        Optional(1).publisher.subscribe(subscriber)
        subscriber.request(.max(1))
        subscriber.request(.unlimited)
        #expect(subscriber.events == [.subscription, .value(1), .finished])
    }

    /// Demand returned from `receive(_:)` does not make the value arrive twice.
    @Test func demandReturnedFromReceiveDeliversNothingMore() {
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(1), perValue: .unlimited)
        Optional(1).publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .finished])
    }

    /// Every subscriber gets its own delivery of the value, on its own demand.
    @Test func eachSubscriberGetsTheValueOnItsOwnDemand() {
        let publisher = Optional(7).publisher
        let eager = publisher.record()
        let waiting = publisher.record(demand: .none)
        #expect(eager.values == [7])
        #expect(eager.isFinished)
        #expect(waiting.events.isEmpty)
        waiting.request(.max(1))
        #expect(waiting.events == [.value(7, at: .zero), .finished(at: .zero)])
    }

    /// `output` holds the optional; `Optional.Publisher(_:)` and `.publisher` build the same publisher.
    @Test func outputIsTheOptionalAndBothSpellingsAgree() {
        #expect(Optional(3).publisher.output == 3)
        #expect(Int?.none.publisher.output == nil)
        #expect(Optional<Int>.Publisher(3) == Optional(3).publisher)
        #expect(Optional<Int>.Publisher(nil) == Int?.none.publisher)
    }

    /// `print()` and test failures name the subscription as Combine does: "Optional" for a value (not the `Just`
    /// it is delivered like), "Empty" for `nil`.
    @Test func theSubscriptionIsNamedAsInCombine() {
        let value = Optional(1).publisher.record(demand: .none)
        #expect(value.subscription.map { "\($0)" } == "Optional")
        let none = Int?.none.publisher.record(demand: .none)
        #expect(none.subscription.map { "\($0)" } == "Empty")
    }

    /// Publishers of equal optionals are equal (`Equatable` when `Wrapped` is); different ones are not.
    @Test func publishersOfEqualOptionalsAreEqual() {
        #expect(Optional(1).publisher == Optional(1).publisher)
        #expect(Optional(1).publisher != Optional(2).publisher)
        #expect(Int?.none.publisher == Int?.none.publisher)
        #expect(Int?.none.publisher != Optional(1).publisher)
    }
}
