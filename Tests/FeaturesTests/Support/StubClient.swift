import Foundation
import Networking
import Streams
import StreamsTesting

@testable import Features

/// A request as the stub saw it: the endpoint's path and its query-string parameters.
struct StubRequest: Sendable {
    var path: String
    var queryItems: [URLQueryItem]
    /// When the request was sent, on the stub's scheduler.
    var time: Duration

    func value(_ name: String) -> String? { queryItems.first { $0.name == name }?.value }
}

/// What the stub answers to one request, and after how long.
struct StubReply: Sendable {
    var latency: Duration
    var result: Result<NetworkResponse, NetworkError>

    static func ok(_ response: NetworkResponse, after latency: Duration = .milliseconds(100)) -> StubReply {
        StubReply(latency: latency, result: .success(response))
    }

    static func failure(_ error: NetworkError, after latency: Duration = .milliseconds(100)) -> StubReply {
        StubReply(latency: latency, result: .failure(error))
    }
}

/// A `NetworkClient` for unit tests: answers each request after a latency on a `TestScheduler`, synchronously
/// when the scheduler reaches that time (no tasks), and records the requests and cancellations.
final class StubClient: NetworkClient, @unchecked Sendable {
    private struct Log {
        var requests: [StubRequest] = []
        var cancellations = 0
    }

    private let scheduler: TestScheduler
    private let reply: @Sendable (StubRequest) -> StubReply
    private let log = Locked(Log())

    init(scheduler: TestScheduler, reply: @escaping @Sendable (StubRequest) -> StubReply) {
        self.scheduler = scheduler
        self.reply = reply
    }

    /// A stub serving the bundled data: the search route at /products, /status (200), /crypto and /users.
    static func serving(bundleOn scheduler: TestScheduler, latency: Duration = .milliseconds(100)) -> StubClient {
        StubClient(scheduler: scheduler) { request in
            .ok(Fixtures.localResponse(to: request), after: latency)
        }
    }

    var requests: [StubRequest] { log.withLock { $0.requests } }
    var cancellations: Int { log.withLock { $0.cancellations } }

    func responsePublisher(for endpoint: any Endpoint) -> AnyPublisher<NetworkResponse, NetworkError> {
        Deferred { [self] () -> AnyPublisher<NetworkResponse, NetworkError> in
            let request = StubRequest(
                path: endpoint.path, queryItems: Self.queryItems(of: endpoint), time: scheduler.now.offset)
            log.withLock { $0.requests.append(request) }
            let reply = reply(request)
            return Just(())
                .delay(for: reply.latency, scheduler: scheduler)
                .setFailureType(to: NetworkError.self)
                .flatMap { _ in Self.publisher(for: reply.result) }
                .handleEvents(receiveCancel: { [self] in log.withLock { $0.cancellations += 1 } })
                .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }

    func response(for endpoint: any Endpoint) async throws(NetworkError) -> NetworkResponse {
        let request = StubRequest(path: endpoint.path, queryItems: Self.queryItems(of: endpoint), time: .zero)
        log.withLock { $0.requests.append(request) }
        return try reply(request).result.get()
    }

    private static func publisher(for result: Result<NetworkResponse, NetworkError>)
        -> AnyPublisher<NetworkResponse, NetworkError>
    {
        switch result {
        case .success(let response): Just(response).setFailureType(to: NetworkError.self).eraseToAnyPublisher()
        case .failure(let error): Fail(error: error).eraseToAnyPublisher()
        }
    }

    /// The query string a URL encoding would produce: sorted keys, arrays as repeated keys.
    static func queryItems(of endpoint: any Endpoint) -> [URLQueryItem] {
        guard case .parameters(let parameters, .queryString) = endpoint.task else { return [] }
        return parameters.sorted { $0.key < $1.key }.flatMap { key, value in
            texts(of: value).map { URLQueryItem(name: key, value: $0) }
        }
    }

    private static func texts(of value: ParameterValue) -> [String] {
        switch value {
        case .string(let text): [text]
        case .int(let number): [String(number)]
        case .double(let number): [String(number)]
        case .bool(let flag): [String(flag)]
        case .array(let values): values.flatMap(texts(of:))
        }
    }
}

/// The bundled data sets, decoded once, and the local answers built from them.
enum Fixtures {
    static let baseURL = URL(string: "http://127.0.0.1:8080")!

    // Empty if a data set does not decode: the decoding tests then fail with the reason, the others on counts.
    static let products: [Product] = (try? decodeBundled(.products)) ?? []
    static let crypto: [CryptoCurrency] = (try? decodeBundled(.crypto)) ?? []
    static let users: [User] = (try? decodeBundled(.users)) ?? []

    static func decodeBundled<T: Decodable>(_ data: BundledData) throws(NetworkError) -> T {
        let response = NetworkResponse(statusCode: 200, body: try data.data())
        return try ResponseDecoding.decode(T.self, from: response.body, decoder: JSONDecoder())
    }

    static func json<T: Encodable>(_ value: T, headers: [String: String] = [:]) -> NetworkResponse {
        NetworkResponse(statusCode: 200, headers: headers, body: (try? JSONEncoder().encode(value)) ?? Data())
    }

    static let searchRoute = ProductSearchRoute(catalogue: products)

    static func localResponse(to request: StubRequest) -> NetworkResponse {
        switch request.path {
        case ProductSearchRoute.path: searchRoute.response(path: request.path, queryItems: request.queryItems)
        case StatusRoute.path: StatusRoute.response(path: request.path, queryItems: request.queryItems)
        case "/crypto": json(crypto)
        case "/users": json(users)
        default: NetworkResponse(statusCode: 404)
        }
    }

}
