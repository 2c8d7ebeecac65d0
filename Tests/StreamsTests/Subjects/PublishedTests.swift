import Dispatch
import Streams
import Testing

/// `@Published`, `ObservableObject` and `assign(to: &$property)`, as a Combine view model uses them.
@Suite struct PublishedTests {
    /// Also used by `ObservableObjectTests`.
    final class SearchModel: ObservableObject {
        @Published var query = ""
        @Published var page = 1
        var plain = 0
    }

    final class PagedModel: ObservableObject {
        @Published var query = ""
        @Published private(set) var length = 0
        init() { $query.map(\.count).assign(to: &$length) }
    }

    /// Shared across threads: sound as `@unchecked Sendable` because its only state is `@Published`
    /// storage, which guards itself with a lock. Also used by `ObservableObjectTests`.
    final class SharedModel: ObservableObject, @unchecked Sendable {
        @Published var page = 0
    }

    @Test func theProjectedPublisherSendsTheCurrentValueThenEachChange() {
        let model = SearchModel()
        var received: [String] = []
        let subscription = model.$query.sink { received.append($0) }
        model.query = "s"
        model.query = "sw"
        #expect(received == ["", "s", "sw"])
        #expect(model.query == "sw")
        subscription.cancel()
        model.query = "swift"
        #expect(received == ["", "s", "sw"])
    }

    @Test func aChangeIsPublishedOnWillSet() {
        let model = SearchModel()
        var seen: [(received: String, stored: String)] = []
        let subscription = model.$query.dropFirst().sink { seen.append(($0, model.query)) }
        model.query = "new"
        #expect(seen.map(\.received) == ["new"])
        #expect(seen.map(\.stored) == [""])  // still the old value while subscribers receive the new one
        #expect(model.query == "new")
        _ = subscription
    }

    @Test func assignToAPublishedPropertyLastsAsLongAsItsObject() {
        weak var freed: PagedModel?
        do {
            let model = PagedModel()
            freed = model
            var lengths: [Int] = []
            let subscription = model.$length.sink { lengths.append($0) }
            model.query = "swift"
            #expect(model.length == 5)
            #expect(lengths == [0, 5])
            subscription.cancel()
        }
        #expect(freed == nil)  // no retain cycle through the assignment
    }

    @Test func assignNotifiesObjectWillChange() {
        let model = PagedModel()
        var count = 0
        let subscription = model.objectWillChange.sink { count += 1 }
        model.query = "ab"  // query and length both change
        #expect(count == 2)
        _ = subscription
    }

    @Test func aSubscriberGetsOnlyWhatItRequests() {
        let model = SearchModel()
        let subscriber = HandWrittenSubscriber<String, Never>()
        model.$query.subscribe(subscriber)
        model.query = "a"
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value("a")])
        model.query = "b"
        model.query = "c"
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value("a"), .value("c")])
    }

    @Test func concurrentSetsArePublishedWithoutLoss() {
        let model = SharedModel()
        let count = Locked(0)
        let subscription = model.$page.dropFirst().sink { _ in count.withLock { $0 += 1 } }
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            for step in 0..<100 { model.page = index * 1_000 + step }
        }
        #expect(count.withLock { $0 } == 800)
        _ = subscription
    }
}
