import Foundation
import Networking
import Streams
import StreamsTesting
import Testing

@testable import Features

@Suite struct ProductSearchViewModelTests {
    private let scheduler = TestScheduler()
    /// Removed with the suite instance, after each test.
    private let temporary = TemporaryDirectory()
    private var directory: URL { temporary.url }

    private func search(_ client: StubClient) throws -> ProductSearchViewModel {
        ProductSearchViewModel(
            catalog: NetworkProductCatalog(client: client, baseURL: Fixtures.baseURL),
            store: try FeatureStore(directory: directory), scheduler: scheduler)
    }

    private func results(_ state: SearchState?) -> SearchResults? {
        if case .results(let results)? = state { return results }
        return nil
    }

    private func query(_ text: String, sort: ProductSort? = nil, page: Int = 1) -> ProductQuery {
        ProductQuery(search: text, sort: sort, page: page, limit: 4)
    }

    /// A compact view of a state, to compare timelines: "loading focus", "results 1,2 of 2", …
    private func summary(_ state: SearchState) -> String {
        switch state {
        case .idle: "idle"
        case .hint: "hint"
        case .loading(let query): "loading \(query.search)"
        case .results(let results):
            "results \(results.products.map(\.id).joined(separator: ",")) of \(results.totalCount ?? -1)"
                + (results.isLoadingNextPage ? " +loading" : "") + (results.isLastPage ? " last" : "")
        case .empty(let query): "empty \(query.search)"
        case .failed(_, let message): "failed \(message)"
        }
    }

