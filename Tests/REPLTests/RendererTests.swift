import Features
import Foundation
import REPL
import Streams
import Testing

/// The rendering of each state, line by line.
@Suite struct RendererTests {
    private let product = Product(
        id: "12", name: "Ford Focus", brand: "Maserati", model: "CTS", price: Decimal(string: "257.5")!,
        description: "", image: "", createdAt: Date(timeIntervalSince1970: 0))

    @Test func moneyHasTwoDecimals() {
        #expect(Renderer.money(51) == "51.00")
        #expect(Renderer.money(Decimal(string: "0.5")!) == "0.50")
        #expect(Renderer.money(Decimal(string: "1249.999")!) == "1250.00")
    }

    @Test func aProductRowShowsIDNameBrandModelAndPrice() {
        #expect(
            Renderer.productRow(product)
                == "  #12    Ford Focus                     Maserati       CTS               257.50")
        #expect(
            Renderer.productTableHeader()
                == "  id     name                           brand          model              price")
    }

    @Test func queriesAreDescribedWithTheirFiltersAndSort() {
        #expect(Renderer.describe(ProductQuery()) == "all products")
        let query = ProductQuery(search: " focus ", brands: ["Ford", "BMW"], models: ["CTS"], sort: .newest)
        #expect(Renderer.describe(query) == #""focus" (brand BMW, Ford; model CTS; sorted by date, newest first)"#)
        #expect(Renderer.loading(query).hasPrefix(#"searching "focus" (brand"#))
        #expect(Renderer.empty(ProductQuery(search: "zz")) == #"no products match "zz""#)
        #expect(
            Renderer.searchFailed(ProductQuery(search: "zz"), message: "HTTP 500")
                == #"search for "zz" failed: HTTP 500 (:retry to try again)"#)
    }

    @Test func pageInformationWithAndWithoutATotal() {
        var results = SearchResults(
            query: ProductQuery(search: "x", page: 1, limit: 4), products: [product], totalCount: 9, isLastPage: false)
        #expect(Renderer.searchHeader(results) == #"results for "x": 9 products"#)
        #expect(Renderer.pageFooter(results) == "page 1 of 3, 1 of 9 shown (:next for more)")
        #expect(Renderer.loadingNextPage(results) == "loading page 2…")
        results.totalCount = nil
        #expect(Renderer.searchHeader(results) == #"results for "x": 1+ products"#)
        #expect(Renderer.pageFooter(results) == "page 1, 1 shown (:next for more)")
        results.isLastPage = true
        #expect(Renderer.searchHeader(results) == #"results for "x": 1 product"#)
        #expect(Renderer.pageFooter(results) == "page 1, 1 of 1 shown (last page)")
        #expect(Renderer.noMoreResults(results) == #"no more results for "x" (1 product)"#)
        results.totalCount = 1
        #expect(Renderer.searchHeader(results) == #"results for "x": 1 product"#)
        #expect(Renderer.pageFooter(results) == "page 1 of 1, 1 of 1 shown (last page)")
    }

    @Test func basketAndFavourites() {
        var basket = Basket()
        #expect(Renderer.basket(basket) == ["the basket is empty"])
        basket.add(product, quantity: 2)
        #expect(
            Renderer.basket(basket) == [
                "basket:", "  #12    Ford Focus                    2 × 257.50      515.00", "total 515.00 (2 items)",
            ])
        #expect(Renderer.favourites([]) == ["no favourites yet (:fav ID adds a product of the results)"])
        #expect(
            Renderer.favourites([product]) == [
                "favourites: 1", Renderer.productTableHeader(), Renderer.productRow(product),
            ])
    }

    @Test func counterLines() {
        let state = FetchCounterState(lastStatusCode: 404, count: 3, isLoading: false, lastError: nil)
        #expect(Renderer.fetched(state) == "HTTP 404, count 3")
        #expect(Renderer.count(3) == "count 3")
        #expect(
            Renderer.fetchFailed("the request timed out") == "fetch failed: the request timed out (:fetch to try again)")
    }

    @Test func pricesShowDirectionsFilterAndAreCut() {
        let rows = (0..<25).map { PriceRow(currency: "C\($0)", price: Decimal($0), direction: .up) }
        let state = PriceListState(rows: rows, isRefreshing: false, lastRefreshed: .zero, error: nil)
        let all = Renderer.prices(state, filter: nil)
        #expect(all.count == 22)
        #expect(all[0] == "prices: 25 currencies")
        #expect(all[1] == "  C0                         0  up")
        #expect(all.last == "… 5 more (:prices FILTER narrows the list)")
        #expect(
            Renderer.prices(state, filter: "c24") == [
                #"prices: 1 currency matching "c24""#, "  C24                       24  up",
            ])
        #expect(Renderer.prices(state, filter: "zz") == [#"no currency matches "zz""#])
        #expect(Renderer.pricesFailed("HTTP 503") == "prices could not be refreshed: HTTP 503 (:refresh to try again)")
    }

    @Test func usersList() throws {
        let geo = Geo(latitude: 0, longitude: 0)
        let user = User(
            id: 7, name: "Ada Lovelace", username: "ada", email: "ada@example.com",
            address: Address(street: "", suite: "", city: "London", zipcode: "", geo: geo), phone: "",
            website: "", company: Company(name: "", catchPhrase: "", bs: ""))
        #expect(
            Renderer.users([user]) == [
                "users: 1",
                "    7  Ada Lovelace              @ada                ada@example.com             London",
            ])
        #expect(Renderer.users([]) == ["no users"])
        #expect(Renderer.usersFailed("HTTP 500") == "users could not be loaded: HTTP 500 (:users to try again)")
    }
}
