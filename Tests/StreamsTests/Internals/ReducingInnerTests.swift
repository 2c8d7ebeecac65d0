import Dispatch
import Streams
import StreamsTesting
import Testing

/// The subscriber and subscription every reducing operator is built on (`ReducingInner`, `HeldResultCore`): the fold
/// runs on the upstream's serial calls without a lock, and only its end meets the downstream's request and cancel,
/// which may come from any thread. These stress tests run under the thread sanitizer in `.ci/run`.
@Suite struct ReducingInnerTests {
    /// A subscription may be used from any thread (Combine's contract), though the protocol is not `Sendable`.
    struct Handed: @unchecked Sendable { let recorder: TestRecorder<[Int], Never> }

    @Test func aCancelRacingTheFoldDeliversTheWholeResultOrNothing() {
        for round in 0..<1_000 {
            let subject = PassthroughSubject<Int, Never>()
            let handed = Handed(recorder: subject.collect().record())
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == round % 2 {
                    for value in 0..<50 { subject.send(value) }
                    subject.send(completion: .finished)
                } else {
                    handed.recorder.cancel()
                }
            }
            // Cancelled before the fold ended: nothing; after: the whole array (and `.finished` unless the cancel
            // came between the two).
            let values = handed.recorder.values
            #expect(values.isEmpty || values == [Array(0..<50)])
            if handed.recorder.isFinished { #expect(values == [Array(0..<50)]) }
        }
    }

    @Test func theFirstRequestRacingTheEndOfTheFoldGetsTheResultExactlyOnce() {
        for round in 0..<2_000 {
            let subject = PassthroughSubject<Int, Never>()
            let recorder = subject.collect().record(demand: .none)
            for value in 0..<3 { subject.send(value) }  // `collect()` asks its upstream for everything itself
            let handed = Handed(recorder: recorder)
            // The calling thread usually runs its share first: the roles alternate, so both orders happen.
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == round % 2 {
                    subject.send(completion: .finished)
                } else {
                    handed.recorder.request(.max(1))
                }
            }
            #expect(recorder.values == [[0, 1, 2]])
            #expect(recorder.isFinished)
        }
    }

    /// The fold's state belongs to the serial upstream calls: a result folded after a cancel is neither published
    /// nor kept by the downstream's subscription.
    @Test func nothingFoldedAfterACancelIsPublished() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.reduce(0, +).record(demand: .none)
        subject.send(1)
        recorder.cancel()
        subject.send(2)
        subject.send(completion: .finished)
        recorder.request(.max(1))
        #expect(recorder.events.isEmpty)
    }
}

/// What every reducing operator promises, checked on each (`reduce`, `collect()`, `count()`, `min`/`max`, `contains`,
/// `allSatisfy`, `first`, `last`, with and without a closure): an upstream failure goes at once, without demand, and
/// drops the partial result; after a cancel nothing arrives and the closure is released; and a subscriber that cancels
/// on the result gets no `.finished`. (The throwing forms: `Tests/StreamsTests/Contract/ThrowingClosureTests.swift`.)
@Suite struct ReducingOperatorContractTests {
    /// One reducing operator over a probe, with its checks bound to its output type. `build` gets an object for its
    /// closure to keep alive (to see the closure released); it is fed 1 and then 2 and must not have ended by then,
    /// and `result` is what it publishes for the values 1 and 2.
    /// `@unchecked Sendable`: its closures capture only `let`s and run on the one thread of the test that calls them.
    struct Reducing: CustomTestStringConvertible, @unchecked Sendable {
        let testDescription: String
        let failureGoesAtOnce: () -> Void
        let cancelEndsEverything: () -> Void
        let noFinishedAfterACancelOnTheResult: () -> Void

