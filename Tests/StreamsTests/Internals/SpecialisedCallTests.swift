import Testing

@testable import Streams

/// `SpecialisedSubscription` (Sources/Streams/Internals/SpecialisedCall.swift): a class writes `requestNow(_:)` and
/// `cancelNow()`, keeps the closure `SpecialisedCall.forwarding()` makes, and gets `request(_:)` and `cancel()`, which
/// reach those two bodies unchanged, also when called through `any Subscription` (how every request arrives).
@Suite struct SpecialisedCallTests {
    /// Logs the calls its bodies get.
    final class LoggingSubscription<Value>: Subscription, SpecialisedSubscription, @unchecked Sendable {
        let specialised: (LoggingSubscription, SpecialisedCall) -> Void
        var calls: [String] = []
        init() { specialised = SpecialisedCall.forwarding() }
        func requestNow(_ demand: Subscribers.Demand) { calls.append("request \(demand)") }
        func cancelNow() { calls.append("cancel") }
    }

    @Test func requestAndCancelReachTheClassesOwnBodies() {
        let subscription = LoggingSubscription<String>()
        subscription.request(.max(2))
        subscription.cancel()
        #expect(subscription.calls == ["request max(2)", "cancel"])
    }

    @Test func callsThroughAnExistentialReachTheSameBodiesInOrder() {
        let subscription = LoggingSubscription<[Int]>()
        let erased: any Subscription = subscription
        erased.request(.unlimited)
        erased.request(.max(1))
        erased.cancel()
        #expect(subscription.calls == ["request unlimited", "request max(1)", "cancel"])
    }
}
