import Streams
import StreamsTesting
import Testing

/// The CombineExt-style operators and types in every public form: `withLatestFrom` with one to three other
/// sources (with and without a result selector), every `amb` overload, `flatMapLatest`, `retry(when:)` and
/// `retryWhen`, `materialize`/`dematerialize`/`failures`, `pairwise`/`nwise`, `ReplaySubject`, the relays and
/// their feeding links, and `AnyPublisher.create` / `AnyPublisher { … }` / `Publishers.Create`. Each is subscribed,
/// fed, then cancelled or completed with every source kept alive outside the checked body.
@Suite struct LeakChecksForCombineExt {
    enum Operator: String, CaseIterable, Sendable {
        case withLatestFrom1, withLatestFrom1Selector, withLatestFrom2, withLatestFrom2Selector, withLatestFrom3
        case withLatestFrom3Selector, amb, ambWithVariadic, ambWithCollection, ambOfCollection, flatMapLatest
        case retryWhen, retryWhenNamed, materialize, materializeFailing, dematerialize, failures, pairwise, nwise
        case replaySubject, anyPublisherCreate, anyPublisherInit, publishersCreate
    }

    @Test(arguments: Operator.allCases, LeakCheckEnding.allCases)
    func everyObjectIsFreed(_ op: Operator, _ ending: LeakCheckEnding) {
        let source = PassthroughSubject<Int, Never>()
        let (a, b, c) = (PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>())
        let failing = PassthroughSubject<Int, TestError>()
        let replay = ReplaySubject<Int, Never>(bufferSize: 2)
        let slot = CreateSubscriberSlot<Int, Never>()
        expectNoLeaks { tracker in
            let token = tracker.token("\(op) closure")
            let teardown = tracker.token("\(op) teardown")
            let factory: (Publishers.Create<Int, Never>.Subscriber) -> any Cancellable = { subscriber in
                slot.subscriber = token(subscriber)
                // The teardown holds the subscriber: the end of the subscription must break that cycle.
                return AnyCancellable {
                    teardown()
                    subscriber.send(-1)
                }
            }
            let mapped = source.map { token($0) }
            let pipeline: AnyPublisher<String, any Error> =
                switch op {
                case .withLatestFrom1: LeakCheckPipeline.erase(mapped.withLatestFrom(a))
                case .withLatestFrom1Selector: LeakCheckPipeline.erase(source.withLatestFrom(a) { token($0 + $1) })
                case .withLatestFrom2: LeakCheckPipeline.erase(mapped.withLatestFrom(a, b).map { $0 + $1 })
                case .withLatestFrom2Selector: LeakCheckPipeline.erase(source.withLatestFrom(a, b) { token($0 + $1.0 + $1.1) })
                case .withLatestFrom3: LeakCheckPipeline.erase(mapped.withLatestFrom(a, b, c).map { $0 + $1 + $2 })
                case .withLatestFrom3Selector:
                    LeakCheckPipeline.erase(source.withLatestFrom(a, b, c) { token($0 + $1.0 + $1.1 + $1.2) })
                case .amb: LeakCheckPipeline.erase(mapped.amb(a))
                case .ambWithVariadic: LeakCheckPipeline.erase(mapped.amb(with: a, b))
                case .ambWithCollection: LeakCheckPipeline.erase(mapped.amb(with: [a, b]))
                case .ambOfCollection:
                    LeakCheckPipeline.erase([mapped.eraseToAnyPublisher(), a.eraseToAnyPublisher(), b.eraseToAnyPublisher()].amb())
                case .flatMapLatest: LeakCheckPipeline.erase(source.flatMapLatest { value in token(value == 1 ? a : b) })
                case .retryWhen: LeakCheckPipeline.erase(failing.map { token($0) }.retry(when: { failures in failures.map { token($0) } }))
                case .retryWhenNamed: LeakCheckPipeline.erase(failing.map { token($0) }.retryWhen { failures in failures.map { token($0) } })
                case .materialize: LeakCheckPipeline.erase(mapped.materialize().map { "\($0)" })
                case .materializeFailing: LeakCheckPipeline.erase(failing.map { token($0) }.materialize().map { "\($0)" })
                case .dematerialize: LeakCheckPipeline.erase(failing.map { token($0) }.materialize().dematerialize())
                case .failures: LeakCheckPipeline.erase(failing.map { token($0) }.materialize().failures())
                case .pairwise: LeakCheckPipeline.erase(mapped.pairwise().map { $0.0 + $0.1 })
                case .nwise: LeakCheckPipeline.erase(mapped.nwise(2).map { $0.reduce(0, +) })
                case .replaySubject: LeakCheckPipeline.erase(replay.map { token($0) })
                case .anyPublisherCreate: LeakCheckPipeline.erase(AnyPublisher<Int, Never>.create(factory))
                case .anyPublisherInit: LeakCheckPipeline.erase(AnyPublisher<Int, Never>(factory))
                case .publishersCreate: LeakCheckPipeline.erase(Publishers.Create<Int, Never>(factory: factory))
                }
            let recorder = tracker.record(pipeline)
            for subject in [a, b, c] { subject.send(10) }
            source.send(1)
            failing.send(1)
            replay.send(1)
            slot.subscriber?.send(1)
            for subject in [a, b, c] { subject.send(20) }
            source.send(2)
            failing.send(2)
            replay.send(2)
            slot.subscriber?.send(2)
            if ending == .cancel {
                recorder.cancel()
            } else {
                source.send(completion: .finished)
                for subject in [a, b, c] { subject.send(completion: .finished) }
                failing.send(completion: .finished)
                replay.send(completion: .finished)
                slot.subscriber?.send(completion: .finished)
                #expect(recorder.completion != nil, "\(op) should have completed")
            }
            slot.subscriber = nil
            #expect(op == .failures || !recorder.values.isEmpty, "\(op) should have published")
        }
        withExtendedLifetime((source, a, b, c, failing, replay)) {}
    }

