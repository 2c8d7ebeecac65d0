import Dispatch
import Observation
import Streams
import StreamsTesting
import Testing

/// The publishers, subscribers and bridges: `Just`, `Empty`, `Fail`, `Sequence`, `Optional.publisher`,
/// `Result.publisher`, `Record`, `Deferred`, `Future` (promise and async forms), `ObservableObjectPublisher`,
/// `Published`'s `$property`, `sink`, `assign(to:on:)`, `assign(to: &$property)`, `sinkOnMainActor`,
/// `ObservedValue`, `Observed`, `AsyncSequencePublisher` (`streamsPublisher`, `ObservationsPublisher`) and
/// `values`. Each is subscribed, then cancelled or completed, with what feeds it kept alive outside the checked
/// body. Where the bridge ends asynchronously (a task, the main queue), the check waits, bounded, for it to end.
@Suite struct LeakChecksForPublishersAndBridges {
    enum Synchronous: String, CaseIterable, Sendable {
        case just, empty, emptyNeverCompleting, fail, sequence, optionalSome, optionalNone, resultSuccess
        case resultFailure, resultInit, record, recordBuilder, deferred, futurePromise, futureFulfilledEarly
        case anyPublisherOfAnyPublisher
    }

    /// A promise kept outside the checked body (as a caller keeping a completion handler would).
    final class PromiseSlot: @unchecked Sendable {
        private let slot = Locked<Future<Int, TestError>.Promise?>(nil)
        var promise: Future<Int, TestError>.Promise? {
            get { slot.withLock { $0 } }
            set { slot.withLock { $0 = newValue } }
        }
    }

    /// Subscribed with no demand; then a cancel after a first value, or enough demand to complete.
    @Test(arguments: Synchronous.allCases, LeakCheckEnding.allCases)
    func everyObjectIsFreed(_ op: Synchronous, _ ending: LeakCheckEnding) {
        let slot = PromiseSlot()
        expectNoLeaks { tracker in
            let token = tracker.token("\(op) closure")
            let pipeline: AnyPublisher<String, any Error> =
                switch op {
                case .just: LeakCheckPipeline.erase(Just(1).map { token($0) })
                case .empty: LeakCheckPipeline.erase(Empty<Int, Never>().map { token($0) })
                case .emptyNeverCompleting:
                    LeakCheckPipeline.erase(Empty<Int, Never>(completeImmediately: ending == .complete).map { token($0) })
                case .fail: LeakCheckPipeline.erase(Fail<Int, TestError>(error: .boom).map { token($0) })
                case .sequence: LeakCheckPipeline.erase([1, 2, 3].publisher.map { token($0) })
                case .optionalSome: LeakCheckPipeline.erase(Optional(1).publisher.map { token($0) })
                case .optionalNone: LeakCheckPipeline.erase(Int?.none.publisher.map { token($0) })
                case .resultSuccess: LeakCheckPipeline.erase(Result<Int, TestError>.success(1).publisher.map { token($0) })
                case .resultFailure: LeakCheckPipeline.erase(Result<Int, TestError>.failure(.boom).publisher.map { token($0) })
                case .resultInit: LeakCheckPipeline.erase(Result<Int, TestError>.Publisher(1).map { token($0) })
                case .record:
                    LeakCheckPipeline.erase(Record<Int, TestError>(output: [1, 2], completion: .finished).map { token($0) })
                case .recordBuilder:
                    LeakCheckPipeline.erase(
                        Record<Int, TestError> { recording in
                            recording.receive(1)
                            recording.receive(completion: .failure(.boom))
                        }.map { token($0) })
                case .deferred: LeakCheckPipeline.erase(Deferred { token(Just(1)) })
                case .futurePromise:
                    LeakCheckPipeline.erase(
                        tracker.watch(Future<Int, TestError> { promise in slot.promise = promise }, as: "Future")
                            .map { token($0) })
                case .futureFulfilledEarly:
                    LeakCheckPipeline.erase(tracker.watch(Future<Int, TestError> { $0(.success(1)) }, as: "Future").map { token($0) })
                case .anyPublisherOfAnyPublisher:
                    LeakCheckPipeline.erase(AnyPublisher(Just(1).map { token($0) }.eraseToAnyPublisher()))
                }
            // `Empty(completeImmediately: false)` hands out the shared `Subscriptions.empty`: not watched.
            let recorder =
                op == .emptyNeverCompleting
                ? tracker.watch(pipeline.record(demand: .none)) : tracker.record(pipeline, demand: .none)
            if ending == .cancel {
                recorder.request(.max(1))
                recorder.cancel()
            } else {
                recorder.request(.unlimited)
                slot.promise?(.success(1))
                #expect(recorder.completion != nil, "\(op) should have completed")
            }
            slot.promise = nil  // the promise holds its future, as in Combine
        }
    }

