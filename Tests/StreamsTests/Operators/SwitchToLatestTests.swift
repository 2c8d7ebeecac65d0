import Streams
import StreamsTesting
import Testing

@Suite struct SwitchToLatestTests {
    typealias Inner = CombiningProbe<Int, TestFailure>

    @Test func switchToLatestCancelsThePreviousInnerAndIgnoresItsLaterValues() {
        let outer = PassthroughSubject<Inner, TestFailure>()
        let first = Inner()
        let second = Inner()
        let recorder = outer.switchToLatest().record()
        outer.send(first)
        first.send(1)
        outer.send(second)
        #expect(first.cancelCount == 1)
        first.send(2)
        second.send(3)
        #expect(recorder.values == [1, 3])
        #expect(second.cancelCount == 0)
    }

    @Test func switchToLatestCarriesOutstandingDemandToTheNewInner() {
        let outer = PassthroughSubject<Inner, TestFailure>()
        let first = Inner()
        let second = Inner()
        let recorder = outer.switchToLatest().record(demand: .max(3))
        outer.send(first)
        #expect(first.requests == [.max(3)])
        first.send(1)
        outer.send(second)
        #expect(second.requests == [.max(2)])
        second.send(2)
        second.send(3)
        second.send(4)  // beyond the demand: dropped by the subject, never delivered
        #expect(recorder.values == [1, 2, 3])
        recorder.request(.max(1))
        #expect(second.requests == [.max(2), .max(1)])
        second.send(5)
        #expect(recorder.values == [1, 2, 3, 5])
    }

    @Test func switchToLatestAsksTheOuterForUnlimited() {
        let outer = CombiningProbe<Inner, TestFailure>()
        _ = outer.switchToLatest().record(demand: .max(1))
        #expect(outer.requests == [.unlimited])
    }

    @Test func switchToLatestFinishesWhenOuterAndCurrentInnerHaveFinished() {
        let outer = PassthroughSubject<Inner, TestFailure>()
        let first = Inner()
        let second = Inner()
        let recorder = outer.switchToLatest().record()
        outer.send(first)
        outer.send(second)
        outer.send(completion: .finished)
        first.send(completion: .finished)  // cancelled already: does not count
        #expect(recorder.completion == nil)
        second.send(7)
        second.send(completion: .finished)
        #expect(recorder.events == [.value(7, at: .zero), .finished(at: .zero)])
    }

    @Test func switchToLatestInnerFinishingBeforeOuterWaitsForOuter() {
        let outer = PassthroughSubject<Inner, TestFailure>()
        let inner = Inner()
        let recorder = outer.switchToLatest().record()
        outer.send(inner)
        inner.send(completion: .finished)
        #expect(recorder.completion == nil)
        outer.send(completion: .finished)
        #expect(recorder.isFinished)
    }

    @Test func switchToLatestFinishesAtOnceWhenOuterFinishesWithoutInner() {
        let outer = PassthroughSubject<Inner, TestFailure>()
        let recorder = outer.switchToLatest().record()
        outer.send(completion: .finished)
        #expect(recorder.isFinished)
    }

    @Test func switchToLatestInnerFailureCancelsTheOuter() {
        let outer = CombiningProbe<Inner, TestFailure>()
        let inner = Inner()
        let recorder = outer.switchToLatest().record()
        outer.send(inner)
        inner.send(completion: .failure(.boom))
        #expect(outer.cancelCount == 1)
        outer.send(Inner())
        #expect(recorder.events == [.failure(.boom, at: .zero)])
    }

    @Test func switchToLatestOuterFailureCancelsTheInner() {
        let outer = PassthroughSubject<Inner, TestFailure>()
        let inner = Inner()
        let recorder = outer.switchToLatest().record()
        outer.send(inner)
        outer.send(completion: .failure(.boom))
        #expect(inner.cancelCount == 1)
        inner.send(1)
        #expect(recorder.events == [.failure(.boom, at: .zero)])
    }

    @Test func switchToLatestNeverDeliversAStaleValueQueuedBeforeASwitch() {
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let cancellable = outer.switchToLatest().sink { value in
            received.append(value)
            if value == 1 {
                first.send(2)  // queued behind this delivery...
                outer.send(second)  // ...then made stale by the switch
                second.send(3)
            }
        }
        outer.send(first)
        first.send(1)
        #expect(received == [1, 3])
        cancellable.cancel()
    }