    /// `retry(when:)` after it re-subscribed: the failed attempt, the trigger chain and the handler must go.
    @Test(arguments: LeakCheckEnding.allCases) func retryWhenAfterAResubscription(_ ending: LeakCheckEnding) {
        let attempts = Locked(0)
        let later = PassthroughSubject<Int, TestError>()
        expectNoLeaks { tracker in
            let factory = tracker.token("deferred factory")
            let handler = tracker.token("retry handler")
            let upstream = Deferred { () -> AnyPublisher<Int, TestError> in
                let attempt = attempts.withLock { count -> Int in
                    count += 1
                    return count
                }
                return factory(attempt == 1 ? Fail(error: .boom).eraseToAnyPublisher() : later.eraseToAnyPublisher())
            }
            let recorder = tracker.record(upstream.retry(when: { failures in failures.map { handler($0) } }))
            later.send(5)
            if ending == .cancel { recorder.cancel() } else { later.send(completion: .finished) }
            #expect(recorder.values == [5])
        }
        #expect(attempts.withLock { $0 } == 2)
        withExtendedLifetime(later) {}
    }

    /// A `ReplaySubject` frees its buffered values when it is released, once its subscribers are gone. (As with
    /// Combine's subjects, a subscriber that neither cancels nor sees a completion keeps its subject alive.)
    @Test func aReleasedReplaySubjectFreesItsBuffer() {
        expectNoLeaks { tracker in
            let replay = tracker.watch(ReplaySubject<LeakToken, Never>(bufferSize: 2))
            let recorder = tracker.record(replay)
            for index in 0..<3 { replay.send(tracker.token("buffered \(index)")) }
            let late = tracker.record(replay)
            #expect(recorder.values.count == 3)
            #expect(late.values.count == 2)
            recorder.cancel()
            late.cancel()
        }
    }