    @Test func typingIsDebouncedAndOnlyTheSettledTextIsSearched() throws {
        let client = StubClient.serving(bundleOn: scheduler)
        let viewModel = try search(client)
        let recorder = viewModel.state.record(on: scheduler)
        for (offset, text) in ["b", "be", "ben", "bentl", "bentley"].enumerated() {
            if offset > 0 { scheduler.advance(by: .milliseconds(100)) }
            viewModel.search(text)
        }
        scheduler.advance(by: .seconds(2))
        let expected = Fixtures.searchRoute.catalogue.filter { query("bentley").matches($0) }
        #expect(client.requests.map(\.time) == [.milliseconds(900)])
        #expect(client.requests.first?.value("search") == "bentley")
        #expect(
            recorder.events.map { RecordedEvent<String, Never>.value(summary($0.value!), at: $0.time) } == [
                .value("idle", at: .zero),
                .value("loading bentley", at: .milliseconds(900)),
                .value(
                    "results \(expected.prefix(4).map(\.id).joined(separator: ",")) of \(expected.count)"
                        + (expected.count <= 4 ? " last" : ""), at: .milliseconds(1000)),
            ])
    }

    @Test func theTextIsTrimmedAndRepeatsAreNotSearchedAgain() throws {
        let client = StubClient.serving(bundleOn: scheduler)
        let viewModel = try search(client)
        viewModel.search("focus")
        scheduler.advance(by: .milliseconds(200))
        viewModel.search("  focus ")  // the same once trimmed: the debounce is not restarted
        scheduler.advance(by: .milliseconds(300))
        #expect(client.requests.map(\.time) == [.milliseconds(500)])
        scheduler.advance(by: .seconds(1))
        viewModel.search("focu")
        scheduler.advance(by: .milliseconds(100))
        viewModel.search("focus\n")  // settles on the text already shown: not searched again
        scheduler.advance(by: .seconds(1))
        #expect(client.requests.count == 1)
        #expect(client.requests.first?.value("search") == "focus")
    }

    @Test func oneCharacterShowsAHintAndAnEmptyTextShowsTheWholeCatalogue() throws {
        let client = StubClient.serving(bundleOn: scheduler)
        let viewModel = try search(client)
        let recorder = viewModel.state.record(on: scheduler)
        viewModel.search("f")
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values.last == .hint(SearchState.shortTextHint))
        #expect(client.requests.isEmpty)
        viewModel.search(" ")
        scheduler.advance(by: .seconds(1))
        let whole = try #require(results(recorder.values.last))
        #expect(whole.products.map(\.id) == ["1", "2", "3", "4"])
        #expect(whole.totalCount == 74)
        #expect(client.requests.first?.value("search") == nil)
    }

    @Test func aNewerSearchCancelsTheOlderRequestAndItsResponseIsNeverShown() throws {
        let client = StubClient(scheduler: scheduler) { request in
            // "slow" takes 2 s, anything else 100 ms.
            .ok(
                Fixtures.localResponse(to: request),
                after: request.value("search") == "slow" ? .seconds(2) : .milliseconds(100))
        }
        let viewModel = try search(client)
        let recorder = viewModel.state.record(on: scheduler)
        viewModel.search("slow")
        scheduler.advance(by: .milliseconds(600))  // "slow" is requested at 500 ms
        viewModel.search("audi")  // requested at 1100 ms, answered at 1200 ms
        scheduler.advance(by: .seconds(5))
        #expect(client.requests.map { $0.value("search") ?? "" } == ["slow", "audi"])
        #expect(client.cancellations == 1)
        #expect(recorder.values.map(summary).filter { $0.hasPrefix("loading") } == ["loading slow", "loading audi"])
        let shown = try #require(results(recorder.values.last))
        #expect(shown.query.search == "audi")
        #expect(recorder.events.last?.time == .milliseconds(1200))
    }

    @Test func anOlderSearchAnsweredAfterANewerOneIsNeverShown() throws {
        // A catalog whose pages the test answers by hand: the newer first, then the older.
        let subjects = Locked<[PassthroughSubject<ProductPage, NetworkError>]>([])
        struct StubbornCatalog: ProductCatalog {
            let subjects: Locked<[PassthroughSubject<ProductPage, NetworkError>]>
            func page(for query: ProductQuery) -> AnyPublisher<ProductPage, NetworkError> {
                let subject = PassthroughSubject<ProductPage, NetworkError>()
                subjects.withLock { $0.append(subject) }
                return subject.eraseToAnyPublisher()
            }
        }
        let viewModel = ProductSearchViewModel(
            catalog: StubbornCatalog(subjects: subjects), store: try FeatureStore(directory: directory),
            scheduler: scheduler)
        let recorder = viewModel.state.record(on: scheduler)
        viewModel.search("bmw")
        scheduler.advance(by: .seconds(1))
        viewModel.search("audi")
        scheduler.advance(by: .seconds(1))
        let sent = subjects.withLock { $0 }
        #expect(sent.count == 2)
        sent[1].send(query("audi").page(of: Fixtures.products))
        sent[0].send(query("bmw").page(of: Fixtures.products))
        #expect(results(recorder.values.last)?.query.search == "audi")
        #expect(results(recorder.values.last)?.products.allSatisfy { query("audi").matches($0) } == true)
    }

    @Test func pagesAreAppendedUntilTheLastAndNoMoreAreRequested() throws {
        let client = StubClient.serving(bundleOn: scheduler)
        let viewModel = try search(client)
        let recorder = viewModel.state.record(on: scheduler)
        viewModel.search("")
        scheduler.advance(by: .seconds(1))
        var pagesLoaded = 1
        while let shown = results(recorder.values.last), !shown.isLastPage, pagesLoaded < 30 {
            viewModel.loadNextPage()
            scheduler.advance(by: .milliseconds(100))
            pagesLoaded += 1
        }
        let all = try #require(results(recorder.values.last))
        #expect(pagesLoaded == 19)
        #expect(all.products.map(\.id) == Fixtures.products.map(\.id))
        #expect(all.isLastPage)
        #expect(all.loadedPages == 19)
        viewModel.loadNextPage()
        scheduler.advance(by: .seconds(1))
        #expect(client.requests.count == 19)
        #expect(client.requests.map { $0.value("page") ?? "" } == (1...19).map(String.init))
    }

    @Test func aSecondLoadNextPageWhileOneIsInFlightIsIgnored() throws {
        let client = StubClient.serving(bundleOn: scheduler)
        let viewModel = try search(client)
        let recorder = viewModel.state.record(on: scheduler)
        viewModel.search("")
        scheduler.advance(by: .seconds(1))
        viewModel.loadNextPage()
        viewModel.loadNextPage()
        scheduler.advance(by: .milliseconds(50))
        viewModel.loadNextPage()
        #expect(results(recorder.values.last)?.isLoadingNextPage == true)
        scheduler.advance(by: .milliseconds(50))
        #expect(client.requests.count == 2)
        #expect(results(recorder.values.last)?.products.count == 8)
    }

    @Test(arguments: ProductSort.allCases)
    func sortingOrdersTheResultsAndIsSentToTheServer(sort: ProductSort) throws {
        let client = StubClient.serving(bundleOn: scheduler)
        let viewModel = try search(client)
        let recorder = viewModel.state.record(on: scheduler)
        viewModel.sort(by: sort)
        viewModel.search("")
        scheduler.advance(by: .seconds(1))
        let shown = try #require(results(recorder.values.last))
        let expected = query("", sort: sort).matchingProducts(in: Fixtures.products).prefix(4)
        #expect(shown.products.map(\.id) == expected.map(\.id))
        let pairs = zip(shown.products, shown.products.dropFirst())
        switch sort {
        case .priceAscending: #expect(pairs.allSatisfy { $0.price <= $1.price })
        case .priceDescending: #expect(pairs.allSatisfy { $0.price >= $1.price })
        case .newest: #expect(pairs.allSatisfy { $0.createdAt >= $1.createdAt })
        case .oldest: #expect(pairs.allSatisfy { $0.createdAt <= $1.createdAt })
        }
        #expect(client.requests.last?.value("sortBy") == sort.sortBy)
        #expect(client.requests.last?.value("order") == sort.order)
    }

    @Test func changingTheSortOrFiltersRestartsFromPageOneAtOnce() throws {
        let client = StubClient.serving(bundleOn: scheduler)
        let viewModel = try search(client)
        let recorder = viewModel.state.record(on: scheduler)
        viewModel.search("")
        scheduler.advance(by: .seconds(1))
        viewModel.loadNextPage()
        scheduler.advance(by: .milliseconds(100))
        #expect(results(recorder.values.last)?.loadedPages == 2)
        let requestsBefore = client.requests.count
        viewModel.sort(by: .priceDescending)
        #expect(recorder.values.last == .loading(query("", sort: .priceDescending)))
        scheduler.advance(by: .milliseconds(100))
        #expect(client.requests.count == requestsBefore + 1)
        #expect(client.requests.last?.value("page") == "1")
        let brands: Set<String> = ["Audi", "BMW"]
        viewModel.filter(brands: brands, models: [])
        scheduler.advance(by: .milliseconds(100))
        let filtered = try #require(results(recorder.values.last))
        #expect(filtered.loadedPages == 1)
        #expect(filtered.products.allSatisfy { brands.contains($0.brand) })
        #expect(filtered.totalCount == Fixtures.products.filter { brands.contains($0.brand) }.count)
        #expect(client.requests.last?.value("brand") == "Audi,BMW")
        viewModel.filter(brands: brands, models: [])  // unchanged: no new request
        scheduler.advance(by: .seconds(1))
        #expect(client.requests.count == requestsBefore + 2)
    }

    @Test func sortingBeforeAnySearchOnlyRemembersTheOrder() throws {
        let client = StubClient.serving(bundleOn: scheduler)
        let viewModel = try search(client)
        let recorder = viewModel.state.record(on: scheduler)
        viewModel.sort(by: .newest)
        scheduler.advance(by: .seconds(1))
        #expect(client.requests.isEmpty)
        #expect(recorder.values == [.idle])
    }

    @Test func aSearchWithoutMatchesIsEmpty() throws {
        let viewModel = try search(StubClient.serving(bundleOn: scheduler))
        let recorder = viewModel.state.record(on: scheduler)
        viewModel.search("zzzz")
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values.last == .empty(query("zzzz")))
    }

    @Test func aFailedFirstPageShowsWhyAndRetrySearchesAgain() throws {
        let calls = Locked(0)
        let client = StubClient(scheduler: scheduler) { request in
            let call = calls.withLock { calls -> Int in
                calls += 1
                return calls
            }
            return call == 1
                ? .failure(.unacceptableStatus(code: 500, body: "boom")) : .ok(Fixtures.localResponse(to: request))
        }
        let viewModel = try search(client)
        let recorder = viewModel.state.record(on: scheduler)
        viewModel.search("audi")
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values.last == .failed(query: query("audi"), message: "HTTP 500: boom"))
        viewModel.retry()
        scheduler.advance(by: .milliseconds(100))
        #expect(results(recorder.values.last)?.query.search == "audi")
    }

    @Test func aFailedNextPageKeepsTheResultsAndCanBeLoadedAgain() throws {
        let client = StubClient(scheduler: scheduler) { request in
            request.value("page") == "2" && request.time < .seconds(2)
                ? .failure(.timeout) : .ok(Fixtures.localResponse(to: request))
        }
        let viewModel = try search(client)
        let recorder = viewModel.state.record(on: scheduler)
        viewModel.search("")
        scheduler.advance(by: .seconds(1))
        viewModel.loadNextPage()
        scheduler.advance(by: .milliseconds(100))
        let failed = try #require(results(recorder.values.last))
        #expect(failed.products.count == 4)
        #expect(failed.nextPageError == "the request timed out")
        #expect(failed.isLoadingNextPage == false)
        scheduler.advance(by: .seconds(1))
        viewModel.loadNextPage()
        scheduler.advance(by: .milliseconds(100))
        let loaded = try #require(results(recorder.values.last))
        #expect(loaded.products.map(\.id) == (1...8).map(String.init))
        #expect(loaded.nextPageError == nil)
    }

    @Test func aMalformedResponseFailsWithTheDecodingPath() throws {
        let client = StubClient(scheduler: scheduler) { _ in
            .ok(NetworkResponse(statusCode: 200, body: Data(#"[{"id":"1","price":"cheap"}]"#.utf8)))
        }
        let viewModel = try search(client)
        let recorder = viewModel.state.record(on: scheduler)
        viewModel.search("ab")
        scheduler.advance(by: .seconds(1))
        guard case .failed(_, let message)? = recorder.values.last else {
            Issue.record("expected a failure, got \(String(describing: recorder.values.last))")
            return
        }
        #expect(message.hasPrefix("the answer could not be read: the field \"name\" is missing in item 1"), "\(message)")
    }

    @Test func favouritesAndTheBasketArePublishedAndPersisted() throws {
        let viewModel = try search(StubClient.serving(bundleOn: scheduler))
        let favourites = viewModel.favourites.record()
        let basket = viewModel.basket.record()
        let (a, b) = (Fixtures.products[0], Fixtures.products[1])
        try viewModel.addFavourite(a)
        try viewModel.addFavourite(b)
        try viewModel.removeFavourite(productID: a.id)
        try viewModel.addToBasket(a, quantity: 2)
        try viewModel.addToBasket(b)
        try viewModel.setQuantity(3, forProductID: b.id)
        try viewModel.removeFromBasket(productID: a.id)
        #expect(favourites.values.map { $0.map(\.id) } == [[], ["1"], ["1", "2"], ["2"]])
        #expect(
            basket.values.map(\.total) == [
                0, a.price * 2, a.price * 2 + b.price, a.price * 2 + b.price * 3, b.price * 3,
            ])
        let reopened = try FeatureStore(directory: directory).snapshot
        #expect(reopened.favourites.map(\.id) == ["2"])
        #expect(reopened.basket.total == b.price * 3)
        #expect(try viewModel.checkout().itemCount == 3)
        #expect(basket.values.last?.isEmpty == true)
        #expect(try FeatureStore(directory: directory).snapshot.basket.isEmpty)
    }

    @Test func submitSearchesTheTypedTextAtOnceAndTheDebounceDoesNotSearchItAgain() throws {
        let client = StubClient.serving(bundleOn: scheduler)
        let viewModel = try search(client)
        let recorder = viewModel.state.record(on: scheduler)
        viewModel.submit()  // nothing typed yet: nothing searched
        scheduler.advance(by: .seconds(1))
        #expect(client.requests.isEmpty)
        viewModel.search("ben")
        scheduler.advance(by: .milliseconds(100))
        viewModel.search(" bentley ")
        viewModel.submit()
        scheduler.advance(by: .seconds(2))
        #expect(client.requests.map(\.time) == [.milliseconds(1100)])
        #expect(client.requests.first?.value("search") == "bentley")
        #expect(recorder.values.map(summary).dropFirst().first == "loading bentley")
        viewModel.submit()  // the same text again: not searched again
        scheduler.advance(by: .seconds(1))
        #expect(client.requests.count == 1)
    }

    @Test func cancelStopsTheRequestInFlightAndShowsTheSearchWasCancelled() throws {
        let client = StubClient.serving(bundleOn: scheduler, latency: .seconds(10))
        let viewModel = try search(client)
        let recorder = viewModel.state.record(on: scheduler)
        #expect(viewModel.cancel() == false)  // nothing in flight
        viewModel.search("focus")
        scheduler.advance(by: .milliseconds(600))
        #expect(recorder.values.last.map(summary) == "loading focus")
        #expect(viewModel.cancel() == true)
        #expect(client.cancellations == 1)
        #expect(recorder.values.last == .failed(query: query("focus"), message: ProductSearchViewModel.cancelledMessage))
        scheduler.advance(by: .seconds(20))  // no late answer
        #expect(recorder.values.last.map(summary) == "failed the search was cancelled")
        viewModel.retry()
        scheduler.advance(by: .seconds(10))
        #expect(results(recorder.values.last)?.query.search == "focus")
    }

    @Test func cancelStopsANextPageLoadingAndKeepsTheResults() throws {
        let client = StubClient.serving(bundleOn: scheduler, latency: .seconds(1))
        let viewModel = try search(client)
        let recorder = viewModel.state.record(on: scheduler)
        viewModel.search("")
        viewModel.submit()
        scheduler.advance(by: .seconds(1))
        let first = try #require(results(recorder.values.last))
        viewModel.loadNextPage()
        #expect(results(recorder.values.last)?.isLoadingNextPage == true)
        #expect(viewModel.cancel())
        let stopped = try #require(results(recorder.values.last))
        #expect(stopped.products == first.products)
        #expect(stopped.isLoadingNextPage == false)
        #expect(stopped.nextPageError == ProductSearchViewModel.cancelledMessage)
        #expect(client.cancellations == 1)
    }
}
