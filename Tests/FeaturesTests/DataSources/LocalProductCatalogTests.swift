import Foundation
import Networking
import Streams
import StreamsTesting
import Testing

@testable import Features

/// `LocalProductCatalog` (Sources/Features/DataSources/LocalProductCatalog.swift): the pages it computes from the
/// model values are the pages the search endpoint answers through a client, and a latency is on virtual time.
@Suite struct LocalProductCatalogTests {
    /// A product with the given names (the rest does not matter here).
    private static func car(_ id: String, _ brand: String, _ model: String) -> Product {
        Product(
            id: id, name: "\(brand) \(model)", brand: brand, model: model, price: 10, description: "", image: "",
            createdAt: Date(timeIntervalSince1970: 0))
    }

    /// The page `catalog` publishes for `query` (both catalogs answer at once here); `nil` if it failed or
    /// published nothing.
    private func answer(_ catalog: any ProductCatalog, _ query: ProductQuery) -> ProductPage? {
        var result: ProductPage?
        let cancellable = catalog.page(for: query).sink(receiveCompletion: { _ in }, receiveValue: { result = $0 })
        withExtendedLifetime(cancellable) {}
        return result
    }

    @Test func servesTheSamePagesAsTheSearchEndpointThroughTheLocalClient() throws {
        let local = try LocalProductCatalog.bundled()
        let network = NetworkProductCatalog(client: try LocalClient.features(), baseURL: FeatureEndpoint.localBaseURL)
        #expect(local.products.count == 74)
        let brands = Array(Set(local.products.map(\.brand))).sorted()
        let models = Array(Set(local.products.map(\.model))).sorted()
        var compared = 0
        for search in ["", "   ", "focus", "FORD", " rover ", "e", "no such car"] {
            for sort in [nil] + ProductSort.allCases.map(Optional.some) {
                for filter in [(Set<String>(), Set<String>()), ([brands[0]], []), ([], [models[1]]), (Set(brands), [])]
                {
                    for (number, limit) in [(1, 4), (2, 4), (19, 4), (20, 4), (1, 1), (3, 7), (1, 100)] {
                        let query = ProductQuery(
                            search: search, brands: filter.0, models: filter.1, sort: sort, page: number, limit: limit)
                        let served = answer(local, query)
                        #expect(served != nil)
                        #expect(served == answer(network, query), "\(query)")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared == 7 * 5 * 4 * 7)
    }

    @Test func aPageIsComputedWhenSubscribedAndFinishes() {
        let products = [Self.car("1", "Ford", "Focus"), Self.car("2", "Kia", "Rio")]
        let catalog = LocalProductCatalog(products: products)
        let recorder = catalog.page(for: ProductQuery(search: "rio")).record()
        #expect(recorder.values == [ProductPage(products: [products[1]], page: 1, limit: 4, totalCount: 1)])
        #expect(recorder.isFinished)
    }

    /// A catalogue of one car answering 100 ms late on `scheduler`.
    private static func slowCatalog(on scheduler: TestScheduler) -> LocalProductCatalog {
        LocalProductCatalog(products: [car("1", "Ford", "Focus")], latency: .milliseconds(100), scheduler: scheduler)
    }

    @Test func withALatencyThePageArrivesThatMuchLaterOnTheScheduler() {
        let scheduler = TestScheduler()
        let recorder = Self.slowCatalog(on: scheduler).page(for: ProductQuery()).record(on: scheduler)
        scheduler.advance(by: .milliseconds(99))
        #expect(recorder.values.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.values.map { $0.products.count } == [1])
        #expect(recorder.isFinished)
    }

    @Test func cancellingBeforeTheLatencyPublishesNothing() {
        let scheduler = TestScheduler()
        let recorder = Self.slowCatalog(on: scheduler).page(for: ProductQuery()).record(on: scheduler)
        scheduler.advance(by: .milliseconds(50))
        recorder.cancel()
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events.isEmpty)
    }
}