    /// `Future { promise in … }` cancelled before it is fulfilled: the waiting subscription must go at once, while the
    /// future (still held by its promise) lives on.
    @Test func aCancelledFutureSubscriptionIsFreedWhileThePromiseIsPending() {
        let slot = PromiseSlot()
        let future = Future<Int, TestError> { promise in slot.promise = promise }
        expectNoLeaks { tracker in
            let token = tracker.token("map")
            let recorder = tracker.record(future.map { token($0) })
            recorder.cancel()
        }
        slot.promise?(.success(1))  // nothing to deliver to, and nothing left to free
        let late = future.record()
        #expect(late.values == [1])
    }

    // MARK: subscribers

    final class Target: @unchecked Sendable {
        var value = 0
        @Published var published = 0
    }

    @Test(arguments: LeakCheckEnding.allCases) func sink(_ ending: LeakCheckEnding) {
        let source = PassthroughSubject<Int, Never>()
        expectNoLeaks { tracker in
            let token = tracker.token("sink closures")
            let cancellable = tracker.watch(
                source.sink(receiveCompletion: { _ in token() }, receiveValue: { _ in token() }), as: "sink AnyCancellable")
            source.send(1)
            if ending == .cancel { cancellable.cancel() } else { source.send(completion: .finished) }
        }
        withExtendedLifetime(source) {}
    }

    /// `assign(to:on:)` holds its object until the subscription ends (as in Combine), then lets it go.
    @Test(arguments: LeakCheckEnding.allCases) func assignToOn(_ ending: LeakCheckEnding) {
        let source = PassthroughSubject<Int, Never>()
        expectNoLeaks { tracker in
            let token = tracker.token("map")
            let target = tracker.watch(Target(), as: "assigned object")
            let cancellable = tracker.watch(source.map { token($0) }.assign(to: \.value, on: target), as: "Assign")
            source.send(4)
            #expect(target.value == 4)
            if ending == .cancel { cancellable.cancel() } else { source.send(completion: .finished) }
        }
        withExtendedLifetime(source) {}
    }

    /// `assign(to: &$property)`: the subscription lives as long as the object owning the property, or until the
    /// source completes.
    @Test(arguments: LeakCheckEnding.allCases) func assignToPublished(_ ending: LeakCheckEnding) {
        let source = PassthroughSubject<Int, Never>()
        let kept = Target()
        expectNoLeaks { tracker in
            let token = tracker.token("map")
            // Ending by "cancel" is releasing the object, the only way to end this subscription early.
            let target = ending == .cancel ? tracker.watch(Target(), as: "object owning the @Published") : kept
            source.map { token($0) }.assign(to: &target.$published)
            source.send(5)
            #expect(target.published == 5)
            if ending == .complete { source.send(completion: .finished) }
        }
        source.send(6)
        #expect(kept.published == (ending == .complete ? 5 : 0))
        withExtendedLifetime((source, kept)) {}
    }

    /// `$property` subscribers, cancelled while the owning object lives (ending "cancel") or after it is gone
    /// (ending "complete": a `@Published` never completes, so its subscription ends only by cancel, as in Combine).
    @Test(arguments: LeakCheckEnding.allCases) func publishedProjectedValue(_ ending: LeakCheckEnding) {
        let kept = Target()
        expectNoLeaks { tracker in
            let token = tracker.token("map")
            let recorder: TestRecorder<Int, Never>
            do {
                let target = ending == .cancel ? kept : tracker.watch(Target(), as: "object owning the @Published")
                recorder = tracker.record(target.$published.map { token($0) })
                target.published = 1
            }
            recorder.cancel()
            #expect(recorder.values == [0, 1])
        }
        withExtendedLifetime(kept) {}
    }

    @Test func observableObjectPublisher() {
        let publisher = ObservableObjectPublisher()
        expectNoLeaks { tracker in
            let token = tracker.token("map")
            let recorder = tracker.record(publisher.map { token($0) })
            publisher.send()
            #expect(recorder.values.count == 1)
            recorder.cancel()
        }
        withExtendedLifetime(publisher) {}
    }

    final class Model: ObservableObject, @unchecked Sendable {
        @Published var count = 0
    }

