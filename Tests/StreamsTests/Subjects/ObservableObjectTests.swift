import Dispatch
import Streams
import Testing

/// `ObservableObject`'s default `objectWillChange`: it sends before each `@Published` property changes (its
/// own and its superclasses'), never for an object without one, and is one publisher per object.
@Suite struct ObservableObjectTests {
    typealias SearchModel = PublishedTests.SearchModel
    typealias SharedModel = PublishedTests.SharedModel

    class BaseModel: ObservableObject {
        @Published var base = 0
    }

    final class DerivedModel: BaseModel {
        @Published var derived = ""
    }

    final class Unpublished: ObservableObject {
        var value = 0
    }

    @Test func objectWillChangeSendsBeforeEveryPublishedPropertyChangesAndNotForOthers() {
        let model = SearchModel()
        var log: [String] = []
        let willChange = model.objectWillChange.sink {
            log.append("will change: query \(model.query), page \(model.page)")
        }
        let query = model.$query.dropFirst().sink { log.append("query \($0)") }
        model.query = "tea"
        model.page = 2
        model.plain = 9
        #expect(
            log == ["will change: query , page 1", "query tea", "will change: query tea, page 1"])
        #expect(model.objectWillChange === model.objectWillChange)
        _ = (willChange, query)
    }

    @Test func superclassPropertiesAnnounceThroughTheSameObjectWillChange() {
        let model = DerivedModel()
        var count = 0
        let subscription = model.objectWillChange.sink { count += 1 }
        model.base = 1
        model.derived = "x"
        #expect(count == 2)
        _ = subscription
    }

    @Test func anObjectWithoutPublishedPropertiesGetsAPublisherThatNeverSends() {
        let model = Unpublished()
        var count = 0
        let subscription = model.objectWillChange.sink { count += 1 }
        model.value = 1
        #expect(count == 0)
        _ = subscription
    }

    @Test func objectWillChangeIsTheSameWhenFirstReadOnManyThreadsAtOnce() {
        for _ in 0..<50 {
            let model = SharedModel()
            let publishers = Locked<[ObservableObjectPublisher]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                let publisher = model.objectWillChange
                publishers.withLock { $0.append(publisher) }
            }
            let all = publishers.withLock { $0 }
            #expect(all.allSatisfy { $0 === all[0] })
        }
    }
}
