import Features
import Foundation
import Networking
import Streams
import StreamsTesting
import Testing

/// The pipelines on the real `LocalClient` with the bundled data (the one-line swap's local side).
@Suite struct FeatureRoutesTests {
    @Test func theLocalClientSearchesPagesAndSortsTheBundledCatalogue() async throws {
        let client = try LocalClient.features()
        let catalog = NetworkProductCatalog(client: client, baseURL: FeatureEndpoint.localBaseURL)
        let scheduler = TestScheduler()
        var query = ProductQuery()
        query.sort = .priceAscending
        let recorder = catalog.page(for: query).record(on: scheduler)
        let page = try #require(recorder.values.first)
        #expect(page.products.count == 4)
        #expect(page.products.map(\.price) == page.products.map(\.price).sorted())
        #expect(page.totalCount == 74)
    }

    @Test func theLocalClientAnswersStatusCryptoAndUsers() async throws {
        let client = try LocalClient.features()
        let status = try await client.response(
            for: FeatureEndpoint(baseURL: FeatureEndpoint.localBaseURL, request: .status))
        #expect(status.statusCode == 200)
        let users = try await client.response(
            for: FeatureEndpoint(baseURL: FeatureEndpoint.localBaseURL, request: .users))
        #expect(!users.body.isEmpty)
        let crypto = try await client.response(
            for: FeatureEndpoint(baseURL: FeatureEndpoint.localBaseURL, request: .cryptoPrices))
        #expect(!crypto.body.isEmpty)
    }

    @Test func latencyArrivesAtAnExactVirtualTime() throws {
        let scheduler = TestScheduler()
        let client = try LocalClient.features(latency: .milliseconds(300), scheduler: scheduler)
        let catalog = NetworkProductCatalog(client: client, baseURL: FeatureEndpoint.localBaseURL)
        let recorder = catalog.page(for: ProductQuery()).record(on: scheduler)
        scheduler.advance(by: .milliseconds(299))
        #expect(recorder.events.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.values.count == 1)
    }
}
