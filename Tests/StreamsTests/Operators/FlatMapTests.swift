import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite struct FlatMapTests {
    @Test func flatMapOverJustsDeliversEveryValueAndFinishes() {
        let recorder = (1...5).publisher.flatMap { Just($0 * 10) }.record()
        #expect(recorder.values == [10, 20, 30, 40, 50])
        #expect(recorder.isFinished)
        #expect(recorder.subscriptionCount == 1)
    }

    @Test func flatMapInterleavesInnerValuesInArrivalOrder() {
        let upstream = PassthroughSubject<Int, Never>()
        let inners = [CombiningProbe<String, Never>(), CombiningProbe<String, Never>()]
        let recorder = upstream.flatMap { inners[$0] }.record()
        upstream.send(0)
        upstream.send(1)
        inners[0].send("a1")
        inners[1].send("b1")
        inners[0].send("a2")
        #expect(recorder.values == ["a1", "b1", "a2"])
    }

    @Test func flatMapNeverExceedsDemandAndDeliversWaitingValuesOnRequest() {
        let upstream = PassthroughSubject<Int, Never>()
        let inners = (0..<3).map { _ in CombiningProbe<Int, Never>() }
        let recorder = upstream.flatMap { inners[$0] }.record(demand: .max(2))
        for index in 0..<3 { upstream.send(index) }
        inners[0].send(1)
        inners[1].send(2)
        inners[2].send(3)  // no demand left: waits
        #expect(recorder.values == [1, 2])
        recorder.request(.max(1))
        #expect(recorder.values == [1, 2, 3])
        inners[0].send(4)  // inner 0 was asked for one more after its value was delivered
        #expect(recorder.values == [1, 2, 3])
        recorder.request(.max(5))
        #expect(recorder.values == [1, 2, 3, 4])
    }

    @Test func flatMapWithBoundedDemandAsksEachInnerForOneValueAtATime() {
        let upstream = PassthroughSubject<Int, Never>()
        let inner = CombiningProbe<Int, Never>()
        let recorder = upstream.flatMap { _ in inner }.record(demand: .max(5))
        upstream.send(0)
        #expect(inner.requests == [.max(1)])
        inner.send(1)
        #expect(inner.requests == [.max(1), .max(1)])
        #expect(recorder.values == [1])
    }

    @Test func flatMapWithUnlimitedDemandAsksInnersForUnlimited() {
        let upstream = PassthroughSubject<Int, Never>()
        let early = CombiningProbe<Int, Never>()
        let late = CombiningProbe<Int, Never>()
        let recorder = upstream.flatMap { $0 == 0 ? early : late }.record(demand: .max(1))
        upstream.send(0)
        #expect(early.requests == [.max(1)])
        recorder.request(.unlimited)
        #expect(early.requests == [.max(1), .unlimited])
        upstream.send(1)
        #expect(late.requests == [.unlimited])
        for value in 1...3 { late.send(value) }
        early.send(9)
        #expect(recorder.values == [1, 2, 3, 9])
    }

    @Test func flatMapBoundedDemandOverSynchronousInnersStopsAtTheDemand() {
        let recorder = [1, 2].publisher.flatMap { [$0, $0 * 10, $0 * 100].publisher }.record(demand: .max(4))
        #expect(recorder.values == [1, 10, 100, 2])
        #expect(recorder.completion == nil)
        recorder.request(.max(10))
        #expect(recorder.values == [1, 10, 100, 2, 20, 200])
        #expect(recorder.isFinished)
    }

    @Test func flatMapSubscribesAtMostMaxPublishersInnersAtOnce() {
        let inners = (0..<4).map { _ in CombiningProbe<Int, Never>() }
        var mostLive = 0
        let recorder = (0..<4).publisher.flatMap(maxPublishers: .max(2)) { index -> CombiningProbe<Int, Never> in
            mostLive = max(mostLive, inners.reduce(0) { $0 + $1.liveCount } + 1)
            return inners[index]
        }.record()
        #expect(inners.map(\.subscribeCount) == [1, 1, 0, 0])
        inners[1].send(completion: .finished)
        #expect(inners.map(\.subscribeCount) == [1, 1, 1, 0])
        inners[0].send(completion: .finished)
        #expect(inners.map(\.subscribeCount) == [1, 1, 1, 1])
        #expect(mostLive == 2)
        inners[2].send(completion: .finished)
        #expect(recorder.completion == nil)
        inners[3].send(completion: .finished)
        #expect(recorder.isFinished)
    }

    @Test func flatMapFinishesOnlyWhenUpstreamAndEveryInnerHaveFinished() {
        let upstream = PassthroughSubject<Int, Never>()
        let inners = [CombiningProbe<Int, Never>(), CombiningProbe<Int, Never>()]
        let recorder = upstream.flatMap { inners[$0] }.record()
        upstream.send(0)
        upstream.send(1)
        upstream.send(completion: .finished)
        inners[0].send(completion: .finished)
        #expect(recorder.completion == nil)
        inners[1].send(7)
        inners[1].send(completion: .finished)
        #expect(recorder.values == [7])
        #expect(recorder.isFinished)
    }

    @Test func flatMapFinishesAfterTheWaitingValuesAreDelivered() {
        let upstream = PassthroughSubject<Int, Never>()
        let inner = CombiningProbe<Int, Never>()
        let recorder = upstream.flatMap { _ in inner }.record(demand: .none)
        upstream.send(0)
        inner.send(1)  // waits: no demand
        inner.send(completion: .finished)
        upstream.send(completion: .finished)
        #expect(recorder.events.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1, at: .zero), .finished(at: .zero)])
    }

    @Test func flatMapInnerFailureCancelsUpstreamAndOtherInnersAndFailsOnce() {
        let upstream = CombiningProbe<Int, TestFailure>()
        let inners = [CombiningProbe<Int, TestFailure>(), CombiningProbe<Int, TestFailure>()]
        let recorder = upstream.flatMap { inners[$0] }.record()
        upstream.send(0)
        upstream.send(1)
        inners[0].send(1)
        inners[1].send(completion: .failure(.boom))
        #expect(upstream.cancelCount == 1)
        #expect(inners[0].cancelCount == 1)
        inners[0].send(2)
        inners[0].send(completion: .failure(.other))
        #expect(recorder.events == [.value(1, at: .zero), .failure(.boom, at: .zero)])
    }

    @Test func flatMapUpstreamFailureCancelsLiveInners() {
        let upstream = PassthroughSubject<Int, TestFailure>()
        let inner = CombiningProbe<Int, TestFailure>()
        let recorder = upstream.flatMap { _ in inner }.record()
        upstream.send(0)
        upstream.send(completion: .failure(.boom))
        #expect(inner.cancelCount == 1)
        inner.send(5)
        #expect(recorder.events == [.failure(.boom, at: .zero)])
    }

    @Test func flatMapFailureDropsValuesWaitingForDemand() {
        let upstream = PassthroughSubject<Int, TestFailure>()
        let inners = [CombiningProbe<Int, TestFailure>(), CombiningProbe<Int, TestFailure>()]
        let recorder = upstream.flatMap { inners[$0] }.record(demand: .none)
        upstream.send(0)
        upstream.send(1)
        inners[0].send(1)
        inners[1].send(completion: .failure(.boom))
        recorder.request(.max(1))
        #expect(recorder.events == [.failure(.boom, at: .zero)])
    }

    @Test func flatMapDeliversReentrantSendsSeriallyWithoutLosingThem() {
        let upstream = PassthroughSubject<Int, Never>()
        let inners = [PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()]
        var received: [Int] = []
        var depth = 0
        var maxDepth = 0
        let cancellable = upstream.flatMap { inners[$0] }.sink { value in
            depth += 1
            maxDepth = max(maxDepth, depth)
            received.append(value)
            if value == 1 {
                inners[1].send(2)
                inners[0].send(3)
            }
            depth -= 1
        }
        upstream.send(0)
        upstream.send(1)
        inners[0].send(1)
        #expect(received == [1, 2, 3])
        #expect(maxDepth == 1)
        cancellable.cancel()
    }

    /// An inner started from inside `receive(_:)` (a re-entrant send into the source) is served after the values
    /// already waiting, never nested ahead of them. (The differential check, seed 4242 case 19479: OpenCombine nests,
    /// delivering 109, 102, 202, and the 0 that waited is then beyond the demand.)
    @Test func anInnerStartedReentrantlyWaitsBehindTheValuesAlreadyWaiting() {
        let upstream = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var subscription: (any Subscription)?
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { given in
                subscription = given
                given.request(.max(1))
            },
            receiveValue: { value in
                received.append(value)
                if value == 109 { upstream.send(102) }
                return .none
            })
        upstream.flatMap { [$0, $0 + 100].publisher }.subscribe(subscriber)
        upstream.send(9)
        upstream.send(0)
        #expect(received == [9])
        subscription?.request(.max(3))
        #expect(received == [9, 109, 0, 102])
        subscription?.request(.unlimited)
        #expect(received == [9, 109, 0, 102, 100, 202])
        subscription?.cancel()
    }

    @Test func flatMapNeverDeliversConcurrentlyWhenInnersSendFromTwoThreadsWithBoundedDemand() {
        let inners = [PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()]
        let recorder = [0, 1].publisher.flatMap { inners[$0] }.record(demand: .max(10))
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            for value in 0..<5_000 { inners[index].send(value) }
        }
        #expect(recorder.values.count == 10)
        recorder.request(.unlimited)
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            for value in 0..<1_000 { inners[index].send(value) }
        }
        #expect(recorder.values.count >= 2_000)
        #expect(recorder.values.count <= 2_012)
    }

    @Test func flatMapReentrantRequestFromReceiveDeliversOneByOne() {
        let recorder = (1...3).publisher.flatMap { [$0, -$0].publisher }.record(
            demand: .max(1), demandPerValue: .max(1))
        #expect(recorder.values == [1, -1, 2, -2, 3, -3])
        #expect(recorder.isFinished)
    }

    @Test func flatMapCancelCancelsEverythingAndDeliversNothingMore() {
        let upstream = CombiningProbe<Int, Never>()
        let inner = CombiningProbe<Int, Never>()
        let recorder = upstream.flatMap { _ in inner }.record()
        upstream.send(0)
        inner.send(1)
        recorder.cancel()
        recorder.cancel()
        inner.send(2)
        upstream.send(1)
        inner.send(completion: .finished)
        #expect(upstream.cancelCount == 1)
        #expect(inner.cancelCount == 1)
        #expect(inner.subscribeCount == 1)
        #expect(recorder.events == [.value(1, at: .zero)])
    }

    @Test func flatMapCancelReleasesTheTransformAndTheInners() {
        final class Token {}
        let upstream = PassthroughSubject<Int, Never>()
        weak var weakToken: Token?
        weak var weakInner: PassthroughSubject<Int, Never>?
        var recorder: TestRecorder<Int, Never>?
        do {
            let token = Token()
            weakToken = token
            let inner = PassthroughSubject<Int, Never>()
            weakInner = inner
            recorder = upstream.flatMap { _ in
                _ = token
                return inner
            }.record()
            upstream.send(0)
        }
        #expect(weakToken != nil)
        recorder?.cancel()
        #expect(weakToken == nil)
        #expect(weakInner == nil)
    }

    /// A side whose source finished while being subscribed is reused for the next source; a side whose
    /// source is still live never is. Mixed synchronous and live inners must each get their own values.
    @Test func flatMapMixingFinishedAndLiveInnersKeepsEachInnersValuesApart() {
        let upstream = PassthroughSubject<Int, Never>()
        let live = (0..<3).map { _ in CombiningProbe<Int, Never>() }
        let recorder = upstream.flatMap { index -> AnyPublisher<Int, Never> in
            index.isMultiple(of: 2) ? Just(index * 100).eraseToAnyPublisher() : live[index / 2].eraseToAnyPublisher()
        }.record()
        for index in 0..<6 { upstream.send(index) }  // Justs 0, 2, 4 finish at once; 1, 3, 5 stay live
        #expect(recorder.values == [0, 200, 400])
        for (offset, inner) in live.enumerated() { inner.send(offset + 1) }
        #expect(recorder.values == [0, 200, 400, 1, 2, 3])
        upstream.send(completion: .finished)
        #expect(!recorder.isFinished)
        for inner in live { inner.send(completion: .finished) }
        #expect(recorder.isFinished)
        #expect(live.allSatisfy { $0.cancelCount == 0 })
    }

    /// A side is reused only when nothing else holds it: a source that finished but kept its subscriber
    /// (and then breaks the contract with a late value) must not reach the source that came next.
    @Test func flatMapNeverReusesASideItsFinishedSourceStillHolds() {
        final class KeepingFinisher: Publisher {
            typealias Output = Int
            typealias Failure = Never
            var kept: [AnySubscriber<Int, Never>] = []
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
                kept.append(AnySubscriber(subscriber))
            }
        }
        let upstream = PassthroughSubject<Int, Never>()
        let finisher = KeepingFinisher()
        let live = CombiningProbe<Int, Never>()
        let recorder = upstream.flatMap { index -> AnyPublisher<Int, Never> in
            index == 0 ? finisher.eraseToAnyPublisher() : live.eraseToAnyPublisher()
        }.record()
        upstream.send(0)
        upstream.send(1)
        _ = finisher.kept.first?.receive(99)  // late, from the finished source: dropped
        live.send(7)
        #expect(recorder.values == [7])
    }

    /// The engine and a side kept for reuse refer to each other; ending the subscription must break that.
    @Test func flatMapCancelFreesTheSubscriptionAfterFinishedInners() {
        final class Keeper: Subscriber {
            var subscription: (any Subscription)?
            var values: [Int] = []
            func receive(subscription: any Subscription) {
                self.subscription = subscription
                subscription.request(.unlimited)
            }
            func receive(_ input: Int) -> Subscribers.Demand {
                values.append(input)
                return .none
            }
            func receive(completion: Subscribers.Completion<Never>) {}
        }
        let upstream = PassthroughSubject<Int, Never>()
        weak var weakSubscription: AnyObject?
        do {
            let keeper = Keeper()
            upstream.flatMap { Just($0) }.subscribe(keeper)
            upstream.send(1)
            upstream.send(2)
            #expect(keeper.values == [1, 2])
            weakSubscription = keeper.subscription as AnyObject?
            #expect(weakSubscription != nil)
            keeper.subscription?.cancel()
            keeper.subscription = nil
        }
        #expect(weakSubscription == nil)
    }

    /// A side is also reused after a source that finished later, once that source has let it go: the next
    /// source is subscribed with the same side, and its values and completion still flow through it.
    @Test func flatMapReusesASideAfterAnAsynchronousSourceFinishedAndLetItGo() {
        final class Recording: Publisher {
            typealias Output = Int
            typealias Failure = Never
            let subject = PassthroughSubject<Int, Never>()
            var subscriberIDs: [ObjectIdentifier] = []
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
                subscriberIDs.append(ObjectIdentifier(subscriber as AnyObject))
                subject.receive(subscriber: subscriber)
            }
        }
        let upstream = PassthroughSubject<Int, Never>()
        let first = Recording()
        let second = Recording()
        let recorder = upstream.flatMap { $0 == 0 ? first : second }.record()
        upstream.send(0)
        first.subject.send(1)
        first.subject.send(completion: .finished)  // the subject lets its subscriber go: the side is free for reuse
        upstream.send(1)
        #expect(second.subscriberIDs == first.subscriberIDs)  // the same side
        second.subject.send(2)
        first.subject.send(99)  // finished: reaches nobody
        second.subject.send(3)
        upstream.send(completion: .finished)
        #expect(!recorder.isFinished)
        second.subject.send(completion: .finished)
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.isFinished)
    }

    /// A subscriber that cancels from inside its `receive` is still running when the cancel returns: the
    /// engine, its only owner here, releases it once that delivery has returned, not before and not never.
    @Test func flatMapCancelFromInsideReceiveReleasesTheSubscriberAfterTheDelivery() {
        final class Log { var entries: [Int] = [] }
        final class CancellingSubscriber: Subscriber {
            let log: Log
            var subscription: (any Subscription)?
            init(log: Log) { self.log = log }
            deinit { log.entries.append(Int.min) }
            func receive(subscription: any Subscription) {
                self.subscription = subscription
                subscription.request(.unlimited)
            }
            func receive(_ input: Int) -> Subscribers.Demand {
                log.entries.append(input)
                subscription?.cancel()
                subscription = nil
                log.entries.append(-input)  // still alive here, after the cancel
                return .none
            }
            func receive(completion: Subscribers.Completion<Never>) {}
        }
        let upstream = PassthroughSubject<Int, Never>()
        let inner = PassthroughSubject<Int, Never>()
        let log = Log()
        weak var weakSubscriber: CancellingSubscriber?
        var kept: (any Subscription)?  // the subscription outlives the cancel; the subscriber must not
        do {
            let subscriber = CancellingSubscriber(log: log)
            weakSubscriber = subscriber
            upstream.flatMap { _ in inner }.subscribe(subscriber)
            kept = subscriber.subscription
        }
        #expect(weakSubscriber != nil)  // the engine holds it
        upstream.send(0)
        inner.send(5)
        inner.send(6)
        #expect(log.entries == [5, -5, Int.min])
        #expect(weakSubscriber == nil)
        #expect(kept != nil)
    }

    @Test func flatMapOverManyJustsCompletesWithoutDeepRecursion() {
        var count = 0
        var finished = false
        let cancellable = (0..<100_000).publisher.flatMap { Just($0) }.sink(
            receiveCompletion: { _ in finished = true }, receiveValue: { _ in count += 1 })
        #expect(count == 100_000)
        #expect(finished)
        cancellable.cancel()
    }

    @Test func flatMapDescribesItsSubscription() {
        let recorder = PassthroughSubject<Int, Never>().flatMap { Just($0) }.record()
        #expect(recorder.subscription.map { String(describing: $0) } == "FlatMap")
    }

    @Test func whenDemandBecomesUnlimitedTheInnersAreAskedInTheOrderTheyWereCreated() {
        // Found by the differential check: the inners were widened newest first.
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = HandWrittenSubscriber<Int, Never>()
        subject.flatMap { [$0, $0 + 100].publisher }.subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        subscriber.request(.unlimited)
        #expect(
            subscriber.events == [
                .subscription, .value(1), .value(2), .value(3), .value(101), .value(102), .value(103),
            ])
    }

    // MARK: Scalar inners (`Just`), read instead of subscribed to (`FlatMapInner.receiveScalar`)

    /// One scripted run: values into the upstream, downstream requests in between, maybe a completion. The same
    /// script runs with `Just` inners (read directly when the engine is idle) and with the same `Just`s erased
    /// (always subscribed): the subscriber's events, the upstream's requests and cancels must be identical.
    private struct ScalarScript: CustomStringConvertible {
        enum Step: CustomStringConvertible {
            case send(Int)
            case request(Int)
            case finish, fail

            var description: String {
                switch self {
                case .send(let value): "send \(value)"
                case .request(let count): "request \(count)"
                case .finish: "finish"
                case .fail: "fail"
                }
            }
        }
        var maxPublishers: Subscribers.Demand
        var initial: Subscribers.Demand?
        var perValue: Subscribers.Demand
        var cancelOnValue: Int?
        var steps: [Step]

        var description: String {
            "maxPublishers \(maxPublishers), initial \(String(describing: initial)), perValue \(perValue), "
                + "cancelOnValue \(String(describing: cancelOnValue)), steps \(steps)"
        }

        /// What the subscriber and the upstream saw.
        func run<Inner: Publisher>(_ inner: @escaping (Int) -> Inner) -> String
        where Inner.Output == Int, Inner.Failure == TestFailure {
            let upstream = CombiningProbe<Int, TestFailure>()
            let subscriber = HandWrittenSubscriber<Int, TestFailure>(
                initial: initial, perValue: perValue, cancelOnValue: cancelOnValue)
            upstream.flatMap(maxPublishers: maxPublishers, inner).subscribe(subscriber)
            for step in steps {
                switch step {
                case .send(let value): upstream.send(value)
                case .request(let count): subscriber.request(.max(count))
                case .finish: upstream.send(completion: .finished)
                case .fail: upstream.send(completion: .failure(.boom))
                }
            }
            return "\(subscriber.events) | upstream requests \(upstream.requests), cancels \(upstream.cancelCount)"
        }

        /// Runs the script with `read` inners and with `subscribed` ones: `nil` if both runs saw the same, else both.
        func difference<Read: Publisher, Subscribed: Publisher>(
            _ read: @escaping (Int) -> Read, _ subscribed: @escaping (Int) -> Subscribed
        ) -> String?
        where Read.Output == Int, Read.Failure == TestFailure, Subscribed.Output == Int, Subscribed.Failure == TestFailure {
            let readRun = run(read)
            let subscribedRun = run(subscribed)
            return readRun == subscribedRun ? nil : "\(self)\n  read:       \(readRun)\n  subscribed: \(subscribedRun)"
        }

        /// A random script of up to 8 values, requests in between, and maybe a completion.
        static func random(using random: inout SeededRandom) -> ScalarScript {
            let demands: [Subscribers.Demand?] = [nil, .max(1), .max(2), .max(3), .unlimited]
            var steps: [Step] = []
            for index in 0..<Int.random(in: 1...8, using: &random) {
                steps.append(.send(index + 1))
                if Bool.random(using: &random) { steps.append(.request(Int.random(in: 1...3, using: &random))) }
            }
            switch Int.random(in: 0..<4, using: &random) {
            case 0: steps.append(.finish)
            case 1: steps.append(.fail)
            default: break
            }
            return ScalarScript(
                maxPublishers: [.unlimited, .max(1), .max(2), .max(3)].randomElement(using: &random) ?? .unlimited,
                initial: demands.randomElement(using: &random) ?? nil,
                perValue: Bool.random(using: &random) ? .none : .max(1),
                cancelOnValue: Int.random(in: 0...4, using: &random) == 0 ? nil : Int.random(in: 1...5, using: &random),
                steps: steps)
        }
    }

    @Test func justInnersAreDeliveredExactlyAsSubscribedInnersWouldBe() {
        var random = SeededRandom(state: 20_261_126)
        var differences: [String] = []
        for _ in 0..<400 {
            let script = ScalarScript.random(using: &random)
            if let difference = script.difference(
                { Just($0).setFailureType(to: TestFailure.self) },
                { Just($0).setFailureType(to: TestFailure.self).eraseToAnyPublisher() })
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
    @Test func fulfilledFutureInnersAreDeliveredExactlyAsSubscribedInnersWould() {
        var random = SeededRandom(state: 20_261_129)
        func future(_ value: Int) -> Future<Int, TestFailure> {
            Future { promise in promise(value % 5 == 4 ? .failure(.boom) : .success(value)) }
        }
        var differences: [String] = []
        for _ in 0..<400 {
            let script = ScalarScript.random(using: &random)
            if let difference = script.difference(future, { future($0).eraseToAnyPublisher() }) {
                differences.append(difference)
            }
            if let difference = script.difference(
                { value in Deferred { future(value) } }, { value in Deferred { future(value) }.eraseToAnyPublisher() })
            {
                differences.append(difference)
            }
        }
        let firstDifference = differences.first
        #expect(firstDifference == nil, "\(differences.count) scripts differ")
    }

    /// A deferred future is made once per inner, whether it is read or subscribed to.
    @Test func eachDeferredFutureIsMadeOnce() {
        let upstream = PassthroughSubject<Int, Never>()
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(1))
        let made = Locked(0)
        upstream.flatMap { value in
            Deferred {
                made.withLock { $0 += 1 }
                return Future<Int, Never> { $0(.success(value)) }
            }
        }.subscribe(subscriber)
        upstream.send(1)  // read: the downstream has demand
        upstream.send(2)  // subscribed: no demand left, it waits
        #expect(made.withLock { $0 } == 2)
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        #expect(made.withLock { $0 } == 2)
    }

    /// A future not fulfilled yet is subscribed to: its value arrives when its promise is called, and the stream
    /// finishes only after that.
    @Test func aFutureFulfilledLaterDeliversWhenItsPromiseIsCalled() {
        let upstream = PassthroughSubject<Int, Never>()
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .unlimited)
        let promises = Locked<[Future<Int, Never>.Promise]>([])
        upstream.flatMap { value in
            Future<Int, Never> { promise in promises.withLock { $0.append({ _ in promise(.success(value * 10)) }) } }
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        let kept = promises.withLock { $0 }
        kept[1](.success(0))
        kept[0](.success(0))
        #expect(subscriber.events == [.subscription, .value(20), .value(10), .finished])
    }

    @Test func aBoundedFlatMapOverJustAsksTheUpstreamForOneMorePerValue() {
        let upstream = CombiningProbe<Int, Never>()
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .unlimited)
        upstream.flatMap(maxPublishers: .max(2)) { Just($0 * 10) }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(10), .value(20), .finished])
        #expect(upstream.requests == [.max(2), .max(1), .max(1)])
    }

    @Test func aJustValueThatFindsNoDemandWaitsForIt() {
        let upstream = PassthroughSubject<Int, Never>()
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(1))
        upstream.flatMap { Just($0) }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func aCancelWhileAJustValueIsDeliveredAsksTheUpstreamForNothingMore() {
        let upstream = CombiningProbe<Int, Never>()
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .unlimited, cancelOnValue: 1)
        upstream.flatMap(maxPublishers: .max(1)) { Just($0) }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        #expect(subscriber.events == [.subscription, .value(1)])
        #expect(upstream.requests == [.max(1)])
        #expect(upstream.cancelCount == 1)
    }

    @Test func aJustValueSentFromInsideTheDownstreamWaitsForTheValueBeingDelivered() {
        let upstream = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var cancellable: AnyCancellable?
        cancellable = upstream.flatMap { Just($0) }.sink { value in
            received.append(value)
            if value == 1 { upstream.send(2) }  // re-entrant: delivered after this call returns
            received.append(-value)
        }
        upstream.send(1)
        #expect(received == [1, -1, 2, -2])
        cancellable?.cancel()
    }

    // MARK: The handshake (as in Combine: the subscription goes down before the source is subscribed)

    @Test func flatMapHandsItsSubscriptionDownBeforeSubscribingItsSource() {
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
        Deferred { () -> Just<Int> in
            log.append("source subscribed")
            return Just(1)
        }.flatMap(maxPublishers: .max(1)) { Just($0 * 10) }.subscribe(subscriber)
        #expect(log == ["subscription", "source subscribed", "value 10", "finished"])
    }

    @Test func flatMapCancelledInsideReceiveSubscriptionNeverSubscribesItsSource() {
        var subscriptions = 0
        var completions = 0
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { $0.cancel() }, receiveValue: { _ in .none },
            receiveCompletion: { _ in completions += 1 })
        Deferred { () -> Just<Int> in
            subscriptions += 1
            return Just(1)
        }.flatMap { Just($0) }.subscribe(subscriber)
        #expect(subscriptions == 0)
        #expect(completions == 0)
    }

    @Test func flatMapOverAnEmptySourceFinishesAfterHandingItsSubscriptionDown() {
        var log: [String] = []
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { _ in log.append("subscription") }, receiveValue: { _ in .none },
            receiveCompletion: { _ in log.append("finished") })
        Empty<Int, Never>().flatMap { Just($0) }.subscribe(subscriber)
        #expect(log == ["subscription", "finished"])
    }

    @Test func flatMapAsksItsSourceForMaxPublishersWhateverTheSubscriberAskedDuringTheHandshake() {
        let source = PassthroughSubject<Int, Never>()
        var requested: [Subscribers.Demand] = []
        let recorder = TestRecorder<Int, Never>(demand: .max(3))
        source.handleEvents(receiveRequest: { requested.append($0) })
            .flatMap(maxPublishers: .max(2)) { Just($0) }.subscribe(recorder)
        #expect(requested == [.max(2)])
        source.send(4)
        #expect(recorder.values == [4])
        #expect(requested == [.max(2), .max(1)])
    }
}
