import Foundation
import Networking

/// The requests of the three pipelines and the users list, as one `Endpoint`.
///
/// | Request | Method and path | Parameters (query string) | Success |
/// | --- | --- | --- | --- |
/// | `.status` | `GET /status` | none | **every** status code (`0..<1000`): the code is the answer |
/// | `.searchProducts(query)` | `GET /products` | `search` `page` `limit` `sortBy` `order` `brand` `model` | 200 |
/// | `.cryptoPrices` | `GET /crypto` | none | 200 |
/// | `.users` | `GET /users` | none | 200 |
///
/// See ``ProductQuery/queryParameters`` for the search parameters and ``ProductSearchRoute`` for the answer's
/// shape. The same endpoint works against `LocalClient` and `RemoteClient`: only the client changes.
///
/// ```swift
/// let endpoint = FeatureEndpoint(baseURL: URL(string: "http://127.0.0.1:8080")!, request: .users)
/// let response = try await client.response(for: endpoint)
/// ```
public struct FeatureEndpoint: Endpoint, Equatable {
    /// Which request to send.
    public enum Request: Sendable, Equatable {
        /// `GET /status`: the server answers with some status code (the fetch counter shows it).
        case status
        /// `GET /products?search=…&page=…`: one page of the product search.
        case searchProducts(ProductQuery)
        /// `GET /crypto`: the crypto price list.
        case cryptoPrices
        /// `GET /users`: the users list.
        case users
    }

    /// The server's address (scheme, host, port, optional leading path).
    public var baseURL: URL
    /// Which request this is.
    public var request: Request

    /// An endpoint sending `request` to the server at `baseURL`.
    public init(baseURL: URL, request: Request) {
        self.baseURL = baseURL
        self.request = request
    }

    /// `/status`, `/products`, `/crypto` or `/users`.
    public var path: String {
        switch request {
        case .status: StatusRoute.path
        case .searchProducts: ProductSearchRoute.path
        case .cryptoPrices: "/crypto"
        case .users: "/users"
        }
    }

    /// The search's query-string parameters; `.plain` for the others.
    public var task: HTTPTask {
        switch request {
        case .searchProducts(let query): .parameters(query.queryParameters, encoding: .queryString)
        case .status, .cryptoPrices, .users: .plain
        }
    }

    /// `0..<1000` for `.status` (every HTTP response is an answer), `200..<300` otherwise.
    public var acceptableStatusCodes: Range<Int> {
        request == .status ? 0..<1000 : 200..<300
    }
}