    /// An `ObservableObject`'s synthesized `objectWillChange`: cancelled while the object lives, or after it is gone.
    @Test(arguments: LeakCheckEnding.allCases) func objectWillChange(_ ending: LeakCheckEnding) {
        let kept = Model()
        expectNoLeaks { tracker in
            let token = tracker.token("map")
            let recorder: TestRecorder<Int, Never>
            do {
                let model = ending == .cancel ? kept : tracker.watch(Model(), as: "ObservableObject")
                recorder = tracker.record(model.objectWillChange.map { token(1) })
                model.count = 1
            }
            recorder.cancel()
            #expect(recorder.values == [1])
        }
        withExtendedLifetime(kept) {}
    }

    // MARK: main actor and observation

    /// Waits (bounded, about two seconds at most) until nothing `tracker` watches is alive, letting the main queue
    /// and other tasks run.
    private static func settle(_ tracker: LeakTracker) async {
        for _ in 0..<400 where !tracker.survivors.isEmpty {
            await Task.yield()
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits (bounded, about two seconds at most) until `condition` holds, checking it on the caller's isolation.
    private static func eventually(
        isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool
    ) async -> Bool {
        for _ in 0..<400 where !condition() {
            await Task.yield()
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    @MainActor @Test(arguments: LeakCheckEnding.allCases) func sinkOnMainActor(_ ending: LeakCheckEnding) async {
        let source = PassthroughSubject<Int, Never>()
        let tracker = LeakTracker()
        let received = Locked<[Int]>([])
        let finished = Locked(false)
        do {
            let token = tracker.token("sinkOnMainActor closures")
            let cancellable = tracker.watch(
                source.map { token($0) }.sinkOnMainActor(
                    receiveCompletion: { _ in
                        token()
                        finished.withLock { $0 = true }
                    },
                    receiveValue: { value in received.withLock { $0.append(value) } }), as: "sinkOnMainActor AnyCancellable")
            source.send(1)
            #expect(await Self.eventually { received.withLock { $0 } == [1] })
            if ending == .cancel {
                cancellable.cancel()
            } else {
                source.send(completion: .finished)
                #expect(await Self.eventually { finished.withLock { $0 } })
            }
        }
        await Self.settle(tracker)
        tracker.expectAllFreed()
        withExtendedLifetime(source) {}
    }

    @MainActor @Test(arguments: LeakCheckEnding.allCases) func observedValue(_ ending: LeakCheckEnding) async {
        let source = PassthroughSubject<Int, Never>()
        let tracker = LeakTracker()
        do {
            let token = tracker.token("map")
            let observed = tracker.watch(ObservedValue(0, from: source.map { token($0) }), as: "ObservedValue")
            source.send(1)
            #expect(await Self.eventually { observed.value == 1 })
            if ending == .cancel {
                observed.cancel()
            } else {
                source.send(completion: .finished)
                #expect(await Self.eventually { observed.isFinished })
            }
        }
        await Self.settle(tracker)
        tracker.expectAllFreed()
        withExtendedLifetime(source) {}
    }

    /// `Observed` never completes: the subscription ends by cancel; the model outlives it and must not hold it.
    @Test func observedOnAScheduler() {
        let scheduler = TestScheduler()
        let model = ObservedSearchModel()
        expectNoLeaks { tracker in
            let token = tracker.token("read closure")
            let recorder = tracker.record(Observed(on: scheduler) { token(model.query) })
            model.query = "a"
            scheduler.advance()
            #expect(recorder.values == ["", "a"])
            model.query = "b"  // a re-read is pending when the subscription ends
            recorder.cancel()
            scheduler.advance()
            model.query = "c"
            scheduler.advance()
            #expect(recorder.values == ["", "a"])
        }
        #expect(scheduler.pendingCount == 0)
        withExtendedLifetime(model) {}
    }

    @MainActor @Test func observedOnTheMainActor() async {
        let model = ObservedEditorModel()
        let tracker = LeakTracker()
        do {
            let token = tracker.token("read closure")
            let recorder = tracker.record(Observed { token(model.text) })
            #expect(await Self.eventually { recorder.values == [""] })
            model.text = "x"
            #expect(await Self.eventually { recorder.values == ["", "x"] })
            recorder.cancel()
        }
        await Self.settle(tracker)
        tracker.expectAllFreed()
        withExtendedLifetime(model) {}
    }

    @MainActor @Test func observationsPublisher() async {
        let model = ObservationsCounterModel()
        let tracker = LeakTracker()
        do {
            let token = tracker.token("observations closure")
            let publisher: ObservationsPublisher<Int, Never> = Observations { token(model.count) }.streamsPublisher
            let recorder = tracker.record(publisher)
            #expect(await Self.eventually { recorder.values == [0] })
            recorder.cancel()
        }
        await Self.settle(tracker)
        tracker.expectAllFreed()
        withExtendedLifetime(model) {}
    }

    // MARK: async bridges

    @Test(arguments: LeakCheckEnding.allCases) func asyncSequencePublisher(_ ending: LeakCheckEnding) async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let tracker = LeakTracker()
        do {
            let token = tracker.token("map")
            let recorder = tracker.record(stream.streamsPublisher.map { token($0) })
            continuation.yield(1)
            #expect(await Self.eventually { recorder.values == [1] })
            if ending == .cancel {
                recorder.cancel()
            } else {
                continuation.finish()
                #expect(await Self.eventually { recorder.isFinished })
            }
        }
        await Self.settle(tracker)
        tracker.expectAllFreed()
        continuation.finish()
    }

    @Test(arguments: LeakCheckEnding.allCases) func asyncSequencePublisherOfAThrowingSequence(
        _ ending: LeakCheckEnding
    ) async {
        let (stream, continuation) = AsyncThrowingStream<Int, any Error>.makeStream()
        let tracker = LeakTracker()
        do {
            let token = tracker.token("map")
            let recorder = tracker.record(AsyncSequencePublisher(stream).map { token($0) })
            continuation.yield(1)
            #expect(await Self.eventually { recorder.values == [1] })
            if ending == .cancel {
                recorder.cancel()
            } else {
                continuation.finish(throwing: TestError.boom)
                #expect(await Self.eventually { recorder.failure != nil })
            }
        }
        await Self.settle(tracker)
        tracker.expectAllFreed()
        continuation.finish()
    }

    /// `values`: the iteration ends by leaving the loop (a cancel) or by the publisher's completion.
    @Test(arguments: LeakCheckEnding.allCases) func values(_ ending: LeakCheckEnding) async {
        let source = CurrentValueSubject<Int, Never>(1)
        let tracker = LeakTracker()
        do {
            let token = tracker.token("map")
            let values = source.map { token($0) }.values
            if ending == .complete { source.send(completion: .finished) }
            var seen: [Int] = []
            for await value in values {
                seen.append(value)
                if ending == .cancel { break }
            }
            #expect(seen == (ending == .cancel ? [1] : []))
        }
        await Self.settle(tracker)
        tracker.expectAllFreed()
        withExtendedLifetime(source) {}
    }

    @Test(arguments: LeakCheckEnding.allCases) func throwingValues(_ ending: LeakCheckEnding) async {
        let source = CurrentValueSubject<Int, TestError>(1)
        let tracker = LeakTracker()
        do {
            let token = tracker.token("map")
            let values = source.map { token($0) }.values
            if ending == .complete { source.send(completion: .failure(.boom)) }
            var seen: [Int] = []
            do {
                for try await value in values {
                    seen.append(value)
                    if ending == .cancel { break }
                }
            } catch {
                #expect(error as? TestError == .boom)
            }
            #expect(seen == (ending == .cancel ? [1] : []))
        }
        await Self.settle(tracker)
        tracker.expectAllFreed()
        withExtendedLifetime(source) {}
    }

    @Test(arguments: LeakCheckEnding.allCases) func asyncFuture(_ ending: LeakCheckEnding) async {
        let gate = AsyncStream<Int>.makeStream()
        let tracker = LeakTracker()
        do {
            let token = tracker.token("operation")
            let future = tracker.watch(
                Future<Int, Never> {
                    for await value in gate.stream { return token(value) }
                    return -1
                }, as: "Future (async, non-throwing)")
            let recorder = tracker.record(future)
            if ending == .cancel {
                recorder.cancel()
            } else {
                gate.continuation.yield(7)
                #expect(await Self.eventually { recorder.isFinished })
                #expect(recorder.values == [7])
            }
        }
        gate.continuation.finish()  // the operation's task runs to its end whatever happens to the subscription
        await Self.settle(tracker)
        tracker.expectAllFreed()
    }

    @Test(arguments: LeakCheckEnding.allCases) func asyncThrowingFuture(_ ending: LeakCheckEnding) async {
        let gate = AsyncStream<Int>.makeStream()
        let tracker = LeakTracker()
        do {
            let token = tracker.token("operation")
            let future = tracker.watch(
                Future<Int, any Error> {
                    for await value in gate.stream { return token(value) }
                    throw TestError.boom
                }, as: "Future (async, throwing)")
            let recorder = tracker.record(future)
            if ending == .cancel {
                recorder.cancel()
            } else {
                gate.continuation.finish()
                #expect(await Self.eventually { recorder.failure != nil })
            }
        }
        gate.continuation.finish()
        await Self.settle(tracker)
        tracker.expectAllFreed()
    }
}