    @Test func switchToLatestSwitchingFromInsideReceiveForwardsTheReturnedDemandToTheNewInner() {
        let outer = PassthroughSubject<Inner, TestFailure>()
        let first = Inner()
        let second = Inner()
        var received: [Int] = []
        outer.switchToLatest().subscribe(
            AnySubscriber(
                receiveSubscription: { $0.request(.max(1)) },
                receiveValue: { value in
                    received.append(value)
                    if value == 1 { outer.send(second) }
                    return .max(1)
                }))
        outer.send(first)
        first.send(1)
        #expect(first.cancelCount == 1)
        #expect(second.requests == [.max(1)])  // nothing outstanding at the switch, then the returned 1
        first.send(9)
        second.send(2)
        #expect(received == [1, 2])
    }

    @Test func switchToLatestCancelCancelsOuterAndInnerAndDeliversNothingMore() {
        let outer = CombiningProbe<Inner, TestFailure>()
        let inner = Inner()
        let recorder = outer.switchToLatest().record()
        outer.send(inner)
        inner.send(1)
        recorder.cancel()
        recorder.cancel()
        inner.send(2)
        outer.send(Inner())
        #expect(outer.cancelCount == 1)
        #expect(inner.cancelCount == 1)
        #expect(recorder.events == [.value(1, at: .zero)])
    }

    @Test func switchToLatestCancelReleasesItsSubscriptionHeldByTheInner() {
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let inner = PassthroughSubject<Int, Never>()
        let recorder = outer.switchToLatest().record()
        outer.send(inner)
        weak let weakSubscription = recorder.subscription.map { $0 as AnyObject }
        #expect(weakSubscription != nil)
        recorder.cancel()
        #expect(weakSubscription == nil)  // neither the outer nor the inner subject still holds it
        inner.send(1)
        #expect(recorder.values.isEmpty)
    }

    @Test func switchToLatestOfMappedRequestsKeepsOnlyTheLatest() {
        let queries = PassthroughSubject<String, Never>()
        let responses = ["a": PassthroughSubject<String, Never>(), "ab": PassthroughSubject<String, Never>()]
        let recorder = queries.map { responses[$0] ?? PassthroughSubject() }.switchToLatest().record()
        queries.send("a")
        queries.send("ab")
        responses["a"]?.send("result a")
        responses["ab"]?.send("result ab")
        #expect(recorder.values == ["result ab"])
    }

    @Test func switchToLatestForwardsEachLaterRequestToTheCurrentInnerAsIs() {
        let outer = PassthroughSubject<Inner, TestFailure>()
        let inner = Inner()
        let recorder = outer.switchToLatest().record(demand: .max(1))
        outer.send(inner)
        recorder.request(.max(5))
        recorder.request(.unlimited)
        #expect(inner.requests == [.max(1), .max(5), .unlimited])  // never split into single requests
    }

    @Test func switchToLatestAsksANewInnerForNothingWhileNoDemandIsOutstanding() {
        let outer = PassthroughSubject<Inner, TestFailure>()
        let first = Inner()
        let second = Inner()
        let recorder = outer.switchToLatest().record(demand: .max(1))
        outer.send(first)
        first.send(1)
        outer.send(second)
        #expect(second.requests.isEmpty)
        recorder.request(.max(2))
        #expect(second.requests == [.max(2)])
        second.send(2)
        #expect(recorder.values == [1, 2])
    }

    @Test func switchToLatestOverSynchronousInnersDeliversWithinDemandAndFinishesAfterTheLast() {
        let outer = PassthroughSubject<Just<Int>, Never>()
        let recorder = outer.switchToLatest().record(demand: .max(2))
        outer.send(Just(1))
        outer.send(Just(2))
        outer.send(Just(3))  // no demand left: waits
        #expect(recorder.values == [1, 2])
        recorder.request(.max(1))
        #expect(recorder.values == [1, 2, 3])
        outer.send(Just(4))  // no demand left, then replaced before any came
        outer.send(Just(5))
        outer.send(completion: .finished)
        #expect(recorder.completion == nil)
        recorder.request(.max(1))
        #expect(recorder.values == [1, 2, 3, 5])
        #expect(recorder.completion == .finished)
    }

    @Test func switchToLatestOverManySynchronousInnersWithUnlimitedDemandDeliversEveryValue() {
        let outer = PassthroughSubject<Just<Int>, Never>()
        let recorder = outer.switchToLatest().record()
        for value in 0..<100 { outer.send(Just(value)) }
        outer.send(completion: .finished)
        #expect(recorder.values == Array(0..<100))
        #expect(recorder.completion == .finished)
    }

