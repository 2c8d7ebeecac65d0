import Streams
import StreamsTesting
import Testing

@Suite struct TryRemoveDuplicatesTests {
    typealias Sub = HandWrittenSubscriber<Int, any Error>

    @Test func tryRemoveDuplicatesDropsValuesEqualToThePreviousOne() {
        let recorder = [1, 1, 2, 2, 1].publisher.tryRemoveDuplicates(by: ==).record()
        #expect(recorder.values == [1, 2, 1])
        #expect(recorder.isFinished)
    }

    @Test func previousIsTheLastValuePublishedAsForRemoveDuplicates() {
        // "Duplicate" = within 2 of the previous: 1 publishes, 2 and 3 are within 2 of 1 (the last published,
        // not of 2, the last seen), 4 is not.
        let values = [1, 2, 3, 4, 5, 7]
        let isClose: (Int, Int) -> Bool = { abs($0 - $1) <= 2 }
        let tried = values.publisher.tryRemoveDuplicates(by: isClose).record()
        let plain = values.publisher.removeDuplicates(by: isClose).record()
        #expect(tried.values == [1, 4, 7])
        #expect(tried.values == plain.values)
    }

    @Test func thePredicateIsNotCalledForTheFirstValue() {
        var calls: [[Int]] = []
        let recorder = [5, 5, 6].publisher.tryRemoveDuplicates { previous, value in
            calls.append([previous, value])
            return previous == value
        }.record()
        #expect(recorder.values == [5, 6])
        #expect(calls == [[5, 5], [5, 6]])
    }

    @Test func theSubscriberGetsExactlyWhatItAskedFor() {
        let subscriber = Sub(initial: .max(1))
        [1, 1, 2, 2, 3, 3].publisher.tryRemoveDuplicates(by: ==).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
    }
}
