import Foundation
import Networking
import Observation
import Streams
import StreamsTesting
import Testing

@testable import Features

/// The `@Observable` façade over the product search, both ways, on virtual time: setting `query` searches
/// through the view model's debounce (Observation → stream), and the view model's state reaches observers
/// (stream → Observation).
@Suite struct ObservableProductSearchTests {
    private let scheduler = TestScheduler()
    private let temporary = TemporaryDirectory()

    private func model(_ client: StubClient) throws -> (ObservableProductSearch, ProductSearchViewModel) {
        let viewModel = ProductSearchViewModel(
            catalog: NetworkProductCatalog(client: client, baseURL: Fixtures.baseURL),
            store: try FeatureStore(directory: temporary.url), scheduler: scheduler)
        return (ObservableProductSearch(viewModel: viewModel, scheduler: scheduler), viewModel)
    }

    @Test func settingTheQuerySearchesThroughTheDebounce() throws {
        let client = StubClient.serving(bundleOn: scheduler)
        let (model, _) = try model(client)
        for text in ["f", "fo", "foc", "focus"] {
            model.query = text
            scheduler.advance(by: .milliseconds(100))
        }
        #expect(client.requests.isEmpty)  // typing: the debounce has not fired
        scheduler.advance(by: .seconds(1))
        #expect(client.requests.map { $0.value("search") } == ["focus"])
        #expect(client.requests.first?.time == .milliseconds(800))
        guard case .results(let results) = model.state else {
            Issue.record("no results: \(model.state)")
            return
        }
        #expect(results.query.search == "focus")
    }

    @Test func observersSeeTheStateChange() throws {
        let client = StubClient.serving(bundleOn: scheduler)
        let (model, _) = try model(client)
        let changed = Locked(false)
        withObservationTracking {
            _ = model.state
        } onChange: {
            changed.withLock { $0 = true }
        }
        // And as a stream again, through Observed: every state the model took.
        let states = Observed(on: scheduler) { model.state }.record(on: scheduler)
        model.query = "focus"
        scheduler.advance(by: .seconds(1))
        #expect(changed.withLock { $0 })
        let kinds = states.values.map { state -> String in
            switch state {
            case .idle: "idle"
            case .loading: "loading"
            case .results: "results"
            default: "other"
            }
        }
        #expect(kinds == ["idle", "loading", "results"])
    }

    @Test func submitSearchesAQuerySetInTheSameTurnAtOnce() throws {
        let client = StubClient.serving(bundleOn: scheduler)
        let (model, _) = try model(client)
        model.query = "bentley"
        model.submit()
        scheduler.advance(by: .milliseconds(100))
        #expect(client.requests.map { $0.value("search") } == ["bentley"])
        #expect(client.requests.first?.time == .zero)
        scheduler.advance(by: .seconds(1))
        #expect(client.requests.count == 1)  // the debounce does not search it again
    }

    @Test func theBasketAndFavouritesFollowTheStore() throws {
        let client = StubClient.serving(bundleOn: scheduler)
        let (model, viewModel) = try model(client)
        model.query = "focus"
        scheduler.advance(by: .seconds(1))
        guard case .results(let results) = model.state, let product = results.products.first else {
            Issue.record("no results")
            return
        }
        try viewModel.addFavourite(product)
        try viewModel.addToBasket(product, quantity: 2)
        scheduler.advance()
        #expect(model.favourites.map(\.id) == [product.id])
        #expect(model.basket.itemCount == 2)
    }

    @Test func releasingTheModelEndsItsSubscriptions() throws {
        let client = StubClient.serving(bundleOn: scheduler)
        weak var released: ObservableProductSearch?
        let viewModel: ProductSearchViewModel
        do {
            let (model, search) = try model(client)
            viewModel = search
            released = model
            model.query = "focus"
            scheduler.advance(by: .seconds(1))
        }
        #expect(released == nil)
        viewModel.search("bentley")  // nothing left to assign to: no crash, nothing retained
        scheduler.advance(by: .seconds(1))
    }
}
