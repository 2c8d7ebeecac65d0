import Streams
import StreamsTesting
import Testing

/// How a leak check ends its subscription.
enum LeakCheckEnding: CaseIterable, Sendable, CustomStringConvertible {
    /// The subscriber cancels while the upstream is still alive.
    case cancel
    /// The upstream completes (finishes or fails).
    case complete

    var description: String { self == .cancel ? "cancel" : "complete" }
}

private struct LeakCheckError: Error, Equatable {}

/// Subscribes, sends, then cancels or completes each pipeline, with the upstream subjects (and scheduler) kept
/// alive outside the checked body: what they, or a cycle, still retain afterwards is reported by type.
@Suite struct LeakChecks {
    @Test(arguments: LeakCheckEnding.allCases) func map(_ ending: LeakCheckEnding) {
        let subject = PassthroughSubject<Int, Never>()
        expectNoLeaks { tracker in
            let token = tracker.token("map transform")
            let recorder = tracker.record(subject.map { token($0 * 2) })
            #expect(tracker.watchedCount == 3)  // the token, the recorder and the subscription it received
            subject.send(1)
            if ending == .cancel { recorder.cancel() } else { subject.send(completion: .finished) }
            #expect(recorder.values == [2])
        }
        withExtendedLifetime(subject) {}
    }

    @Test(arguments: LeakCheckEnding.allCases) func filter(_ ending: LeakCheckEnding) {
        let subject = PassthroughSubject<Int, Never>()
        expectNoLeaks { tracker in
            let token = tracker.token("filter predicate")
            let recorder = tracker.record(subject.filter { token($0.isMultiple(of: 2)) })
            subject.send(1)
            subject.send(2)
            if ending == .cancel { recorder.cancel() } else { subject.send(completion: .finished) }
            #expect(recorder.values == [2])
        }
        withExtendedLifetime(subject) {}
    }

    @Test(arguments: LeakCheckEnding.allCases) func scan(_ ending: LeakCheckEnding) {
        let subject = PassthroughSubject<Int, Never>()
        expectNoLeaks { tracker in
            let token = tracker.token("scan accumulator")
            let recorder = tracker.record(subject.scan(0) { token($0 + $1) })
            subject.send(1)
            subject.send(2)
            if ending == .cancel { recorder.cancel() } else { subject.send(completion: .finished) }
            #expect(recorder.values == [1, 3])
        }
        withExtendedLifetime(subject) {}
    }

    @Test(arguments: LeakCheckEnding.allCases) func flatMap(_ ending: LeakCheckEnding) {
        let outer = PassthroughSubject<Int, Never>()
        let inners = [PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()]
        expectNoLeaks { tracker in
            let token = tracker.token("flatMap transform")
            let recorder = tracker.record(outer.flatMap { index in token(inners[index]) })
            outer.send(0)
            outer.send(1)
            inners[0].send(10)
            inners[1].send(20)
            if ending == .cancel {
                recorder.cancel()
            } else {
                outer.send(completion: .finished)
                inners[0].send(completion: .finished)
                inners[1].send(completion: .finished)
            }
            #expect(recorder.values == [10, 20])
        }
        withExtendedLifetime((outer, inners)) {}
    }

    @Test(arguments: LeakCheckEnding.allCases) func switchToLatest(_ ending: LeakCheckEnding) {
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        expectNoLeaks { tracker in
            let recorder = tracker.record(outer.switchToLatest())
            outer.send(first)
            first.send(1)
            outer.send(second)
            first.send(2)
            second.send(3)
            if ending == .cancel {
                recorder.cancel()
            } else {
                outer.send(completion: .finished)
                second.send(completion: .finished)
            }
            #expect(recorder.values == [1, 3])
        }
        withExtendedLifetime((outer, first, second)) {}
    }

    @Test(arguments: LeakCheckEnding.allCases) func debounce(_ ending: LeakCheckEnding) {
        let subject = PassthroughSubject<Int, Never>()
        let scheduler = TestScheduler()
        expectNoLeaks { tracker in
            let token = tracker.token("map before debounce")
            let recorder = tracker.record(
                subject.map { token($0) }.debounce(for: .milliseconds(500), scheduler: scheduler), on: scheduler)
            subject.send(1)
            scheduler.advance(by: .seconds(1))
            subject.send(2)  // its timer is pending when the subscription ends
            if ending == .cancel { recorder.cancel() } else { subject.send(completion: .finished) }
            scheduler.advance(by: .seconds(1))
            #expect(recorder.values.first == 1)
        }
        #expect(scheduler.pendingCount == 0)
        withExtendedLifetime((subject, scheduler)) {}
    }

