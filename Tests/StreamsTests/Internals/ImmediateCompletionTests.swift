import Testing

@testable import Streams

/// `receiveImmediateCompletion` (Sources/Streams/Internals/ImmediateCompletion.swift), the one implementation of
/// "complete at once" (`Empty`, `Fail`, an empty sequence, a subject that has completed): the subscriber gets a
/// subscription, then the completion without asking; one that cancels from inside `receive(subscription:)` gets
/// nothing more (rule (b) of the demand contract, as `Tests/StreamsTests/Contract/NothingAfterCancelTests.swift`
/// checks over every publisher).
@Suite struct ImmediateCompletionTests {
    @Test func theSubscriberGetsASubscriptionThenTheCompletionWithoutAsking() {
        let finished = HandWrittenSubscriber<Int, TestError>()
        finished.receiveImmediateCompletion(.finished)
        #expect(finished.events == [.subscription, .finished])

        let failed = HandWrittenSubscriber<Int, TestError>(initial: .max(1))
        failed.receiveImmediateCompletion(.failure(.boom))
        #expect(failed.events == [.subscription, .failure("boom")])
    }

    @Test func aSubscriberThatCancelsOnItsSubscriptionGetsNoCompletion() {
        let subscriber = HandWrittenSubscriber<Int, TestError>(cancelOnSubscription: true)
        subscriber.receiveImmediateCompletion(.failure(.boom))
        #expect(subscriber.events == [.subscription])
    }

    @Test func requestsAndLaterCancelsOnTheSubscriptionChangeNothing() {
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .unlimited)
        subscriber.receiveImmediateCompletion(.finished)
        subscriber.request(.max(3))
        subscriber.cancel()
        subscriber.cancel()
        #expect(subscriber.events == [.subscription, .finished])
        #expect(subscriber.subscription.map { String(describing: $0) } == "Empty")  // as Combine prints it
    }
}
