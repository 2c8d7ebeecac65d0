import Features
import Foundation
import Networking
import Streams
import StreamsTesting

/// The Features routes (bundled data) behind a `LocalClient` on virtual time, logging every request and
/// answering chosen paths with a failure instead.
final class FakeServer: Sendable {
    private let log = Locked<[LocalRequest]>([])
    private let failures = Locked<[String: NetworkError]>([:])
    private let routes: [LocalRoute]

    init() throws {
        let log = self.log
        let failures = self.failures
        routes = try FeatureRoutes.local().map { route in
            LocalRoute(route.method, route.path) { request throws(NetworkError) in
                log.withLock { $0.append(request) }
                if let failure = failures.withLock({ $0[request.path] }) { throw failure }
                return try route.handler(request)
            }
        }
    }

    /// A client answering `latency` later on `scheduler`.
    func client(latency: Duration, scheduler: TestScheduler) -> LocalClient {
        LocalClient(latency: latency, scheduler: scheduler, routes: routes)
    }

    /// Makes requests for `path` fail with `error` (`nil`: answer normally again).
    func fail(_ path: String, with error: NetworkError?) {
        failures.withLock { $0[path] = error }
    }

    /// Every request received, in order.
    var requests: [LocalRequest] { log.withLock { $0 } }

    /// The `search` parameter of each `/products` request (`""` when absent), with its page.
    var searches: [String] {
        requests.filter { $0.path == "/products" }.map { request in
            (request.queryValue("search") ?? "") + "#" + (request.queryValue("page") ?? "?")
        }
    }

    /// How many requests for `path` arrived.
    func count(_ path: String) -> Int { requests.count { $0.path == path } }
}
