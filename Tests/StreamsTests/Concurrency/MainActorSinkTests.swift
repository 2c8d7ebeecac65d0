import Dispatch
import Streams
import Testing

/// A view model as an app writes it in Swift 6 language mode: `@MainActor`, no `@unchecked Sendable`, no
/// `assumeIsolated`; it assigns its own properties in the sink's closures.
@MainActor final class CounterViewModel {
    private(set) var count = 0
    private(set) var history: [Int] = []
    private(set) var finished = false
    private var subscriptions = Set<AnyCancellable>()
    /// Test hook: each update, after the properties changed (`nil` for the completion).
    let updates = AwaitableEvents<Int?>()

    init(counts: some Publisher<Int, Never>) {
        counts.sinkOnMainActor(
            receiveCompletion: { [weak self] _ in
                self?.finished = true
                self?.updates.send(nil)
            },
            receiveValue: { [weak self] value in
                MainActor.assertIsolated()
                dispatchPrecondition(condition: .onQueue(.main))
                self?.count = value
                self?.history.append(value)
                self?.updates.send(value)
            }
        ).store(in: &subscriptions)
    }

    func stop() { subscriptions.removeAll() }
}

/// The same for a publisher that can fail.
@MainActor final class LoadingViewModel {
    private(set) var items: [String] = []
    private(set) var errorMessage: String?
    private var subscription: AnyCancellable?
    let updates = AwaitableEvents<Bool>()  // `true` once ended

    func load(_ source: some Publisher<String, TestError>) {
        subscription = source.sinkOnMainActor(
            receiveCompletion: { [weak self] completion in
                MainActor.assertIsolated()
                if case .failure(let error) = completion { self?.errorMessage = "\(error)" }
                self?.updates.send(true)
            },
            receiveValue: { [weak self] item in
                self?.items.append(item)
                self?.updates.send(false)
            })
    }
}

@Suite struct MainActorSinkTests {
    @MainActor @Test func aMainActorViewModelReceivesValuesSentFromAnotherThread() async {
        let subject = PassthroughSubject<Int, Never>()
        let model = CounterViewModel(counts: subject)
        await Task.detached {
            for value in 1...20 { subject.send(value) }
            subject.send(completion: .finished)
        }.value
        let updates = await model.updates.collect { $0 == nil }
        #expect(updates == (1...20).map { $0 } + [nil])
        #expect(model.history == Array(1...20))
        #expect(model.count == 20)
        #expect(model.finished)
    }

    @MainActor @Test func valuesArriveAsynchronouslyEvenWhenSentOnTheMainActor() async {
        let model = CounterViewModel(counts: CurrentValueSubject<Int, Never>(7))
        #expect(model.history == [])  // not inline: on a later turn of the main queue
        #expect(await model.updates.next() == 7)
        #expect(model.count == 7)
    }

    @MainActor @Test func cancellingOnTheMainActorDropsEventsAlreadyQueued() async {
        let subject = PassthroughSubject<Int, Never>()
        let model = CounterViewModel(counts: subject)
        subject.send(1)  // queued on the main queue, not yet delivered
        subject.send(completion: .finished)
        model.stop()
        // The main queue is first in, first out: this marker runs after the queued events would have.
        let marker = AwaitableEvents<Bool>()
        MainActorScheduler.shared.schedule { marker.send(true) }
        #expect(await marker.next() == true)
        #expect(model.history == [])
        #expect(!model.finished)
    }

    @MainActor @Test func aFailureReachesTheCompletionClosureOnTheMainActor() async {
        let subject = PassthroughSubject<String, TestError>()
        let model = LoadingViewModel()
        model.load(subject)
        await Task.detached {
            subject.send("a")
            subject.send(completion: .failure(.boom))
        }.value
        #expect(await model.updates.collect { $0 } == [false, true])
        #expect(model.items == ["a"])
        #expect(model.errorMessage == "boom")
    }

    @Test func subscribingOffTheMainActorStillDeliversOnIt() async {
        let events = AwaitableEvents<Int>()
        let cancellable = await Task.detached {
            (1...3).publisher.sinkOnMainActor { value in
                MainActor.assertIsolated()
                events.send(value)
            }
        }.value
        #expect(await events.collect { $0 == 3 } == [1, 2, 3])
        cancellable.cancel()
    }

    @MainActor @Test func theCompletionReleasesTheClosures() async {
        weak var released: Token?
        let events = AwaitableEvents<Bool>()
        let cancellable: AnyCancellable
        do {
            let token = Token()
            released = token
            cancellable = Just(1).sinkOnMainActor(
                receiveCompletion: { _ in events.send(true) },
                receiveValue: { _ in _ = token })
        }
        #expect(released != nil)
        #expect(await events.next() == true)
        #expect(released == nil)
        _ = cancellable
    }

    @MainActor @Test func anAsyncStreamDrivesAViewModel() async {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let model = CounterViewModel(counts: stream.streamsPublisher)
        continuation.yield(1)
        continuation.yield(2)
        continuation.finish()
        #expect(await model.updates.collect { $0 == nil } == [1, 2, nil])
        #expect(model.history == [1, 2])
    }
}
