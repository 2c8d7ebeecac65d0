import Foundation
import Networking
import Testing

/// An endpoint whose every property is set by the test.
struct TestEndpoint: Endpoint {
    var baseURL: URL = URL(string: "https://api.example.com")!
    var path: String = "/items"
    var method: HTTPMethod = .get
    var task: HTTPTask = .plain
    var headers: [String: String] = [:]
    var timeout: Duration = .seconds(30)
    var acceptableStatusCodes: Range<Int> = 200..<300
}

/// The bundled data sets as endpoints.
enum Fixture: Endpoint, CaseIterable {
    case products, crypto, users
    var baseURL: URL { URL(string: "https://fixtures.example.com")! }
    var path: String {
        switch self {
        case .products: "/products"
        case .crypto: "/crypto"
        case .users: "/users"
        }
    }
}

/// The fields of `products.json` the tests check.
struct Product: Decodable, Equatable {
    let id: String
    let name: String
    let price: String
    let brand: String
}

/// The fields of `crypto.json`.
struct Crypto: Decodable, Equatable {
    let currency: String
    let price: String
}

/// The fields of `users.json` the tests check.
struct User: Decodable, Equatable {
    struct Address: Decodable, Equatable {
        struct Geo: Decodable, Equatable {
            let lat: String
            let lng: String
        }
        let city: String
        let geo: Geo
    }
    let id: Int
    let name: String
    let username: String
    let address: Address
}

/// The `NetworkError` `body` throws; nil if it returns (or throws something else, which no API may do).
func caught<T>(_ body: () async throws -> T) async -> NetworkError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error as? NetworkError
    }
}

/// Records a test failure.
func fail(_ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
    Issue.record(comment, sourceLocation: sourceLocation)
}

extension Result {
    /// The failure as a `NetworkError`, if it is one.
    var networkError: NetworkError? {
        if case .failure(let error) = self { error as? NetworkError } else { nil }
    }
}
