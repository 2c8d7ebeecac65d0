import Streams
import Testing

@testable import REPL

/// `withPrevious()` and `currentValue`: how the session renders view-model streams without keeping their state.
@Suite struct StreamReadingTests {
    @Test func withPreviousPairsEachValueWithTheOneBefore() {
        var pairs: [String] = []
        let subject = PassthroughSubject<Int, Never>()
        let subscription = subject.withPrevious().sink { change in
            pairs.append("\(change.previous.map(String.init) ?? "nil")→\(change.current)")
        }
        subject.send(1)
        subject.send(2)
        subject.send(2)
        subject.send(5)
        #expect(pairs == ["nil→1", "1→2", "2→2", "2→5"])
        subscription.cancel()
    }

    @Test func withPreviousForwardsCompletionAndDemand() {
        var received: [Int] = []
        var finished = false
        let subscription = [7, 8, 9].publisher.withPrevious()
            .sink(receiveCompletion: { _ in finished = true }, receiveValue: { received.append($0.current) })
        #expect(received == [7, 8, 9])
        #expect(finished)
        subscription.cancel()
    }

    @Test func currentValueIsWhatTheStreamReplaysOnSubscription() {
        let subject = CurrentValueSubject<Int, Never>(3)
        #expect(subject.currentValue == 3)
        subject.send(4)
        #expect(subject.map { $0 * 10 }.currentValue == 40)
    }

    @Test func currentValueIsNilWhenNothingIsReplayed() {
        #expect(PassthroughSubject<Int, Never>().currentValue == nil)
        #expect(Empty<Int, Never>().currentValue == nil)
    }

    @Test func currentValueOfASharedStreamDoesNotStartItAgain() {
        var subscriptions = 0
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.handleEvents(receiveSubscription: { _ in subscriptions += 1 }).share(replay: 1)
        let first = shared.sink { _ in }
        subject.send(6)
        #expect(shared.currentValue == 6)
        #expect(subscriptions == 1)
        first.cancel()
    }
}