        init<Output: Equatable>(
            _ name: String, result: Output, keepsAClosure: Bool = true,
            _ build: @escaping (SimpleProbe<Int, ProbeError>, LifetimeToken) -> AnyPublisher<Output, ProbeError>
        ) {
            testDescription = name
            failureGoesAtOnce = {
                let probe = SimpleProbe<Int, ProbeError>()
                let subscriber = HandWrittenSubscriber<Output, ProbeError>()  // asks nothing
                build(probe, LifetimeToken()).subscribe(subscriber)
                probe.send(1)
                probe.send(completion: .failure(.boom))
                #expect(subscriber.events == [.subscription, .failure("boom")], "\(name)")
                subscriber.request(.max(1))
                #expect(subscriber.events == [.subscription, .failure("boom")], "\(name)")
            }
            cancelEndsEverything = {
                let probe = SimpleProbe<Int, ProbeError>(keepsSubscriber: false)
                let subscriber = HandWrittenSubscriber<Output, ProbeError>(initial: .max(1))
                weak var released: LifetimeToken?
                do {
                    let token = LifetimeToken()
                    released = token
                    build(probe, token).subscribe(subscriber)
                }
                probe.send(1)
                subscriber.cancel()
                #expect(probe.cancelCount == 1, "\(name)")
                if keepsAClosure { #expect(released == nil, "\(name)") }
                probe.send(2)
                probe.send(completion: .finished)
                #expect(subscriber.events == [.subscription], "\(name)")
            }
            noFinishedAfterACancelOnTheResult = {
                let probe = SimpleProbe<Int, ProbeError>()
                let subscriber = HandWrittenSubscriber<Output, ProbeError>(initial: .max(1), cancelOnValue: 1)
                build(probe, LifetimeToken()).subscribe(subscriber)
                probe.send(1)
                probe.send(2)
                probe.send(completion: .finished)
                #expect(subscriber.events == [.subscription, .value(result)], "\(name)")
            }
        }
    }

    static let operators: [Reducing] = [
        Reducing("reduce", result: 3) { probe, token in
            probe.reduce(0) { sum, value in withExtendedLifetime(token) { sum + value } }.eraseToAnyPublisher()
        },
        Reducing("collect()", result: [1, 2], keepsAClosure: false) { probe, _ in
            probe.collect().eraseToAnyPublisher()
        },
        Reducing("count()", result: 2, keepsAClosure: false) { probe, _ in probe.count().eraseToAnyPublisher() },
        Reducing("min()", result: 1, keepsAClosure: false) { probe, _ in probe.min().eraseToAnyPublisher() },
        Reducing("max(by:)", result: 2) { probe, token in
            probe.max { first, second in withExtendedLifetime(token) { first < second } }.eraseToAnyPublisher()
        },
        Reducing("contains(_:)", result: false, keepsAClosure: false) { probe, _ in
            probe.contains(5).eraseToAnyPublisher()
        },
        Reducing("contains(where:)", result: false) { probe, token in
            probe.contains { value in withExtendedLifetime(token) { value > 5 } }.eraseToAnyPublisher()
        },
        Reducing("allSatisfy", result: true) { probe, token in
            probe.allSatisfy { value in withExtendedLifetime(token) { value > 0 } }.eraseToAnyPublisher()
        },
        Reducing("first(where:)", result: 2) { probe, token in
            probe.first { value in withExtendedLifetime(token) { value == 2 } }.eraseToAnyPublisher()
        },
        Reducing("last()", result: 2, keepsAClosure: false) { probe, _ in probe.last().eraseToAnyPublisher() },
        Reducing("last(where:)", result: 2) { probe, token in
            probe.last { value in withExtendedLifetime(token) { value > 0 } }.eraseToAnyPublisher()
        },
    ]

    @Test(arguments: operators)
    func anUpstreamFailureGoesAtOnceWithoutDemandAndDropsThePartialResult(operator: Reducing) {
        `operator`.failureGoesAtOnce()
    }

    @Test(arguments: operators)
    func afterACancelNothingArrivesAndTheClosureIsReleased(operator: Reducing) {
        `operator`.cancelEndsEverything()
    }

    @Test(arguments: operators)
    func aSubscriberThatCancelsOnTheResultGetsNoFinished(operator: Reducing) {
        `operator`.noFinishedAfterACancelOnTheResult()
    }
}
