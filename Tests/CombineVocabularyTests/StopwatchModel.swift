// A stopwatch and a countdown written as Combine apps write them (only `import Combine` became `import Streams`
// plus `import StreamsFoundation`): `Timer.publish(every:on:in: .common).autoconnect()` (on `.main` in the
// app), `scan`, `prefix(untilOutputFrom:)`, `CurrentValueSubject` state, and `makeConnectable()` / `connect()`
// to share one countdown between two subscribers. The interval and run loop are injected so the tests tick fast
// on a loop they can turn.
import Dispatch
import Foundation
import Streams
import StreamsFoundation
import Testing

final class StopwatchModel: ObservableObject {
    enum State: Equatable {
        case idle
        case running
        case paused
    }

    let state = CurrentValueSubject<State, Never>(.idle)
    @Published private(set) var elapsedSeconds = 0

    private let tickInterval: TimeInterval
    private let runLoop: RunLoop
    private let stopSignal = PassthroughSubject<Void, Never>()
    private var timerCancellable: AnyCancellable?

    /// `runLoop` is `.main` in the app; the tests pass their own thread's loop (see `turn(_:for:until:)`).
    init(tickInterval: TimeInterval = 1, runLoop: RunLoop = .main) {
        self.tickInterval = tickInterval
        self.runLoop = runLoop
    }

    func start() {
        guard state.value != .running else { return }
        state.send(.running)
        timerCancellable = Timer.publish(every: tickInterval, on: runLoop, in: .common)
            .autoconnect()
            .prefix(untilOutputFrom: stopSignal)
            .scan(elapsedSeconds) { seconds, _ in seconds + 1 }
            .sink { [weak self] seconds in self?.elapsedSeconds = seconds }
    }

    func pause() {
        stopSignal.send()
        state.send(.paused)
    }

    func reset() {
        stopSignal.send()
        timerCancellable = nil
        elapsedSeconds = 0
        state.value = .idle
    }
}

/// A countdown whose remaining seconds drive two views, sharing one timer.
final class CountdownModel {
    let remaining: Publishers.MakeConnectable<AnyPublisher<Int, Never>>
    private var connection: Cancellable?

    init(from seconds: Int, tickInterval: TimeInterval = 1, runLoop: RunLoop = .main) {
        remaining = Timer.publish(every: tickInterval, on: runLoop, in: .common)
            .autoconnect()
            .scan(seconds) { remaining, _ in remaining - 1 }
            .prepend(seconds)
            .prefix(while: { $0 >= 0 })
            .eraseToAnyPublisher()
            .makeConnectable()
    }

    func start() {
        connection = remaining.connect()
    }

    func cancel() {
        connection?.cancel()
    }
}

@Suite struct StopwatchModelTests {
    @Test func theStopwatchCountsTicksAndStopsWhenPaused() {
        let runLoop = RunLoop.current
        let stopwatch = StopwatchModel(tickInterval: 0.02, runLoop: runLoop)
        var states: [StopwatchModel.State] = []
        let watch = stopwatch.state.sink { states.append($0) }
        #expect(states == [.idle])  // a CurrentValueSubject replays its value to a new subscriber

        stopwatch.start()
        #expect(turn(runLoop) { stopwatch.elapsedSeconds >= 3 })
        stopwatch.pause()
        let atPause = stopwatch.elapsedSeconds
        // Five more intervals on the run loop: the timer was cancelled, so nothing may tick any more.
        _ = turn(runLoop, for: 0.1) { stopwatch.elapsedSeconds != atPause }
        #expect(stopwatch.elapsedSeconds == atPause)
        #expect(states == [.idle, .running, .paused])

        stopwatch.start()  // resumes from where it paused: scan starts at the elapsed seconds
        #expect(turn(runLoop) { stopwatch.elapsedSeconds >= atPause + 2 })
        stopwatch.reset()
        #expect(stopwatch.elapsedSeconds == 0)
        #expect(stopwatch.state.value == .idle)
        #expect(states == [.idle, .running, .paused, .running, .idle])
        _ = watch
    }

    /// Combine's first tick comes one interval after connecting, so a stopwatch started with a 0.5 s interval
    /// shows 0 for the first 0.5 s.
    @Test func theFirstTickComesAfterOneInterval() {
        let runLoop = RunLoop.current
        let stopwatch = StopwatchModel(tickInterval: 0.5, runLoop: runLoop)
        stopwatch.start()
        #expect(!turn(runLoop, for: 0.3) { stopwatch.elapsedSeconds > 0 })
        #expect(turn(runLoop) { stopwatch.elapsedSeconds == 1 })
    }

    @Test func aConnectableCountdownFeedsTwoViewsFromOneTimer() {
        let runLoop = RunLoop.current
        let countdown = CountdownModel(from: 3, tickInterval: 0.02, runLoop: runLoop)
        var label: [Int] = []
        var progress: [Double] = []
        var finished = false
        let labelSubscription = countdown.remaining.sink { label.append($0) }
        let progressSubscription = countdown.remaining
            .map { Double(3 - $0) / 3 }
            .sink(receiveCompletion: { _ in finished = true }, receiveValue: { progress.append($0) })
        #expect(label.isEmpty)  // nothing until connect()
        countdown.start()
        #expect(turn(runLoop) { finished })
        #expect(label == [3, 2, 1, 0])
        let expectedProgress: [Double] = [0, 1.0 / 3, 2.0 / 3, 1]
        #expect(progress == expectedProgress)
        _ = (labelSubscription, progressSubscription)
    }
}
