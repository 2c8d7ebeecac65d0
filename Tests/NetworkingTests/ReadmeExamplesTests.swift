import Foundation
import Networking
import Testing

/// The README's Networking examples, run as tests so they cannot rot.
@Suite struct ReadmeExamplesTests {
    enum Store: Endpoint {
        case users
        case products(search: String, page: Int)

        var baseURL: URL { URL(string: "https://api.example.com")! }
        var path: String { if case .users = self { "/users" } else { "/products" } }
        var task: HTTPTask {
            switch self {
            case .users: .plain
            case .products(let search, let page):
                .parameters(["search": .string(search), "page": .int(page)], encoding: .queryString)
            }
        }
    }

    struct User: Decodable {
        let id: Int
        let name: String
    }
    struct Product: Decodable {
        let id: String
        let name: String
        let price: String
    }

    @Test func theEndpointEnumRunsAgainstTheLocalClient() async throws {
        let client: any NetworkClient = LocalClient()
        let users = try await client.send(Store.users, as: [User].self)
        #expect(users.first?.name == "Leanne Graham")
        let request = try RequestBuilder().request(for: Store.products(search: "red car", page: 1))
        #expect(request.url?.absoluteString == "https://api.example.com/products?page=1&search=red%20car")
    }

    @Test func theErrorHandlingExampleCatchesTypedErrors() async {
        let client: any NetworkClient = LocalClient().handling(.get, "/products") { _ in
            NetworkResponse(statusCode: 503, body: Data("maintenance".utf8))
        }
        var printed = ""
        do {
            _ = try await client.send(Store.products(search: "red car", page: 1), as: [Product].self)
        } catch .unacceptableStatus(let code, let body) {
            printed = "HTTP \(code): \(body)"
        } catch {
            printed = "\(error)"
        }
        #expect(printed == "HTTP 503: maintenance")
    }
}
