import Networking
import Streams
import StreamsTesting
import Testing

@Suite struct TaskPublisherTests {
    @Test func publishesTheOperationsValueThenFinishes() async throws {
        let publisher = TaskPublisher { () async throws(NetworkError) -> Int in 42 }
        var values: [Int] = []
        for try await value in publisher.values { values.append(value) }
        #expect(values == [42])
    }

    @Test func failsWithTheThrownError() async {
        let publisher = TaskPublisher { () async throws(NetworkError) -> Int in throw .unauthorized }
        do {
            for try await _ in publisher.values {}
            Issue.record("expected a failure")
        } catch {
            guard case .unauthorized = error as? NetworkError else { return fail("got \(error)") }
        }
    }

    @Test func startsOnlyOnTheFirstRequestAndOncePerSubscriber() async throws {
        let runs = Locked(0)
        let publisher = TaskPublisher { () async throws(NetworkError) -> Int in
            runs.withLock {
                $0 += 1
                return $0
            }
        }
        let recorder = publisher.record(demand: .none)
        await Task.yield()
        #expect(runs.withLock { $0 } == 0)
        var first: [Int] = []
        for try await value in publisher.values { first.append(value) }
        var second: [Int] = []
        for try await value in publisher.values { second.append(value) }
        #expect(Set(first + second) == [1, 2])
        recorder.cancel()
    }

    @Test func cancellingTheSubscriptionCancelsTheTaskAndDeliversNothing() async {
        let probe = CancellationProbe()
        let (released, releaseSignal) = AsyncStream<Void>.makeStream()
        let publisher = TaskPublisher { () async throws(NetworkError) -> ReleaseMarker in
            await probe.suspendUntilCancelled()
            return ReleaseMarker(releaseSignal)  // returned after cancel: must not be delivered
        }
        let recorder = publisher.record()
        await probe.started()
        recorder.cancel()
        await probe.cancelled()
        var iterator = released.makeAsyncIterator()
        _ = await iterator.next()  // the task has finished and dropped its result
        #expect(recorder.events.isEmpty)
    }
}
