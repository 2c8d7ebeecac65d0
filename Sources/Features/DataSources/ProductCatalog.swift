import Foundation
import Networking
import Streams

/// Where the product search gets its pages: the data-source seam of ``ProductSearchViewModel``.
///
/// ``NetworkProductCatalog`` sends ``FeatureEndpoint/Request/searchProducts(_:)`` through any
/// `NetworkClient`; ``LocalProductCatalog`` computes the same pages from products in memory. Swapping local for
/// remote data is one line: the catalog (or the client).
///
/// ```swift
/// let catalog = NetworkProductCatalog(client: LocalClient(), baseURL: URL(string: "http://localhost")!)
/// let c = catalog.page(for: ProductQuery(search: "focus")).sink(receiveCompletion: { _ in }) { print($0) }
/// ```
public protocol ProductCatalog: Sendable {
    /// A publisher that loads `query`'s page when subscribed, publishes it once and finishes, or fails.
    /// Cancelling it cancels the request.
    func page(for query: ProductQuery) -> AnyPublisher<ProductPage, NetworkError>
}

/// A ``ProductCatalog`` that asks a server (or a local client) through the search endpoint.
///
/// - Response: a JSON array of products; the total comes from the `X-Total-Count` header (case-insensitive).
///   Without that header the page is the last when it is short. A body or header that does not decode
///   fails with `NetworkError.decoding`.
/// - Threading: publishes on the client's thread.
///
/// ```swift
/// let catalog = NetworkProductCatalog(client: client, baseURL: serverURL)
/// ```
public struct NetworkProductCatalog: ProductCatalog {
    /// The client that sends the requests.
    public let client: any NetworkClient
    /// The server's address.
    public let baseURL: URL

    /// A catalog asking `client` for pages at `baseURL`.
    public init(client: any NetworkClient, baseURL: URL) {
        self.client = client
        self.baseURL = baseURL
    }

    /// Sends `GET /products` with `query`'s parameters and decodes the page.
    public func page(for query: ProductQuery) -> AnyPublisher<ProductPage, NetworkError> {
        client.responsePublisher(for: FeatureEndpoint(baseURL: baseURL, request: .searchProducts(query)))
            .tryMap { response in try Self.page(from: response, for: query) }
            .mapError { error in
                error as? NetworkError ?? .decoding(path: "", description: "it could not be read")
            }
            .eraseToAnyPublisher()
    }

    /// Decodes a search response into `query`'s page.
    static func page(from response: NetworkResponse, for query: ProductQuery) throws(NetworkError) -> ProductPage {
        let products = try ResponseDecoding.decode([Product].self, from: response.body, decoder: JSONDecoder())
        let header = response.headers.first {
            $0.key.caseInsensitiveCompare(ProductSearchRoute.totalCountHeader) == .orderedSame
        }
        var totalCount: Int?
        if let header {
            guard let total = Int(header.value.trimmingCharacters(in: .whitespaces)), total >= 0 else {
                throw .decoding(
                    path: "header \(ProductSearchRoute.totalCountHeader)",
                    description: "its header \(ProductSearchRoute.totalCountHeader) is \"\(header.value.prefix(40))\", "
                        + "not a count of products")
            }
            totalCount = total
        }
        return ProductPage(products: products, page: query.page, limit: query.limit, totalCount: totalCount)
    }
}
