import StreamsTesting
import Testing

@testable import Streams

/// `ResubscribingSubscription` (Sources/Streams/Internals/ResubscribingSubscription.swift), one downstream
/// subscription across attempts, checked through the retry family built on it: `retry(_:)`, `retry(maxRetries:
/// backoff:scheduler:)` and `retry(when:)`. Demand still outstanding carries over to each new attempt; events from an
/// attempt that failed go nowhere; a cancel reaches the live attempt and starts no other; and re-subscribing is a loop,
/// so a source that fails synchronously as often as allowed never deepens the stack.
@Suite struct ResubscribingSubscriptionTests {
    enum Retrying: String, CaseIterable, CustomTestStringConvertible {
        case count, backoff, when
        var testDescription: String { rawValue }

        /// `source` retried (three times at most where the operator counts), and how to let a pending retry run.
        func pipeline(_ source: some Publisher<Int, ProbeError>, on scheduler: TestScheduler)
            -> AnyPublisher<Int, ProbeError>
        {
            switch self {
            case .count: source.retry(3).eraseToAnyPublisher()
            case .backoff:
                source.retry(maxRetries: 3, backoff: .constant(.milliseconds(10)), scheduler: scheduler)
                    .eraseToAnyPublisher()
            case .when: source.retry(when: { failures in failures.prefix(3) }).eraseToAnyPublisher()
            }
        }

        /// A subscriber asking `.unlimited`, whose first attempt failed and whose second one is live.
        func atTheSecondAttempt() -> (TestScheduler, Attempts, HandWrittenSubscriber<Int, ProbeError>) {
            let scheduler = TestScheduler()
            let attempts = Attempts()
            let subscriber = HandWrittenSubscriber<Int, ProbeError>(initial: .unlimited)
            pipeline(attempts.publisher, on: scheduler).subscribe(subscriber)
            attempts.probes[0].send(completion: .failure(.boom))
            scheduler.advance(by: .milliseconds(10))
            return (scheduler, attempts, subscriber)
        }
    }

    /// A fresh sloppy probe per subscription (each attempt), kept so a test can drive old and new ones.
    final class Attempts: @unchecked Sendable {
        var probes: [SimpleProbe<Int, ProbeError>] = []
        var publisher: Deferred<SimpleProbe<Int, ProbeError>> {
            Deferred { [self] in
                let probe = SimpleProbe<Int, ProbeError>()
                probes.append(probe)
                return probe
            }
        }
    }

    @Test(arguments: Retrying.allCases)
    func demandStillOutstandingCarriesOverToTheNextAttempt(retrying: Retrying) {
        let scheduler = TestScheduler()
        let attempts = Attempts()
        let subscriber = HandWrittenSubscriber<Int, ProbeError>(initial: .max(3))
        retrying.pipeline(attempts.publisher, on: scheduler).subscribe(subscriber)
        #expect(attempts.probes.first?.requested == .max(3))
        attempts.probes[0].send(1)
        attempts.probes[0].send(completion: .failure(.boom))
        scheduler.advance(by: .milliseconds(10))
        #expect(attempts.probes.count == 2)
        #expect(attempts.probes.last?.requested == .max(2))
        attempts.probes[1].send(2)
        attempts.probes[1].send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test(arguments: Retrying.allCases)
    func eventsFromAFailedAttemptGoNowhere(retrying: Retrying) {
        let (_, attempts, subscriber) = retrying.atTheSecondAttempt()
        attempts.probes[0].send(7)  // the failed attempt keeps sending, as a sloppy publisher might
        attempts.probes[0].send(completion: .finished)
        attempts.probes[1].send(8)
        #expect(subscriber.events == [.subscription, .value(8)])
    }

    @Test(arguments: Retrying.allCases)
    func aCancelReachesTheLiveAttemptAndStartsNoOther(retrying: Retrying) {
        let (scheduler, attempts, subscriber) = retrying.atTheSecondAttempt()
        subscriber.cancel()
        #expect(attempts.probes[1].cancelCount == 1)
        attempts.probes[1].send(completion: .failure(.boom))
        scheduler.advance(by: .seconds(1))
        #expect(attempts.probes.count == 2)
        #expect(subscriber.events == [.subscription])
    }

    @Test func aSourceFailingSynchronouslyEveryTimeIsRetriedInALoop() {
        var subscriptions = 0
        let failing = Deferred {
            subscriptions += 1
            return Fail<Int, ProbeError>(error: .boom)
        }
        let subscriber = HandWrittenSubscriber<Int, ProbeError>(initial: .unlimited)
        failing.retry(100_000).subscribe(subscriber)  // nested, 100,000 attempts would overflow the stack
        #expect(subscriptions == 100_001)
        #expect(subscriber.events == [.subscription, .failure("boom")])
    }
}
