import Foundation
import Networking

/// Answers the product search endpoint (`GET /products`) from a catalogue: the handler a `LocalClient` route
/// and the loopback test server call, so local and remote answer the same way.
///
/// - Request: the query items `search`, `page` (from 1), `limit`, `sortBy` (`price` | `createdAt`), `order`
///   (`asc`, the default, | `desc`), `brand` and `model` (comma-separated names, or the key repeated, also as
///   `brand[]`). Without `page` the first page; without `limit` every match on one page. Unknown items are
///   ignored (as mockapi.io does).
/// - Response 200: a JSON array of the page's products (the data's shape: `id` and `price` as strings) with
///   the header `X-Total-Count` giving the number of matches in all pages. A client knows it has the last
///   page when `page * limit >= X-Total-Count` (see ``ProductPage/isLastPage``).
/// - Response 400: a malformed parameter, with `{"error": "<what is wrong>"}`. Response 404: another path.
///
/// ```swift
/// let route = try ProductSearchRoute.bundled()
/// let response = route.response(path: "/products", queryItems: [URLQueryItem(name: "search", value: "focus")])
/// ```
public struct ProductSearchRoute: Sendable {
    /// `/products`.
    public static let path = "/products"
    /// The response header giving the number of matches in all pages.
    public static let totalCountHeader = "X-Total-Count"

    /// The products searched.
    public let catalogue: [Product]

    /// A route searching `catalogue`.
    public init(catalogue: [Product]) {
        self.catalogue = catalogue
    }

    /// A route searching the bundled `products.json`, read and decoded once per process (the file ships with the
    /// app and does not change while it runs; the local client and `LocalProductCatalog` share it).
    ///
    /// - Throws: `NetworkError` if the resource is missing or does not decode.
    ///   A file that does not decode is named as the bundled file it is (never as a server's answer).
    public static func bundled() throws(NetworkError) -> ProductSearchRoute {
        ProductSearchRoute(catalogue: try bundledCatalogue.get())
    }

    /// The bundled catalogue, or why it could not be read: computed on first use (a `static let` is initialised
    /// once, thread-safely).
    private static let bundledCatalogue = Result(catching: readBundledCatalogue)

    /// Reads and decodes `products.json`.
    private static func readBundledCatalogue() throws(NetworkError) -> [Product] {
        let data = try BundledData.products.data()
        do {
            return try ResponseDecoding.decode([Product].self, from: data, decoder: JSONDecoder())
        } catch {
            throw bundledFileError(error, name: BundledData.products.rawValue)
        }
    }

    /// A decoding failure of the bundled file `name` as a ``BundledDataInvalid`` (other errors as they are).
    static func bundledFileError(_ error: NetworkError, name: String) -> NetworkError {
        guard case .decoding(_, let description) = error else { return error }
        return .transport(BundledDataInvalid(name: name, problem: description))
    }

    /// The response to `GET path?queryItems` (see the type's documentation). Never throws: bad input is a
    /// 400 response explaining it.
    public func response(path: String, queryItems: [URLQueryItem]) -> NetworkResponse {
        guard Self.normalized(path) == Self.path else {
            return RouteResponse.error(status: 404, "no route for \(path)")
        }
        let request: SearchRequest
        do {
            request = try SearchRequest(queryItems: queryItems)
        } catch {
            return RouteResponse.error(status: 400, error.description)
        }
        var query = request.query
        if request.limit == nil {
            query.limit = max(query.matchingProducts(in: catalogue).count, 1)
        }
        let page = query.page(of: catalogue)
        return RouteResponse.json(
            page.products, headers: [Self.totalCountHeader: String(page.totalCount ?? page.products.count)])
    }

    static func normalized(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }
}

/// A query parameter of the search endpoint that cannot be understood.
///
/// ```swift
/// // GET /products?page=abc → 400 {"error": "page must be a whole number ≥ 1, not \"abc\""}
/// ```
public struct InvalidQueryParameter: Error, Sendable, Equatable, CustomStringConvertible {
    /// The parameter's name.
    public var name: String
    /// The value received.
    public var value: String
    /// What the parameter must be.
    public var expected: String

    /// Describes the parameter, its value and what was expected.
    public var description: String { "\(name) must be \(expected), not \"\(value)\"" }
}

/// The search endpoint's parameters parsed from query items.
struct SearchRequest {
    var query = ProductQuery()
    var limit: Int?

    init(queryItems: [URLQueryItem]) throws(InvalidQueryParameter) {
        var values: [String: [String]] = [:]
        for item in queryItems {
            let name = item.name.hasSuffix("[]") ? String(item.name.dropLast(2)) : item.name
            values[name, default: []].append(item.value ?? "")
        }
        query.search = (values["search"]?.last ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if let text = values["page"]?.last { query.page = try Self.positive("page", text) }
        if let text = values["limit"]?.last {
            let limit = try Self.positive("limit", text)
            query.limit = limit
            self.limit = limit
        }
        if let sortBy = values["sortBy"]?.last {
            let order = values["order"]?.last
            guard let sort = ProductSort(sortBy: sortBy, order: order) else {
                throw InvalidQueryParameter(
                    name: "sortBy/order", value: "\(sortBy)/\(order ?? "")",
                    expected: "price or createdAt, with asc or desc")
            }
            query.sort = sort
        }
        query.brands = Self.names(values["brand"])
        query.models = Self.names(values["model"])
    }

    private static func positive(_ name: String, _ text: String) throws(InvalidQueryParameter) -> Int {
        guard let value = Int(text), value >= 1 else {
            throw InvalidQueryParameter(name: name, value: text, expected: "a whole number ≥ 1")
        }
        return value
    }

    private static func names(_ values: [String]?) -> Set<String> {
        let names = (values ?? []).flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        return Set(names)
    }
}
