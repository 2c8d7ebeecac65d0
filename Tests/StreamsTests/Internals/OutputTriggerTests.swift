import Testing

@testable import Streams

/// `TriggeredStageCore` (Sources/Streams/Internals/OutputTrigger.swift), the subscription of the two stages that watch
/// a second publisher, checked through both: `prefix(untilOutputFrom:)` and `drop(untilOutputFrom:)`. A cancel reaches
/// the upstream and the trigger, and nothing arrives after it, whatever either of them still sends; a cancel from
/// inside a delivery or from inside `receive(subscription:)` is final too. What the trigger's value does to each stage
/// is in the operators' own test files.
@Suite struct OutputTriggerTests {
    enum Role: String, CaseIterable, CustomTestStringConvertible {
        case prefix, drop
        var testDescription: String { "\(rawValue)(untilOutputFrom:)" }

        func pipeline(_ upstream: SimpleProbe<Int, ProbeError>, _ trigger: SimpleProbe<Int, ProbeError>)
            -> AnyPublisher<Int, ProbeError>
        {
            switch self {
            case .prefix: upstream.prefix(untilOutputFrom: trigger).eraseToAnyPublisher()
            case .drop: upstream.drop(untilOutputFrom: trigger).eraseToAnyPublisher()
            }
        }

        /// Makes values pass: nothing for `prefix`, the trigger's value for `drop`.
        func open(_ trigger: SimpleProbe<Int, ProbeError>) {
            if self == .drop { trigger.send(0) }
        }
    }

    @Test(arguments: Role.allCases)
    func cancelReachesTheUpstreamAndTheTriggerAndNothingArrivesAfter(role: Role) {
        let upstream = SimpleProbe<Int, ProbeError>()  // both keep their subscriber, as sloppy publishers might
        let trigger = SimpleProbe<Int, ProbeError>()
        let subscriber = HandWrittenSubscriber<Int, ProbeError>(initial: .unlimited)
        role.pipeline(upstream, trigger).subscribe(subscriber)
        role.open(trigger)
        upstream.send(1)
        subscriber.cancel()
        #expect(upstream.cancelCount == 1)
        #expect(trigger.cancelCount == (role == .prefix ? 1 : 0))  // `drop` let go of its trigger when it fired
        trigger.send(0)
        trigger.send(completion: .finished)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test(arguments: Role.allCases)
    func aCancelFromInsideADeliveryIsFinal(role: Role) {
        let upstream = SimpleProbe<Int, ProbeError>()
        let trigger = SimpleProbe<Int, ProbeError>()
        let subscriber = HandWrittenSubscriber<Int, ProbeError>(initial: .unlimited, cancelOnValue: 1)
        role.pipeline(upstream, trigger).subscribe(subscriber)
        role.open(trigger)
        upstream.send(1)
        trigger.send(0)  // `prefix` would finish here
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test(arguments: Role.allCases)
    func aSubscriberThatCancelsOnItsSubscriptionGetsNothingAndLeavesNothingRunning(role: Role) {
        let upstream = SimpleProbe<Int, ProbeError>()
        let trigger = SimpleProbe<Int, ProbeError>()
        let subscriber = HandWrittenSubscriber<Int, ProbeError>(cancelOnSubscription: true)
        role.pipeline(upstream, trigger).subscribe(subscriber)
        trigger.send(0)
        upstream.send(1)
        #expect(subscriber.events == [.subscription])
        #expect(upstream.cancelCount == 1)  // subscribed (as in Combine) and cancelled at once
        #expect(trigger.cancelCount == trigger.subscriptionCount)
    }
}