    @Test(arguments: LeakCheckEnding.allCases) func share(_ ending: LeakCheckEnding) {
        let subject = PassthroughSubject<Int, Never>()
        expectNoLeaks { tracker in
            let token = tracker.token("map before share")
            let shared = subject.map { token($0) }.share()
            let first = tracker.record(shared)
            let second = tracker.record(shared)
            subject.send(1)
            if ending == .cancel {
                first.cancel()
                second.cancel()
            } else {
                subject.send(completion: .finished)
            }
            #expect(first.values == [1])
            #expect(second.values == [1])
        }
        withExtendedLifetime(subject) {}
    }

    @Test(arguments: LeakCheckEnding.allCases) func combineLatest(_ ending: LeakCheckEnding) {
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        expectNoLeaks { tracker in
            let token = tracker.token("combineLatest transform")
            let recorder = tracker.record(left.combineLatest(right) { token($0 + $1) })
            left.send(1)
            right.send(10)
            if ending == .cancel {
                recorder.cancel()
            } else {
                left.send(completion: .finished)
                right.send(completion: .finished)
            }
            #expect(recorder.values == [11])
        }
        withExtendedLifetime((left, right)) {}
    }

    @Test(arguments: LeakCheckEnding.allCases) func zip(_ ending: LeakCheckEnding) {
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        expectNoLeaks { tracker in
            let token = tracker.token("zip transform")
            let recorder = tracker.record(left.zip(right) { token($0 + $1) })
            left.send(1)
            left.send(2)
            right.send(10)
            if ending == .cancel { recorder.cancel() } else { left.send(completion: .finished) }
            if ending == .complete { right.send(completion: .finished) }
            #expect(recorder.values == [11])
        }
        withExtendedLifetime((left, right)) {}
    }

    @Test(arguments: LeakCheckEnding.allCases) func merge(_ ending: LeakCheckEnding) {
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        expectNoLeaks { tracker in
            let recorder = tracker.record(left.merge(with: right))
            left.send(1)
            right.send(2)
            if ending == .cancel {
                recorder.cancel()
            } else {
                left.send(completion: .finished)
                right.send(completion: .finished)
            }
            #expect(recorder.values == [1, 2])
        }
        withExtendedLifetime((left, right)) {}
    }

    @Test(arguments: LeakCheckEnding.allCases) func `catch`(_ ending: LeakCheckEnding) {
        let subject = PassthroughSubject<Int, LeakCheckError>()
        let fallback = PassthroughSubject<Int, Never>()
        expectNoLeaks { tracker in
            let token = tracker.token("catch handler")
            let recorder = tracker.record(subject.catch { _ in token(fallback) })
            subject.send(1)
            if ending == .cancel {
                recorder.cancel()
            } else {
                subject.send(completion: .failure(LeakCheckError()))
                fallback.send(2)
                fallback.send(completion: .finished)
            }
            #expect(recorder.values == (ending == .cancel ? [1] : [1, 2]))
        }
        withExtendedLifetime((subject, fallback)) {}
    }

    @Test(arguments: LeakCheckEnding.allCases) func catchAfterTheSwitch(_ ending: LeakCheckEnding) {
        let subject = PassthroughSubject<Int, LeakCheckError>()
        let fallback = PassthroughSubject<Int, Never>()
        expectNoLeaks { tracker in
            let recorder = tracker.record(subject.catch { _ in fallback })
            subject.send(completion: .failure(LeakCheckError()))
            fallback.send(2)
            if ending == .cancel { recorder.cancel() } else { fallback.send(completion: .finished) }
            #expect(recorder.values == [2])
        }
        withExtendedLifetime((subject, fallback)) {}
    }

    @Test(arguments: LeakCheckEnding.allCases) func retry(_ ending: LeakCheckEnding) {
        let subject = PassthroughSubject<Int, LeakCheckError>()
        expectNoLeaks { tracker in
            let token = tracker.token("map before retry")
            let recorder = tracker.record(subject.map { token($0) }.retry(2))
            subject.send(1)
            subject.send(completion: .failure(LeakCheckError()))  // PassthroughSubject stays failed: retries end
            if ending == .cancel { recorder.cancel() }
            #expect(recorder.values == [1])
        }
        withExtendedLifetime(subject) {}
    }

    @Test(arguments: LeakCheckEnding.allCases) func retryResubscribing(_ ending: LeakCheckEnding) {
        let attempts = Locked(0)
        let later = PassthroughSubject<Int, LeakCheckError>()
        expectNoLeaks { tracker in
            let token = tracker.token("deferred factory")
            let upstream = Deferred { () -> AnyPublisher<Int, LeakCheckError> in
                let attempt = attempts.withLock { count -> Int in
                    count += 1
                    return count
                }
                return token(attempt == 1 ? Fail(error: LeakCheckError()).eraseToAnyPublisher() : later.eraseToAnyPublisher())
            }
            let recorder = tracker.record(upstream.retry(3))
            later.send(5)
            if ending == .cancel { recorder.cancel() } else { later.send(completion: .finished) }
            #expect(recorder.values == [5])
        }
        #expect(attempts.withLock { $0 } == 2)
        withExtendedLifetime(later) {}
    }
}
