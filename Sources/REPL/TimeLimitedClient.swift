import Networking
import Streams

/// A network client whose requests fail with `NetworkError.timeout` when no answer arrives within `limit` on
/// `scheduler`: what `--timeout` sets for every request of a session.
///
/// - Publisher: ``responsePublisher(for:)`` is the wrapped client's with `timeout(_:scheduler:customError:)`:
///   at the limit the request's subscription is cancelled (which cancels the socket exchange or the
///   URLSession task) and the publisher fails with `.timeout`.
/// - Async: ``response(for:)`` is the wrapped client's (its own per-endpoint deadline applies); the view
///   models use the publisher.
/// - Threading: as the wrapped client; the deadline runs on `scheduler` (virtual time in tests).
///
/// ```swift
/// let client = TimeLimitedClient(RemoteClient(), limit: .seconds(5), scheduler: queue)
/// ```
struct TimeLimitedClient: NetworkClient {
    let base: any NetworkClient
    let limit: Duration
    let scheduler: any Scheduler

    init(_ base: any NetworkClient, limit: Duration, scheduler: any Scheduler) {
        self.base = base
        self.limit = limit
        self.scheduler = scheduler
    }

    func response(for endpoint: any Endpoint) async throws(NetworkError) -> NetworkResponse {
        try await base.response(for: endpoint)
    }

    func responsePublisher(for endpoint: any Endpoint) -> AnyPublisher<NetworkResponse, NetworkError> {
        base.responsePublisher(for: endpoint)
            .timeout(limit, scheduler: scheduler, customError: { .timeout })
            .eraseToAnyPublisher()
    }
}
