import Foundation
import Streams

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `NetworkClient` that answers endpoints from routes in memory — by default the bundled data sets — with
/// optional simulated latency on a scheduler. Swap it for `RemoteClient` in one line.
///
/// - Routes: `GET /products`, `/crypto`, `/users` serve `BundledData`; `handle(_:_:with:)` adds or replaces
///   routes. An unknown path answers 404, a known path with another method 405; both fail with
///   `.unacceptableStatus`, like any status outside the endpoint's `acceptableStatusCodes` (401:
///   `.unauthorized`). The request is built by the same `RequestBuilder` as the remote client's, so an
///   invalid URL or body fails the same way.
/// - Timing: without a scheduler, the answer is immediate (the publisher delivers on the requesting thread).
///   With `init(latency:scheduler:)`, the publisher delivers exactly `latency` after the first request,
///   on `scheduler`, with no task or thread hop; cancelling before then cancels the scheduled action and
///   delivers nothing. The route's handler runs at delivery time. The async API waits the same way.
/// - Interceptors are not run: there is no token to refresh locally.
///
/// ```swift
/// let client: any NetworkClient = LocalClient()            // or RemoteClient()
/// let onVirtualTime = LocalClient(latency: .milliseconds(300), scheduler: testScheduler)
/// ```
public struct LocalClient: NetworkClient {
    private var routes: [String: [HTTPMethod: LocalRoute.Handler]] = [:]
    private let delivery: (latency: Duration, scheduler: any Scheduler)?
    /// Builds requests from endpoints.
    public let builder: RequestBuilder

    /// An immediate client serving `routes` (default: the bundled data sets).
    public init(routes: [LocalRoute] = LocalRoute.bundled, builder: RequestBuilder = RequestBuilder()) {
        self.delivery = nil
        self.builder = builder
        for route in routes { handle(route) }
    }

    /// A client answering `latency` later on `scheduler` (a `TestScheduler` in tests).
    public init(
        latency: Duration, scheduler: any Scheduler, routes: [LocalRoute] = LocalRoute.bundled,
        builder: RequestBuilder = RequestBuilder()
    ) {
        self.delivery = (latency, scheduler)
        self.builder = builder
        for route in routes { handle(route) }
    }

    /// Adds `route`, replacing any route with the same method and path.
    public mutating func handle(_ route: LocalRoute) {
        routes[route.path, default: [:]][route.method] = route.handler
    }

    /// Adds a route answering `method` `path` with `handler`, replacing any route with the same method and path.
    ///
    /// ```swift
    /// client.handle(.get, "/products/search") { request in .json(try search(request)) }
    /// ```
    public mutating func handle(
        _ method: HTTPMethod = .get, _ path: String, with handler: @escaping LocalRoute.Handler
    ) {
        handle(LocalRoute(method, path, handler: handler))
    }

    /// A copy of this client with a route added (see `handle(_:_:with:)`).
    public func handling(
        _ method: HTTPMethod = .get, _ path: String, with handler: @escaping LocalRoute.Handler
    ) -> LocalClient {
        var copy = self
        copy.handle(method, path, with: handler)
        return copy
    }

    /// The endpoint's response, now, validated against its acceptable status codes.
    public func answer(_ endpoint: any Endpoint) -> Result<NetworkResponse, NetworkError> {
        do throws(NetworkError) {
            let urlRequest = try builder.request(for: endpoint)
            let request = LocalRequest(endpoint: endpoint, urlRequest: urlRequest)
            let response = try route(request)
            return .success(try ResponseValidation.validate(response, for: endpoint))
        } catch {
            return .failure(error)
        }
    }

    /// Answers `endpoint` through `completion`: at once, or `latency` later on the scheduler.
    /// The returned value cancels a scheduled answer (then `completion` is never called).
    public func answer(
        _ endpoint: any Endpoint, completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void
    ) -> any Cancellable {
        guard let delivery else {
            completion(answer(endpoint))
            return AnyCancellable {}
        }
        return delivery.scheduler.schedule(after: delivery.scheduler.now + delivery.latency) {
            completion(answer(endpoint))
        }
    }

    /// The endpoint's response once its status is acceptable (after the latency, if any).
    public func response(for endpoint: any Endpoint) async throws(NetworkError) -> NetworkResponse {
        try await withCancellableCompletion { done in answer(endpoint, completion: done) }
    }

    /// A publisher of the endpoint's response; see the type's timing contract.
    public func responsePublisher(for endpoint: any Endpoint) -> AnyPublisher<NetworkResponse, NetworkError> {
        LocalResponsePublisher(client: self, endpoint: endpoint).eraseToAnyPublisher()
    }

    private func route(_ request: LocalRequest) throws(NetworkError) -> NetworkResponse {
        guard let handlers = routes[request.path] else {
            return NetworkResponse(
                statusCode: 404, headers: ["Content-Type": "text/plain"],
                body: Data("no route for \(request.method.rawValue) \(request.path)".utf8))
        }
        guard let handler = handlers[request.method] else {
            let allowed = handlers.keys.map(\.rawValue).sorted().joined(separator: ", ")
            return NetworkResponse(
                statusCode: 405, headers: ["Allow": allowed, "Content-Type": "text/plain"],
                body: Data("\(request.method.rawValue) not allowed on \(request.path)".utf8))
        }
        return try handler(request)
    }
}

/// Publishes a `LocalClient`'s answer to one endpoint, on the client's scheduler after its latency.
private struct LocalResponsePublisher: Publisher {
    typealias Output = NetworkResponse
    typealias Failure = NetworkError

    let client: LocalClient
    let endpoint: any Endpoint

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(
            subscription: LocalResponseSubscription(client: client, endpoint: endpoint, downstream: subscriber))
    }
}

/// Asks the client for the answer on the first request and delivers it once, unless cancelled first. What
/// changes is in `state`, under that `Locked`'s lock; `client` and `endpoint` are immutable.
private final class LocalResponseSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    @unchecked Sendable
where Downstream.Input == NetworkResponse, Downstream.Failure == NetworkError {
    private struct State {
        var downstream: Downstream?
        var isStarted = false
        var pending: (any Cancellable)?
    }

    private let client: LocalClient
    private let endpoint: any Endpoint
    // `downstream == nil` means delivered or cancelled.
    private let state: Locked<State>

    init(client: LocalClient, endpoint: any Endpoint, downstream: Downstream) {
        self.client = client
        self.endpoint = endpoint
        self.state = Locked(State(downstream: downstream))
    }

    var description: String { "LocalResponse" }

    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        let start = state.withLock { state in
            defer { state.isStarted = true }
            return state.downstream != nil && !state.isStarted
        }
        guard start else { return }
        let callback = ResultCallback<NetworkResponse, NetworkError> { [self] result in deliver(result) }
        let pending = client.answer(endpoint) { result in callback(result) }
        let cancelled = state.withLock { state in
            if state.downstream == nil { return true }
            state.pending = pending
            return false
        }
        if cancelled { pending.cancel() }
    }

    func cancel() {
        let pending = state.withLock { state in
            defer {
                state.downstream = nil
                state.pending = nil
            }
            return state.pending
        }
        pending?.cancel()
    }

    private func deliver(_ result: Result<NetworkResponse, NetworkError>) {
        let downstream = state.withLock { state in
            defer {
                state.downstream = nil
                state.pending = nil
            }
            return state.downstream
        }
        guard let downstream else { return }
        switch result {
        case .success(let response):
            _ = downstream.receive(response)
            downstream.receive(completion: .finished)
        case .failure(let error):
            downstream.receive(completion: .failure(error))
        }
    }
}
