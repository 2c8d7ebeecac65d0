import Foundation
import Networking
import Streams
import StreamsTesting
import Testing

@testable import Features

@Suite struct ProductSearchRouteTests {
    private let route = Fixtures.searchRoute

    private func answer(_ items: [(String, String)], path: String = "/products") throws -> (NetworkResponse, [Product])
    {
        let response = route.response(path: path, queryItems: items.map { URLQueryItem(name: $0.0, value: $0.1) })
        let products = response.statusCode == 200 ? try JSONDecoder().decode([Product].self, from: response.body) : []
        return (response, products)
    }

    private func errorMessage(_ response: NetworkResponse) -> String? {
        (try? JSONDecoder().decode([String: String].self, from: response.body))?["error"]
    }

    @Test func withoutParametersTheWholeCatalogueIsOnePage() throws {
        let (response, products) = try answer([])
        #expect(response.statusCode == 200)
        #expect(products == Fixtures.products)
        #expect(response.headers["X-Total-Count"] == "74")
        #expect(response.headers["Content-Type"] == "application/json")
    }

    @Test func pageAndLimitSelectAPageAndTheHeaderGivesTheTotal() throws {
        let (response, products) = try answer([("page", "2"), ("limit", "4")])
        #expect(products.map(\.id) == ["5", "6", "7", "8"])
        #expect(response.headers["X-Total-Count"] == "74")
        let (_, last) = try answer([("page", "19"), ("limit", "4")])
        #expect(last.map(\.id) == ["73", "74"])
        let (_, past) = try answer([("page", "20"), ("limit", "4")])
        #expect(past.isEmpty)
    }

    @Test func searchIgnoresCaseAndSurroundingSpacesAndMatchesNameBrandOrModel() throws {
        let (response, products) = try answer([("search", "  BENTLEY ")])
        let expected = Fixtures.products.filter {
            ($0.name + "|" + $0.brand + "|" + $0.model).lowercased().contains("bentley")
        }
        #expect(!expected.isEmpty)
        #expect(products.map(\.id) == expected.map(\.id))
        #expect(response.headers["X-Total-Count"] == String(expected.count))
    }

    @Test func searchDoesNotLookInDescriptions() throws {
        let word = "adipisci"  // in the first product's description only
        #expect(Fixtures.products[0].description.contains(word))
        let (_, products) = try answer([("search", word)])
        #expect(products.isEmpty)
    }

    @Test func sortByPriceAscendingAndDescendingKeepsCatalogueOrderForTies() throws {
        let (_, ascending) = try answer([("sortBy", "price"), ("order", "asc")])
        let expected = Fixtures.products.enumerated().sorted {
            $0.element.price != $1.element.price ? $0.element.price < $1.element.price : $0.offset < $1.offset
        }.map(\.element)
        #expect(ascending.map(\.id) == expected.map(\.id))
        let (_, descending) = try answer([("sortBy", "price"), ("order", "desc")])
        #expect(descending.map(\.price) == expected.map(\.price).reversed())
        #expect(zip(descending, descending.dropFirst()).allSatisfy { $0.price >= $1.price })
    }

    @Test func sortByCreationDateNewestAndOldest() throws {
        let (_, newest) = try answer([("sortBy", "createdAt"), ("order", "desc")])
        #expect(zip(newest, newest.dropFirst()).allSatisfy { $0.createdAt >= $1.createdAt })
        let (_, oldest) = try answer([("sortBy", "createdAt")])
        #expect(zip(oldest, oldest.dropFirst()).allSatisfy { $0.createdAt <= $1.createdAt })
        #expect(Set(oldest.map(\.id)) == Set(Fixtures.products.map(\.id)))
    }

    @Test func brandAndModelFiltersAcceptCommasRepeatedKeysAndBrackets() throws {
        let brands = Array(Set(Fixtures.products.map(\.brand)).sorted().prefix(2))
        let expected = Fixtures.products.filter { brands.contains($0.brand) }
        let (_, commas) = try answer([("brand", brands.joined(separator: ","))])
        let (_, repeated) = try answer(brands.map { ("brand", $0) })
        let (_, brackets) = try answer(brands.map { ("brand[]", $0.uppercased()) })
        #expect(!expected.isEmpty)
        #expect(commas.map(\.id) == expected.map(\.id))
        #expect(repeated.map(\.id) == expected.map(\.id))
        #expect(brackets.map(\.id) == expected.map(\.id))
        let model = Fixtures.products[0].model
        let (_, both) = try answer([("brand", brands.joined(separator: ",")), ("model", model)])
        #expect(both.map(\.id) == expected.filter { $0.model == model }.map(\.id))
    }

