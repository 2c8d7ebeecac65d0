import Testing

@testable import Streams

/// `ValueStepStage` (Sources/Streams/Internals/ValueStepStage.swift), a stage that runs one step per value, checked
/// through the operators built on it. A step publishes, skips (and the stage asks upstream for one more, so the
/// downstream's demand is still met), finishes (cancelling upstream) or fails (cancelling upstream); after finishing,
/// nothing more reaches the subscriber. Failing is checked with every other throwing operator, in
/// `Tests/StreamsTests/Contract/ThrowingClosureTests.swift`.
@Suite struct ValueStepStageTests {
    /// An operator on the stage: how to build it, values that it publishes, and one more it skips (or, for the
    /// finishing ones, the value it finishes at).
    struct Stage: CustomTestStringConvertible, Sendable {
        let testDescription: String
        let build: @Sendable (SimpleProbe<Int, ProbeError>) -> AnyPublisher<Int, any Error>
        let published: [Int]
        let skipped: Int

        static func erased<P: Publisher<Int, ProbeError>>(_ publisher: P) -> AnyPublisher<Int, any Error> {
            publisher.mapError { $0 as any Error }.eraseToAnyPublisher()
        }
    }

    static let skipping: [Stage] = [
        Stage(
            testDescription: "drop(while:)", build: { Stage.erased($0.drop(while: { $0 < 10 })) }, published: [],
            skipped: 1),
        Stage(
            testDescription: "tryDrop(while:)", build: { $0.tryDrop(while: { $0 < 10 }).eraseToAnyPublisher() },
            published: [], skipped: 1),
        Stage(
            testDescription: "tryFilter", build: { $0.tryFilter { $0 >= 10 }.eraseToAnyPublisher() }, published: [10],
            skipped: 1),
        Stage(
            testDescription: "tryCompactMap", build: { $0.tryCompactMap { $0 >= 10 ? $0 : nil }.eraseToAnyPublisher() },
            published: [10], skipped: 1),
        Stage(
            testDescription: "tryRemoveDuplicates", build: { $0.tryRemoveDuplicates(by: ==).eraseToAnyPublisher() },
            published: [10], skipped: 10),
        Stage(testDescription: "output(at:)", build: { Stage.erased($0.output(at: 1)) }, published: [], skipped: 1),
        Stage(testDescription: "output(in:)", build: { Stage.erased($0.output(in: 2..<4)) }, published: [], skipped: 1),
    ]

    @Test(arguments: skipping)
    func aSkippedValueAsksUpstreamForOneMoreAndAPublishedOneReturnsTheSubscribersDemand(stage: Stage) {
        let probe = SimpleProbe<Int, ProbeError>()
        let subscriber = HandWrittenSubscriber<Int, any Error>(initial: .max(1), perValue: .max(3))
        stage.build(probe).subscribe(subscriber)
        #expect(probe.requests == [.max(1)])
        for value in stage.published { #expect(probe.send(value) == .max(3)) }  // the subscriber's, passed on
        #expect(probe.send(stage.skipped) == .max(1))
        #expect(probe.cancelCount == 0)
    }

    static let finishing: [Stage] = [
        Stage(
            testDescription: "prefix(while:)", build: { Stage.erased($0.prefix(while: { $0 < 10 })) }, published: [1],
            skipped: 10),
        Stage(
            testDescription: "tryPrefix(while:)", build: { $0.tryPrefix(while: { $0 < 10 }).eraseToAnyPublisher() },
            published: [1], skipped: 10),
        Stage(testDescription: "output(at:)", build: { Stage.erased($0.output(at: 0)) }, published: [1], skipped: 2),
        Stage(
            testDescription: "output(in:)", build: { Stage.erased($0.output(in: 0..<1)) }, published: [1], skipped: 2),
    ]

    /// `skipped` here is the value at which the stage finishes (`output` finishes right after its last index).
    @Test(arguments: finishing)
    func aFinishingStepCancelsUpstreamAndFinishesOnce(stage: Stage) {
        let probe = SimpleProbe<Int, ProbeError>()  // keeps its subscriber, as a sloppy publisher might
        let subscriber = HandWrittenSubscriber<Int, any Error>(initial: .unlimited)
        stage.build(probe).subscribe(subscriber)
        for value in stage.published { probe.send(value) }
        if probe.cancelCount == 0 { probe.send(stage.skipped) }
        #expect(probe.cancelCount == 1)
        probe.send(3)
        probe.send(completion: .failure(.boom))
        #expect(subscriber.events.count == stage.published.count + 2)
        #expect(subscriber.events.last == .finished)
    }
}
