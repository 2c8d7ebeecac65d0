import Streams
import StreamsTesting
import Testing

@Suite struct AnySubscriberTests {
    @Test func anySubscriberForwardsEveryEvent() {
        let events = Locked<[String]>([])
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription in subscription.request(.max(2)) },
            receiveValue: { value in
                events.withLock { $0.append("\(value)") }
                return .none
            },
            receiveCompletion: { _ in events.withLock { $0.append("end") } })
        (1...5).publisher.subscribe(subscriber)
        #expect(events.withLock { $0 } == ["1", "2"])
        let recorder = TestRecorder<Int, Never>()
        Just(9).subscribe(AnySubscriber(recorder))
        #expect(recorder.values == [9])
    }
}

/// Identity, description and the subject initializer, as Combine has them (OpenCombine's `AnySubscriberTests`
/// run against Combine too).
@Suite struct AnySubscriberIdentityTests {
    private final class Named: Subscriber, CustomStringConvertible {
        typealias Input = Int
        typealias Failure = Never
        var values: [Int] = []
        var description: String { "Named: \(values)" }
        func receive(subscription: any Subscription) { subscription.request(.unlimited) }
        func receive(_ input: Int) -> Subscribers.Demand {
            values.append(input)
            return .none
        }
        func receive(completion: Subscribers.Completion<Never>) {}
    }

    @Test func anErasedSubscriberHasTheWrappedOnesIdentity() {
        let first = Named()
        let second = Named()
        #expect(AnySubscriber(first).combineIdentifier == first.combineIdentifier)
        #expect(AnySubscriber(first).combineIdentifier != AnySubscriber(second).combineIdentifier)
        let twice = AnySubscriber(AnySubscriber(first))
        #expect(twice.combineIdentifier == first.combineIdentifier)
    }

    @Test func aClosureSubscriberKeepsOneIdentity() {
        let anonymous = AnySubscriber<Int, Never>()
        #expect(anonymous.combineIdentifier == anonymous.combineIdentifier)
        #expect(anonymous.combineIdentifier != AnySubscriber<Int, Never>().combineIdentifier)
    }

    @Test func theDescriptionIsTheWrappedSubscribersOrSaysWhatItIs() {
        let named = Named()
        named.values = [1]
        #expect(AnySubscriber(named).description == "Named: [1]")
        #expect(AnySubscriber<Int, Never>().description == "Anonymous AnySubscriber")
        #expect(AnySubscriber(PassthroughSubject<Int, Never>()).description == "Subject")
        #expect("\(AnySubscriber(TestRecorder<Int, Never>()))".contains("TestRecorder"))
    }

    @Test func aMissingValueClosureAsksForNothingMore() {
        #expect(AnySubscriber<Int, Never>().receive(1) == .none)
    }

    @Test func aSubjectWrappedAsASubscriberRepublishesWhatItReceives() {
        let subject = PassthroughSubject<Int, TestFailure>()
        let recorder = TestRecorder<Int, TestFailure>()
        subject.subscribe(recorder)
        let subscriber = AnySubscriber(subject)
        [1, 2, 3].publisher.setFailureType(to: TestFailure.self).subscribe(subscriber)
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.isFinished)
        #expect(subscriber.receive(4) == .none)  // after the completion: the subject ignores it
        #expect(recorder.values == [1, 2, 3])
    }

    @Test func theWrappedSubscriberIsReleasedWithTheErasedOne() {
        weak var weakNamed: Named?
        do {
            let named = Named()
            weakNamed = named
            let erased = AnySubscriber(named)
            _ = erased.receive(5)
            #expect(named.values == [5])
        }
        #expect(weakNamed == nil)
    }
}