    /// A `ReplaySubject` that failed keeps its buffer for late subscribers, but not the subscribers.
    @Test func aFailedReplaySubjectLetsItsSubscribersGo() {
        let replay = ReplaySubject<Int, TestError>(bufferSize: 1)
        expectNoLeaks { tracker in
            let token = tracker.token("map")
            let recorder = tracker.record(replay.map { token($0) })
            replay.send(1)
            replay.send(completion: .failure(.boom))
            let late = tracker.record(replay.map { token($0) })
            #expect(recorder.failure == .boom)
            #expect(late.values == [1])
            #expect(late.failure == .boom)
        }
        withExtendedLifetime(replay) {}
    }

    enum RelayKind: String, CaseIterable, Sendable { case passthrough, currentValue }

    /// A relay's subscribers, after a cancel (relay alive) or after the relay is released (its `.finished`).
    @Test(arguments: RelayKind.allCases, LeakCheckEnding.allCases)
    func relaySubscribersAreFreed(_ kind: RelayKind, _ ending: LeakCheckEnding) {
        switch kind {
        case .passthrough: Self.checkRelaySubscribers(ending) { PassthroughRelay<Int>() }
        case .currentValue: Self.checkRelaySubscribers(ending) { CurrentValueRelay(0) }
        }
    }

    private static func checkRelaySubscribers<R: Relay & AnyObject>(
        _ ending: LeakCheckEnding, sourceLocation: SourceLocation = #_sourceLocation, _ make: () -> R
    ) where R.Output == Int {
        let kept = make()
        expectNoLeaks(sourceLocation: sourceLocation) { tracker in
            let token = tracker.token("relay map")
            let recorder: TestRecorder<Int, Never>
            do {
                let relay = ending == .cancel ? kept : tracker.watch(make(), as: "\(R.self)")
                recorder = tracker.record(relay.map { token($0) })
                relay.accept(1)
            }
            if ending == .cancel { recorder.cancel() }
            #expect(recorder.values.last == 1, sourceLocation: sourceLocation)
            #expect(ending == .cancel ? recorder.completion == nil : recorder.isFinished, sourceLocation: sourceLocation)
        }
        withExtendedLifetime(kept) {}
    }

    /// The links `relay.subscribe(publisher)` and `publisher.subscribe(relay)` make: freed once cancelled, or once
    /// the feeding publisher completes; the relay keeps no reference to them.
    @Test(arguments: RelayKind.allCases, LeakCheckEnding.allCases)
    func relayFeedingLinksAreFreed(_ kind: RelayKind, _ ending: LeakCheckEnding) {
        switch kind {
        case .passthrough: Self.checkRelayLinks(ending, PassthroughRelay<Int>())
        case .currentValue: Self.checkRelayLinks(ending, CurrentValueRelay(0))
        }
    }

    private static func checkRelayLinks<R: Relay>(
        _ ending: LeakCheckEnding, _ relay: R, sourceLocation: SourceLocation = #_sourceLocation
    ) where R.Output == Int {
        let feed = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<Int, Never>()
        let seen = relay.record()
        expectNoLeaks(sourceLocation: sourceLocation) { tracker in
            let token = tracker.token("feed map")
            let link = tracker.watch(relay.subscribe(feed.map { token($0) }), as: "relay.subscribe(publisher) link")
            let reverse = tracker.watch(other.map { token($0) }.subscribe(relay), as: "publisher.subscribe(relay) link")
            feed.send(1)
            other.send(2)
            if ending == .cancel {
                link.cancel()
                reverse.cancel()
            } else {
                feed.send(completion: .finished)
                other.send(completion: .finished)
            }
        }
        feed.send(3)
        other.send(4)
        #expect(seen.values.suffix(2) == [1, 2], sourceLocation: sourceLocation)
        #expect(seen.completion == nil, "a relay ignores its feed's completion", sourceLocation: sourceLocation)
        withExtendedLifetime((feed, other, relay)) {}
    }
}
