import Dispatch
import Streams
import StreamsTesting
import Testing

/// `CombineIdentifier`, `Future.value` and numbers as intervals: the small pieces a Combine port expects.
@Suite struct CombineIdentifierTests {
    @Test func newIdentifiersDifferAndAnObjectKeepsItsOwn() {
        let identifiers = (0..<100).map { _ in CombineIdentifier() }
        #expect(Set(identifiers).count == 100)
        let object = Token()
        #expect(CombineIdentifier(object) == CombineIdentifier(object))
        #expect(CombineIdentifier(object) != CombineIdentifier(Token()))
        let subscriber = HandWrittenSubscriber<Int, Never>()
        #expect(subscriber.combineIdentifier == subscriber.combineIdentifier)
        #expect(subscriber.combineIdentifier == CombineIdentifier(subscriber))
    }

    @Test func liveObjectsHaveDistinctIdentifiersThatNeverMeetTheCountersOnes() {
        let objects = (0..<1000).map { _ in Token() }
        let identities = Set(objects.map { CombineIdentifier($0) })
        #expect(identities.count == 1000)
        #expect(identities.isDisjoint(with: (0..<1000).map { _ in CombineIdentifier() }))
    }

    @Test func identifiersMadeOnManyThreadsAreUnique() {
        let made = Locked<[CombineIdentifier]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let mine = (0..<500).map { _ in CombineIdentifier() }
            made.withLock { $0 += mine }
        }
        #expect(Set(made.withLock { $0 }).count == 4_000)
    }

    @Test func aFuturesValueIsAwaited() async throws {
        let future = Future<Int, Never> { promise in promise(.success(3)) }
        #expect(await future.value == 3)
        let later = Future<String, any Error> { promise in
            DispatchQueue.global().async { promise(.success("late")) }
        }
        #expect(try await later.value == "late")
        let failing = Future<Int, TestError> { $0(.failure(.boom)) }
        await #expect(throws: TestError.boom) { try await failing.value }
    }

    @Test func aNumberWhereAnIntervalIsExpectedMeansSeconds() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.debounce(for: 0.5, scheduler: scheduler).delay(for: 1, scheduler: scheduler)
            .record(on: scheduler)
        subject.send(1)
        scheduler.advance(by: 2)
        #expect(recorder.events == [.value(1, at: .milliseconds(1_500))])
        let interval: Duration = 0.25
        #expect(interval == .milliseconds(250))
    }
}
