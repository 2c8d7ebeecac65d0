import Dispatch
import Streams
import Testing

/// The view model of the Concurrency article, verbatim: it must compile in Swift 6 language mode as written.
@MainActor final class TitleViewModel {
    var title = ""
    private var subscriptions = Set<AnyCancellable>()
    init(titles: some Publisher<String, Never>) {
        titles.sinkOnMainActor { [weak self] in self?.title = $0 }.store(in: &subscriptions)
    }
}

/// Where each bridge between Streams and Swift concurrency runs your code (the Concurrency article's table).
@Suite struct ConcurrencyIsolationTests {
    @MainActor @Test func theArticlesViewModelGetsItsTitleOnTheMainActor() async {
        let titles = PassthroughSubject<String, Never>()
        let model = TitleViewModel(titles: titles)
        let marker = AwaitableEvents<Bool>()
        await Task.detached { titles.send("Inbox") }.value
        // `send` queued the value on the main queue; this marker runs after it.
        MainActorScheduler.shared.schedule { marker.send(true) }
        #expect(await marker.next() == true)
        #expect(model.title == "Inbox")
    }

    @MainActor @Test func aMainActorFutureOperationRunsOnTheMainActor() async throws {
        let future = Future<Int, any Error> { @MainActor in
            MainActor.assertIsolated()
            return 42
        }
        #expect(try await future.value == 42)
        MainActor.assertIsolated()  // `value` resumes the awaiting code in its own isolation
    }

    @MainActor @Test func aFutureOperationRunsOffTheMainActorByDefault() async {
        let future = Future<Bool, Never> {
            dispatchPrecondition(condition: .notOnQueue(.main))
            return true
        }
        #expect(await future.value)
        dispatchPrecondition(condition: .onQueue(.main))
    }

    @MainActor @Test func aValuesLoopBodyRunsInTheIteratingTasksIsolation() async {
        let subject = CurrentValueSubject<Int, Never>(0)
        var received: [Int] = []
        for await value in subject.values {
            MainActor.assertIsolated()
            received.append(value)
            if value == 0 {
                // Sent from another thread once the loop is subscribed; the loop ends with the completion.
                Task.detached {
                    subject.send(1)
                    subject.send(completion: .finished)
                }
            }
        }
        #expect(received.first == 0)
    }

    @Test func anAsyncSequencePublisherDeliversOnItsTaskAndSinkOnMainActorMovesIt() async {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let offMain = AwaitableEvents<Int>()
        let onMain = AwaitableEvents<Int>()
        let first = stream.streamsPublisher.sink { value in
            dispatchPrecondition(condition: .notOnQueue(.main))
            offMain.send(value)
        }
        continuation.yield(1)
        #expect(await offMain.next() == 1)
        first.cancel()

        let (secondStream, secondContinuation) = AsyncStream.makeStream(of: Int.self)
        let second = secondStream.streamsPublisher.sinkOnMainActor { value in
            MainActor.assertIsolated()
            onMain.send(value)
        }
        secondContinuation.yield(2)
        #expect(await onMain.next() == 2)
        second.cancel()
    }
}