    @Test(arguments: [("page", "abc"), ("page", "0"), ("limit", "-4"), ("sortBy", "colour")])
    func aMalformedParameterIsA400ThatSaysWhy(name: String, value: String) throws {
        let (response, _) = try answer([(name, value)])
        #expect(response.statusCode == 400)
        let message = try #require(errorMessage(response))
        #expect(message.contains(value))
        #expect(message.contains(name == "page" || name == "limit" ? name : "sortBy"))
    }

    @Test func anotherPathIsA404() throws {
        let (response, _) = try answer([], path: "/basket")
        #expect(response.statusCode == 404)
        #expect(errorMessage(response) == "no route for /basket")
    }

    @Test func theStatusRouteAnswers200() {
        #expect(StatusRoute.response(path: "/status", queryItems: []).statusCode == 200)
        #expect(StatusRoute.response(path: "/status/", queryItems: []).statusCode == 200)
        #expect(StatusRoute.response(path: "/other", queryItems: []).statusCode == 404)
    }

    @Test func aQueryBecomesTheEndpointsQueryParameters() {
        let query = ProductQuery(
            search: "  red car ", brands: ["BMW", "Audi"], models: ["X5"], sort: .newest, page: 3, limit: 4)
        let endpoint = FeatureEndpoint(baseURL: Fixtures.baseURL, request: .searchProducts(query))
        #expect(endpoint.path == "/products")
        guard case .parameters(let parameters, let encoding) = endpoint.task else {
            Issue.record("the search sends parameters")
            return
        }
        #expect(encoding == .queryString)
        #expect(
            parameters == [
                "search": "red car", "page": 3, "limit": 4, "sortBy": "createdAt", "order": "desc",
                "brand": "Audi,BMW", "model": "X5",
            ])
        #expect(ProductQuery().queryParameters == ["page": 1, "limit": 4])
    }

    @Test func theStatusEndpointAcceptsEveryStatusCode() {
        let status = FeatureEndpoint(baseURL: Fixtures.baseURL, request: .status)
        #expect(status.acceptableStatusCodes.contains(404))
        #expect(status.acceptableStatusCodes.contains(500))
        #expect(!FeatureEndpoint(baseURL: Fixtures.baseURL, request: .users).acceptableStatusCodes.contains(404))
    }

    @Test func theLastPageIsKnownFromTheTotalOrFromAShortPage() {
        #expect(ProductPage(products: [], page: 18, limit: 4, totalCount: 74).isLastPage == false)
        #expect(ProductPage(products: [], page: 19, limit: 4, totalCount: 74).isLastPage)
        #expect(
            ProductPage(products: Array(Fixtures.products.prefix(4)), page: 1, limit: 4, totalCount: nil).isLastPage
                == false)
        #expect(
            ProductPage(products: Array(Fixtures.products.prefix(3)), page: 1, limit: 4, totalCount: nil).isLastPage)
    }

    @Test func theCatalogReadsTheTotalHeaderIgnoringCaseAndRejectsABadOne() throws {
        let body = try JSONEncoder().encode(Array(Fixtures.products.prefix(4)))
        let query = ProductQuery(page: 2, limit: 4)
        let page = try NetworkProductCatalog.page(
            from: NetworkResponse(statusCode: 200, headers: ["x-total-count": "9"], body: body), for: query)
        #expect(page.totalCount == 9)
        #expect(page.isLastPage == false)
        #expect(throws: NetworkError.self) {
            try NetworkProductCatalog.page(
                from: NetworkResponse(statusCode: 200, headers: ["X-Total-Count": "many"], body: body), for: query)
        }
    }

    @Test func theCatalogPublishesAPageThroughTheClient() {
        let scheduler = TestScheduler()
        let client = StubClient.serving(bundleOn: scheduler)
        let catalog = NetworkProductCatalog(client: client, baseURL: Fixtures.baseURL)
        let recorder = catalog.page(for: ProductQuery(search: "", sort: .priceAscending, page: 1, limit: 4))
            .record(on: scheduler)
        scheduler.advance(by: .milliseconds(100))
        #expect(recorder.values.first?.products.count == 4)
        #expect(recorder.values.first?.totalCount == 74)
        #expect(recorder.isFinished)
        #expect(client.requests.first?.value("sortBy") == "price")
    }
}
