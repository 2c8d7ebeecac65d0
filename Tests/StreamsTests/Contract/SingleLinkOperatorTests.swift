import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// The contract of the stages, the one-upstream operators whose per-value work takes no lock (see
/// `StageLink`): a second subscription is refused, a cancel from inside a delivery stops the operator even
/// when a sloppy upstream keeps sending, the closure is released once a well-behaved upstream lets go of
/// its subscriber (at the cancel or the completion), later calls are no-ops, and a cancel from another
/// thread is safe while values flow (thread-sanitizer run in `.ci/run`).
@Suite struct SingleLinkOperatorTests {
    enum Operator: String, CaseIterable, Sendable {
        case scan
        case removeDuplicates
        case handleEvents
        case prefix
        case dropFirst
        case prefixWhile

        /// The operator on `upstream`, with a closure that keeps `token` alive. Every value is distinct
        /// and increasing, so both operators pass each one on (`scan` as a running maximum).
        func apply<P: Publisher>(to upstream: P, keeping token: LifetimeToken) -> AnyPublisher<Int, P.Failure>
        where P.Output == Int {
            switch self {
            case .scan:
                upstream.scan(Int.min) { last, value in withExtendedLifetime(token) { max(last, value) } }
                    .eraseToAnyPublisher()
            case .removeDuplicates:
                upstream.removeDuplicates { a, b in withExtendedLifetime(token) { a == b } }.eraseToAnyPublisher()
            case .handleEvents:
                upstream.handleEvents(receiveOutput: { _ in withExtendedLifetime(token) {} }).eraseToAnyPublisher()
            case .prefix:
                upstream.prefix(1_000_000).handleEvents(receiveOutput: { _ in withExtendedLifetime(token) {} })
                    .eraseToAnyPublisher()
            case .dropFirst:
                upstream.dropFirst(0).handleEvents(receiveOutput: { _ in withExtendedLifetime(token) {} })
                    .eraseToAnyPublisher()
            case .prefixWhile:
                upstream.prefix { _ in withExtendedLifetime(token) { true } }.eraseToAnyPublisher()
            }
        }
    }

    /// Cancels its subscription from inside `receive(_:)` when it gets `cancelAt`.
    final class CancellingSubscriber: Subscriber, @unchecked Sendable {
        let cancelAt: Int
        var subscription: (any Subscription)?
        var values: [Int] = []
        var completions = 0
        init(cancelAt: Int) { self.cancelAt = cancelAt }
        func receive(subscription: any Subscription) {
            self.subscription = subscription
            subscription.request(.unlimited)
        }
        func receive(_ input: Int) -> Subscribers.Demand {
            values.append(input)
            if input == cancelAt { subscription?.cancel() }
            return .none
        }
        func receive(completion: Subscribers.Completion<Never>) { completions += 1 }
    }

