import Streams
import StreamsTesting
import Testing

/// Combine's scheduler vocabulary (`S.SchedulerTimeType.Stride`, `now.advanced(by:)`, `distance(to:)`,
/// `minimumTolerance`, the repeating `schedule(after:interval:)`) on Streams' one time model, on virtual time.
@Suite struct CombineSchedulerVocabularyTests {
    /// A view model written as Combine code writes a testable one: generic over its scheduler, with the
    /// interval typed through the scheduler.
    final class QueryModel<S: Scheduler> {
        let interval: S.SchedulerTimeType.Stride
        let query = PassthroughSubject<String, Never>()
        private(set) var searched: [String] = []
        private var cancellable: AnyCancellable?

        init(scheduler: S, interval: S.SchedulerTimeType.Stride = .milliseconds(300)) {
            self.interval = interval
            cancellable = query.debounce(for: interval, scheduler: scheduler).sink { [unowned self] in
                searched.append($0)
            }
        }
    }

    @Test func aModelGenericOverItsSchedulerRunsOnVirtualTime() {
        let scheduler = TestScheduler()
        let model = QueryModel(scheduler: scheduler)
        model.query.send("s")
        scheduler.advance(by: .milliseconds(100))
        model.query.send("sw")
        scheduler.advance(by: .milliseconds(299))
        #expect(model.searched == [])
        scheduler.advance(by: .milliseconds(1))
        #expect(model.searched == ["sw"])
        #expect(model.interval == .milliseconds(300))
    }

    @Test func instantsAdvanceAndMeasureInDurations() {
        let scheduler = TestScheduler()
        let start: TestScheduler.SchedulerTimeType = scheduler.now
        let later = start.advanced(by: .seconds(2))
        #expect(start.distance(to: later) == .seconds(2))
        #expect(later.distance(to: start) == .seconds(-2))
        #expect(start.duration(to: later) == .seconds(2))
        let stride: TestScheduler.SchedulerTimeType.Stride = 0.5
        #expect(stride == .milliseconds(500))
        #expect(scheduler.minimumTolerance == .zero)
    }

    @Test func aRepeatingScheduleRunsEveryIntervalWithoutDriftUntilCancelled() {
        let scheduler = TestScheduler()
        let runs = Locked<[Duration]>([])
        let ticking = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)) {
            runs.withLock { $0.append(scheduler.now.offset) }
        }
        scheduler.advance(by: .milliseconds(3_500))
        #expect(runs.withLock { $0 } == [.seconds(1), .seconds(2), .seconds(3)])
        ticking.cancel()
        scheduler.advance(by: .seconds(10))
        #expect(runs.withLock { $0 }.count == 3)
    }

    @Test func aOneShotScheduleWithAToleranceRunsOnceAtItsDeadlineAsInCombine() {
        let scheduler = TestScheduler()
        let runs = Locked<[Duration]>([])
        scheduler.schedule(after: scheduler.now + .seconds(1), tolerance: .milliseconds(10)) {
            runs.withLock { $0.append(scheduler.now.offset) }
        }
        scheduler.advance(by: .milliseconds(999))
        #expect(runs.withLock { $0 }.isEmpty)
        scheduler.advance(by: .seconds(5))
        #expect(runs.withLock { $0 } == [.seconds(1)])
    }

    @Test func aRepeatingScheduleGoesOnWhenItsCancellableIsDroppedAsInCombine() {
        let scheduler = TestScheduler()
        let count = Locked(0)
        _ = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { count.withLock { $0 += 1 } }
        scheduler.advance(by: .seconds(4))
        #expect(count.withLock { $0 } == 5)  // at 0, 1, 2, 3 and 4 seconds
    }

    @Test func aNonPositiveIntervalRunsOnce() {
        let scheduler = TestScheduler()
        let count = Locked(0)
        let once = scheduler.schedule(after: scheduler.now, interval: .zero) { count.withLock { $0 += 1 } }
        scheduler.advance(by: .seconds(5))
        #expect(count.withLock { $0 } == 1)
        once.cancel()
    }

    @Test func cancellingFromInsideARunStopsTheNextOnes() {
        let scheduler = TestScheduler()
        let count = Locked(0)
        let slot = Locked<(any Cancellable)?>(nil)
        let ticking = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {
            if count.withLock({ count in
                count += 1
                return count
            }) == 2 {
                slot.withLock { $0 }?.cancel()
            }
        }
        slot.withLock { $0 = ticking }
        scheduler.advance(by: .seconds(5))
        #expect(count.withLock { $0 } == 2)
    }
}