    @Test func switchToLatestFailureOfAReplacedInnerIsIgnored() {
        let outer = PassthroughSubject<Inner, TestFailure>()
        let first = Inner()
        let second = Inner()
        let recorder = outer.switchToLatest().record()
        outer.send(first)
        outer.send(second)
        first.send(completion: .failure(.boom))
        second.send(1)
        #expect(recorder.values == [1])
        #expect(recorder.completion == nil)
    }

    // MARK: Scalar inners (`Just`, a `Result`'s publisher), read instead of subscribed to (`SwitchInner.receiveScalar`)

    /// One scripted run: inners into the outer (a value, or with `nil` a failed inner), downstream requests in
    /// between, maybe a completion of the outer. The same script runs with scalar inners (read directly when the
    /// engine is idle) and with the same inners erased (always subscribed): the subscriber's events, the outer's
    /// requests and cancels must be identical.
    private struct ScalarScript: CustomStringConvertible {
        enum Step: CustomStringConvertible {
            case send(Int?)
            case request(Int)
            case finish, fail

            var description: String {
                switch self {
                case .send(let value?): "send \(value)"
                case .send(nil): "send a failed inner"
                case .request(let count): "request \(count)"
                case .finish: "finish"
                case .fail: "fail"
                }
            }
        }
        var initial: Subscribers.Demand?
        var perValue: Subscribers.Demand
        var cancelOnValue: Int?
        var steps: [Step]

        var description: String {
            "initial \(String(describing: initial)), perValue \(perValue), "
                + "cancelOnValue \(String(describing: cancelOnValue)), steps \(steps)"
        }

        /// What the subscriber and the outer saw.
        func run<Inner: Publisher>(_ inner: @escaping (Int?) -> Inner) -> String
        where Inner.Output == Int, Inner.Failure == TestFailure {
            let outer = CombiningProbe<Inner, TestFailure>()
            let subscriber = HandWrittenSubscriber<Int, TestFailure>(
                initial: initial, perValue: perValue, cancelOnValue: cancelOnValue)
            outer.switchToLatest().subscribe(subscriber)
            for step in steps {
                switch step {
                case .send(let value): outer.send(inner(value))
                case .request(let count): subscriber.request(.max(count))
                case .finish: outer.send(completion: .finished)
                case .fail: outer.send(completion: .failure(.boom))
                }
            }
            return "\(subscriber.events) | outer requests \(outer.requests), cancels \(outer.cancelCount)"
        }

        /// Runs the script with `read` inners and with `subscribed` ones: `nil` if both runs saw the same, else both.
        func difference<Read: Publisher, Subscribed: Publisher>(
            _ read: @escaping (Int?) -> Read, _ subscribed: @escaping (Int?) -> Subscribed
        ) -> String?
        where Read.Output == Int, Read.Failure == TestFailure, Subscribed.Output == Int, Subscribed.Failure == TestFailure {
            let readRun = run(read)
            let subscribedRun = run(subscribed)
            return readRun == subscribedRun ? nil : "\(self)\n  read:       \(readRun)\n  subscribed: \(subscribedRun)"
        }

        static func random(using random: inout SeededRandom, failedInners: Bool) -> ScalarScript {
            let demands: [Subscribers.Demand?] = [nil, .max(1), .max(2), .max(3), .unlimited]
            var steps: [Step] = []
            for index in 0..<Int.random(in: 1...8, using: &random) {
                let fails = failedInners && Int.random(in: 0..<5, using: &random) == 0
                steps.append(.send(fails ? nil : index + 1))
                if Bool.random(using: &random) { steps.append(.request(Int.random(in: 1...3, using: &random))) }
            }
            switch Int.random(in: 0..<4, using: &random) {
            case 0: steps.append(.finish)
            case 1: steps.append(.fail)
            default: break
            }
            return ScalarScript(
                initial: demands.randomElement(using: &random) ?? nil,
                perValue: Bool.random(using: &random) ? .none : .max(1),
                cancelOnValue: Int.random(in: 0...4, using: &random) == 0 ? nil : Int.random(in: 1...5, using: &random),
                steps: steps)
        }
    }

    @Test func justInnersAreSwitchedToExactlyAsSubscribedInnersWouldBe() {
        var random = SeededRandom(state: 20_261_128)
        var differences: [String] = []
        for _ in 0..<400 {
            let script = ScalarScript.random(using: &random, failedInners: false)
            if let difference = script.difference(
                { Just($0 ?? 0).setFailureType(to: TestFailure.self) },
                { Just($0 ?? 0).setFailureType(to: TestFailure.self).eraseToAnyPublisher() })
            {
                differences.append(difference)
            }
        }
        let firstDifference = differences.first
        #expect(firstDifference == nil, "\(differences.count) of 400 scripts differ")
    }

