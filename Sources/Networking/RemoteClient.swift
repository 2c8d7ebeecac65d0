import Foundation
import Streams

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `NetworkClient` that sends requests over HTTP through an `HTTPTransport` (by default `SocketTransport`:
/// `http` on a socket of its own with a hard response limit and a whole-exchange deadline, `https` through
/// `URLSession`).
///
/// For each request: build it (`RequestBuilder`), then per attempt run every interceptor's `adapt`, log,
/// send, and check the status against the endpoint's `acceptableStatusCodes`. A failed attempt (an
/// unacceptable status, 401 included, `.timeout` or `.transport`) is offered to the interceptors' `retry`;
/// if none retries, the request fails (401 as `.unauthorized`). Back-off waits go through `sleep`, which
/// tests replace. `.cancelled` is never retried.
///
/// - Cancellation: cancelling the calling task (async API) or the subscription (publisher API) cancels the
///   in-flight request (closing its connection) and any back-off wait, and fails with / delivers nothing but `.cancelled`.
/// - Threading: a value type, safe to share; the publisher delivers on a task's executor.
///
/// ```swift
/// let client: any NetworkClient = RemoteClient(interceptors: [RetryPolicy()])   // or LocalClient()
/// let users = try await client.send(UsersAPI.all, as: [User].self)
/// ```
public struct RemoteClient: NetworkClient {
    /// Sends the requests.
    public let transport: any HTTPTransport
    /// Adapt requests and decide retries, in order.
    public let interceptors: [any RequestInterceptor]
    /// Builds requests from endpoints.
    public let builder: RequestBuilder
    /// Logs requests and outcomes, if set.
    public let logger: RequestLogger?
    private let sleep: @Sendable (Duration) async throws -> Void

    /// A client sending through `transport` with `interceptors`; `sleep` waits between retries (default
    /// `Task.sleep`, which throws on cancellation; tests pass a function that records the delay).
    public init(
        transport: any HTTPTransport = SocketTransport(),
        interceptors: [any RequestInterceptor] = [],
        builder: RequestBuilder = RequestBuilder(),
        logger: RequestLogger? = nil,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.transport = transport
        self.interceptors = interceptors
        self.builder = builder
        self.logger = logger
        self.sleep = sleep
    }

    /// Sends the endpoint's request (with retries as the interceptors decide) and returns the response.
    public func response(for endpoint: any Endpoint) async throws(NetworkError) -> NetworkResponse {
        let request = try builder.request(for: endpoint)
        var attemptCount = 0
        while true {
            attemptCount += 1
            let sent = try await adapt(request)
            let failure: RequestFailure
            switch await send(sent, maximumResponseSize: endpoint.maximumResponseSize) {
            case .success(let response) where endpoint.acceptableStatusCodes.contains(response.statusCode):
                return response
            case .success(let response):
                failure = .status(response)
            case .failure(.cancelled):
                throw .cancelled
            case .failure(let error):
                failure = .error(error)
            }
            switch await retryDecision(for: sent, dueTo: failure, attemptCount: attemptCount) {
            case .retry:
                continue
            case .retryAfter(let delay):
                do {
                    try await sleep(delay)
                } catch {
                    throw .cancelled
                }
                if Task.isCancelled { throw .cancelled }
            case .doNotRetry:
                throw failure.error
            case .fail(let error):
                throw error
            }
        }
    }

    /// A publisher running `response(for:)` in a task when subscribed; cancelling it cancels the request.
    public func responsePublisher(for endpoint: any Endpoint) -> AnyPublisher<NetworkResponse, NetworkError> {
        TaskPublisher { () async throws(NetworkError) -> NetworkResponse in
            try await response(for: endpoint)
        }
        .eraseToAnyPublisher()
    }

    private func adapt(_ request: URLRequest) async throws(NetworkError) -> URLRequest {
        var adapted = request
        for interceptor in interceptors {
            do {
                adapted = try await interceptor.adapt(adapted)
            } catch let error as NetworkError {
                throw error
            } catch {
                throw .transport(error)
            }
        }
        if Task.isCancelled { throw .cancelled }
        return adapted
    }

    private func send(_ request: URLRequest, maximumResponseSize: Int) async -> Result<NetworkResponse, NetworkError> {
        logger?.log(request)
        let outcome: Result<NetworkResponse, NetworkError>
        do {
            outcome = .success(
                try await withCancellableCompletion { done in
                    transport.send(request, maximumResponseSize: maximumResponseSize, completion: done)
                })
        } catch {
            outcome = .failure(error)
        }
        logger?.log(outcome, for: request)
        return outcome
    }

    private func retryDecision(
        for request: URLRequest, dueTo failure: RequestFailure, attemptCount: Int
    ) async -> RetryDecision {
        for interceptor in interceptors {
            let decision = await interceptor.retry(request, dueTo: failure, attemptCount: attemptCount)
            if decision != .doNotRetry { return decision }
        }
        return .doNotRetry
    }
}
