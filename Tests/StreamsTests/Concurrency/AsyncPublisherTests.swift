import Streams
import StreamsTesting
import Testing

@Suite struct AsyncPublisherTests {
    @Test func valuesIteratesAFinitePublisher() async {
        var collected: [Int] = []
        for await value in (1...5).publisher.map({ $0 * 2 }).values { collected.append(value) }
        #expect(collected == [2, 4, 6, 8, 10])
    }

    @Test func throwingValuesThrowsTheFailureAfterTheValues() async throws {
        let subject = CurrentValueSubject<Int, TestError>(1)
        var iterator = subject.values.makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        subject.send(completion: .failure(.boom))
        await #expect(throws: TestError.boom) { try await iterator.next() }
    }

    @Test func valuesRequestsOneValueAtATime() async {
        let subject = CurrentValueSubject<Int, Never>(0)
        var iterator = subject.values.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        subject.send(1)
        subject.send(2)  // no demand between values: only the newest is kept by CurrentValueSubject
        #expect(await iterator.next() == 2)
        subject.send(completion: .finished)
        #expect(await iterator.next() == nil)
    }

    @Test func breakingOutOfTheLoopCancelsTheSubscription() async {
        let cancelled = Locked(false)
        let publisher = (1...1_000).publisher.handleEvents(receiveCancel: { cancelled.withLock { $0 = true } })
        for await value in publisher.values where value == 2 { break }
        #expect(cancelled.withLock { $0 })
    }

    @Test func droppingTheIteratorReleasesTheSubjectSubscriber() async {
        let subject = CurrentValueSubject<Int, Never>(1)
        let cancelled = Locked(false)
        let publisher = subject.handleEvents(receiveCancel: { cancelled.withLock { $0 = true } })
        do {
            var iterator = publisher.values.makeAsyncIterator()
            #expect(await iterator.next() == 1)
        }
        #expect(cancelled.withLock { $0 })
    }

    @Test func aThrowingIteratorReturnsNilAfterItThrew() async throws {
        var iterator = Fail<Int, TestError>(error: .boom).values.makeAsyncIterator()
        await #expect(throws: TestError.boom) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
        #expect(try await iterator.next() == nil)
    }

    @Test func cancellingTheConsumingTaskCancelsTheSubscription() async {
        let subject = PassthroughSubject<Int, Never>()
        let cancelled = Locked(false)
        let publisher = CancelObserving(upstream: subject, onCancel: { cancelled.withLock { $0 = true } })
        let task = Task {
            var count = 0
            for await _ in publisher.values { count += 1 }
            return count
        }
        task.cancel()
        let count = await task.value
        #expect(count == 0)
        #expect(cancelled.withLock { $0 })
    }
}

/// Reports when its subscription is cancelled (a test-only stand-in for `handleEvents`).
struct CancelObserving<Upstream: Publisher>: Publisher {
    typealias Output = Upstream.Output
    typealias Failure = Upstream.Failure
    let upstream: Upstream
    let onCancel: @Sendable () -> Void

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.subscribe(
            AnySubscriber<Output, Failure>(
                receiveSubscription: { subscription in
                    subscriber.receive(subscription: ObservedSubscription(base: subscription, onCancel: onCancel))
                },
                receiveValue: { subscriber.receive($0) },
                receiveCompletion: { subscriber.receive(completion: $0) }))
    }
}

final class ObservedSubscription: Subscription, @unchecked Sendable {
    let base: any Subscription
    let onCancel: @Sendable () -> Void
    init(base: any Subscription, onCancel: @escaping @Sendable () -> Void) {
        self.base = base
        self.onCancel = onCancel
    }
    func request(_ demand: Subscribers.Demand) { base.request(demand) }
    func cancel() {
        onCancel()
        base.cancel()
    }
}