    /// Hands its subscriber two subscriptions, then sends values through it.
    final class TwoSubscriptionPublisher: Publisher, @unchecked Sendable {
        typealias Output = Int
        typealias Failure = Never
        let first = CountingSubscription()
        let second = CountingSubscription()
        var subscriber: AnySubscriber<Int, Never>?
        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
            self.subscriber = AnySubscriber(subscriber)
            subscriber.receive(subscription: first)
            subscriber.receive(subscription: second)
        }
    }

    final class CountingSubscription: Subscription, @unchecked Sendable {
        var requests: [Subscribers.Demand] = []
        var cancels = 0
        func request(_ demand: Subscribers.Demand) { requests.append(demand) }
        func cancel() { cancels += 1 }
    }

    @Test(arguments: Operator.allCases)
    func aCancelFromInsideADeliveryStopsItEvenWhenTheUpstreamKeepsSending(_ operator: Operator) {
        let probe = SimpleProbe<Int, Never>()  // sloppy: keeps its subscriber and sends after the cancel
        let subscriber = CancellingSubscriber(cancelAt: 2)
        `operator`.apply(to: probe, keeping: LifetimeToken()).subscribe(subscriber)
        probe.send(1)
        probe.send(2)  // the subscriber cancels while the operator delivers this value
        #expect(probe.cancelCount == 1)
        probe.send(3)
        probe.send(completion: .finished)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completions == 0)
        subscriber.subscription?.cancel()
        #expect(probe.cancelCount == 1)
    }

    @Test(arguments: Operator.allCases)
    func aCancelFromInsideADeliveryReleasesTheClosureOnceTheUpstreamLetsGo(_ operator: Operator) {
        let probe = SimpleProbe<Int, Never>(keepsSubscriber: false)
        let subscriber = CancellingSubscriber(cancelAt: 2)
        weak var weakToken: LifetimeToken?
        do {
            let token = LifetimeToken()
            weakToken = token
            `operator`.apply(to: probe, keeping: token).subscribe(subscriber)
        }
        probe.send(1)
        #expect(weakToken != nil)
        probe.send(2)  // the subscriber cancels while the operator delivers this value
        #expect(probe.cancelCount == 1)
        #expect(weakToken == nil)
        #expect(subscriber.values == [1, 2])
    }

    @Test(arguments: Operator.allCases)
    func aSecondSubscriptionIsCancelledAndTheFirstOneServes(_ operator: Operator) {
        let upstream = TwoSubscriptionPublisher()
        let recorder = `operator`.apply(to: upstream, keeping: LifetimeToken()).record(demand: .max(2))
        #expect(upstream.second.cancels == 1)
        #expect(upstream.second.requests.isEmpty)
        #expect(upstream.first.requests == [.max(2)])
        _ = upstream.subscriber?.receive(1)
        #expect(recorder.values == [1])
        recorder.request(.max(3))
        #expect(upstream.first.requests == [.max(2), .max(3)])
        recorder.cancel()
        #expect(upstream.first.cancels == 1)
        #expect(upstream.second.cancels == 1)
    }

    @Test(arguments: Operator.allCases)
    func aCompletionIsFinalEvenWhenTheUpstreamKeepsSending(_ operator: Operator) {
        let probe = SimpleProbe<Int, ProbeError>()  // sloppy: keeps its subscriber and sends after the end
        let recorder = `operator`.apply(to: probe, keeping: LifetimeToken()).record(demand: .max(1))
        probe.send(5)
        probe.send(completion: .failure(.boom))
        #expect(recorder.values == [5])
        #expect(recorder.completion == .failure(.boom))
        probe.send(6)
        probe.send(completion: .finished)
        recorder.request(.max(1))
        recorder.cancel()
        #expect(probe.requests == [.max(1)])
        #expect(probe.cancelCount == 0)
        #expect(recorder.values == [5])
        #expect(recorder.completion == .failure(.boom))
    }

    @Test(arguments: Operator.allCases)
    func aCompletionReleasesTheClosureOnceTheUpstreamLetsGo(_ operator: Operator) {
        let probe = SimpleProbe<Int, ProbeError>(keepsSubscriber: false)
        weak var weakToken: LifetimeToken?
        let recorder: TestRecorder<Int, ProbeError>
        do {
            let token = LifetimeToken()
            weakToken = token
            recorder = `operator`.apply(to: probe, keeping: token).record(demand: .max(1))
        }
        probe.send(5)
        probe.send(completion: .failure(.boom))
        #expect(weakToken == nil)
        #expect(recorder.values == [5])
    }

    @Test(arguments: Operator.allCases)
    func aCancelFromAnotherThreadWhileValuesFlowIsSafeAndFinal(_ operator: Operator) {
        for _ in 0..<40 {
            let subject = PassthroughSubject<Int, Never>()
            let counter = ConcurrencyStressTests.UnsynchronizedCounter()
            weak var weakToken: LifetimeToken?
            let cancellable: AnyCancellable
            do {
                let token = LifetimeToken()
                weakToken = token
                cancellable = `operator`.apply(to: subject, keeping: token).sink { _ in counter.count += 1 }
            }
            let cancelled = Atomic<Bool>(false)
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    for value in 0..<500 { subject.send(value) }
                } else {
                    cancellable.cancel()
                    cancelled.store(true, ordering: .releasing)
                }
            }
            let wasCancelled = cancelled.load(ordering: .acquiring)
            #expect(wasCancelled)
            let before = counter.count
            subject.send(1_000)
            #expect(counter.count == before)
            #expect(weakToken == nil)
        }
    }

    @Test(arguments: Operator.allCases)
    func requestsFromManyThreadsAddUpAndRaceACancelSafely(_ operator: Operator) {
        for round in 0..<20 {
            let subject = PassthroughSubject<Int, Never>()
            let recorder = `operator`.apply(to: subject, keeping: LifetimeToken()).record(demand: .none)
            let cancelsMidway = round.isMultiple(of: 2)
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for _ in 0..<100 { recorder.request(.max(1)) }
                if cancelsMidway && thread == 0 { recorder.cancel() }
            }
            for value in 0..<500 { subject.send(value) }
            if cancelsMidway {
                #expect(recorder.values.isEmpty)  // cancelled before the first send
            } else {
                #expect(recorder.values == Array(0..<400))
            }
        }
    }
}