    /// A future fulfilled inside its closure is read, not subscribed to (see `ScalarPublisherKind`), and so is the
    /// one a `Deferred` makes: the subscriber sees what subscribing would have given it, successes and failures alike,
    /// in every script.
    @Test func fulfilledFutureInnersAreSwitchedToExactlyAsSubscribedInnersWould() {
        var random = SeededRandom(state: 20_261_130)
        func inner(_ value: Int?) -> Future<Int, TestFailure> {
            Future { promise in promise(value.map { .success($0) } ?? .failure(.boom)) }
        }
        var differences: [String] = []
        for _ in 0..<400 {
            let script = ScalarScript.random(using: &random, failedInners: true)
            if let difference = script.difference(inner, { inner($0).eraseToAnyPublisher() }) {
                differences.append(difference)
            }
            if let difference = script.difference(
                { value in Deferred { inner(value) } }, { value in Deferred { inner(value) }.eraseToAnyPublisher() })
            {
                differences.append(difference)
            }
        }
        let firstDifference = differences.first
        #expect(firstDifference == nil, "\(differences.count) scripts differ")
    }

    @Test func resultInnersAreSwitchedToExactlyAsSubscribedInnersWouldBe() {
        var random = SeededRandom(state: 20_261_129)
        func inner(_ value: Int?) -> Result<Int, TestFailure>.Publisher {
            Result<Int, TestFailure>.Publisher(value.map { .success($0) } ?? .failure(.boom))
        }
        var differences: [String] = []
        for _ in 0..<400 {
            let script = ScalarScript.random(using: &random, failedInners: true)
            if let difference = script.difference(inner, { inner($0).eraseToAnyPublisher() }) {
                differences.append(difference)
            }
        }
        let firstDifference = differences.first
        #expect(firstDifference == nil, "\(differences.count) of 400 scripts differ")
    }

    @Test func aJustInnerSentFromInsideTheDownstreamWaitsForTheValueBeingDelivered() {
        let outer = PassthroughSubject<Just<Int>, Never>()
        var received: [Int] = []
        var cancellable: AnyCancellable?
        cancellable = outer.switchToLatest().sink { value in
            received.append(value)
            if value == 1 { outer.send(Just(2)) }  // re-entrant: delivered after this call returns
            received.append(-value)
        }
        outer.send(Just(1))
        #expect(received == [1, -1, 2, -2])
        cancellable?.cancel()
    }

    @Test func theDemandADeliveredJustValueReturnsCarriesOverToTheNextInner() {
        let outer = PassthroughSubject<Just<Int>, Never>()
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(1), perValue: .max(1))
        outer.switchToLatest().subscribe(subscriber)
        for value in 1...3 { outer.send(Just(value)) }
        outer.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }

    // MARK: The handshake (as in Combine: the subscription goes down before the source is subscribed)

    @Test func switchToLatestHandsItsSubscriptionDownBeforeSubscribingItsSource() {
        var log: [String] = []
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: {
                log.append("subscription")
                $0.request(.unlimited)
            },
            receiveValue: {
                log.append("value \($0)")
                return .none
            },
            receiveCompletion: { _ in log.append("finished") })
        Deferred { () -> Just<Just<Int>> in
            log.append("source subscribed")
            return Just(Just(7))
        }.switchToLatest().subscribe(subscriber)
        #expect(log == ["subscription", "source subscribed", "value 7", "finished"])
    }

    @Test func switchToLatestCancelledInsideReceiveSubscriptionNeverSubscribesItsSource() {
        var subscriptions = 0
        var completions = 0
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { $0.cancel() }, receiveValue: { _ in .none },
            receiveCompletion: { _ in completions += 1 })
        Deferred { () -> Just<Just<Int>> in
            subscriptions += 1
            return Just(Just(1))
        }.switchToLatest().subscribe(subscriber)
        #expect(subscriptions == 0)
        #expect(completions == 0)
    }

    @Test func switchToLatestOverAFailedSourceFailsAfterHandingItsSubscriptionDown() {
        struct Boom: Error, Equatable {}
        var log: [String] = []
        let subscriber = AnySubscriber<Int, Boom>(
            receiveSubscription: { _ in log.append("subscription") }, receiveValue: { _ in .none },
            receiveCompletion: { log.append($0 == .failure(Boom()) ? "failure" : "finished") })
        Fail<Just<Int>, Boom>(error: Boom()).map { $0.setFailureType(to: Boom.self) }.switchToLatest()
            .subscribe(subscriber)
        #expect(log == ["subscription", "failure"])
    }
}
