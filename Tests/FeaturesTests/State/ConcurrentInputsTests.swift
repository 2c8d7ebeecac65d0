import Dispatch
import Foundation
import Networking
import Streams
import StreamsTesting
import Testing

@testable import Features

@Suite struct ConcurrentInputsTests {
    @Test func concurrentUpdatesOfARelayEndWithTheLatestValuePublishedLast() {
        let relay = StateRelay(0)
        let published = Locked<[Int]>([])
        let subscription = relay.publisher.sink { value in published.withLock { $0.append(value) } }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 { relay.update { $0 += 1 } }
        }
        let values = published.withLock { $0 }
        #expect(values.last == 1600)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 })  // never an older value after a newer one
        subscription.cancel()
    }

    @Test func concurrentFetchesSendOneRequest() throws {
        let scheduler = TestScheduler()
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let client = StubClient(scheduler: scheduler) { _ in .ok(NetworkResponse(statusCode: 200)) }
        let counter = FetchCounterViewModel(
            client: client, baseURL: Fixtures.baseURL,
            store: try FeatureStore(directory: temporary.url),
            scheduler: scheduler)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<20 { counter.fetch() }
        }
        scheduler.advance(by: .milliseconds(100))
        #expect(client.requests.count == 1)
        #expect(counter.state.record().values.last?.count == 1)
    }

    @Test func concurrentSearchInputsSettleOnOneOfTheTextsAndShowItsResults() throws {
        let scheduler = TestScheduler()
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let client = StubClient.serving(bundleOn: scheduler)
        let search = ProductSearchViewModel(
            catalog: NetworkProductCatalog(client: client, baseURL: Fixtures.baseURL),
            store: try FeatureStore(directory: temporary.url), scheduler: scheduler)
        let recorder = search.state.record(on: scheduler)
        let texts = ["audi", "bmw", "ford", "kia"]
        DispatchQueue.concurrentPerform(iterations: texts.count) { index in
            search.search(texts[index])
            search.sort(by: index.isMultiple(of: 2) ? .newest : .oldest)
            search.loadNextPage()
        }
        scheduler.advance(by: .seconds(2))
        guard case .results(let results)? = recorder.values.last else {
            Issue.record("expected results, got \(String(describing: recorder.values.last))")
            return
        }
        #expect(texts.contains(results.query.search))
        #expect(results.products.allSatisfy { results.query.matches($0) })
    }
}
