/// One route of a `LocalClient`: a method and a path, and the closure that answers them.
///
/// The handler runs on the thread that delivers the response (the scheduler's, with latency; otherwise the
/// caller's). It may throw a `NetworkError` to simulate a failure (e.g. `.timeout`).
///
/// ```swift
/// let route = LocalRoute(.get, "/users") { _ in .json(try BundledData.users.data()) }
/// ```
public struct LocalRoute: Sendable {
    /// Answers one request.
    public typealias Handler = @Sendable (LocalRequest) throws(NetworkError) -> NetworkResponse

    /// The method the route answers.
    public let method: HTTPMethod
    /// The normalized path the route answers (see `LocalRequest.normalize`).
    public let path: String
    /// Produces the response.
    public let handler: Handler

    /// A route answering `method` `path` with `handler`.
    public init(_ method: HTTPMethod = .get, _ path: String, handler: @escaping Handler) {
        self.method = method
        self.path = LocalRequest.normalize(path)
        self.handler = handler
    }

    /// The routes serving the bundled data sets: `GET /products`, `GET /crypto`, `GET /users`.
    public static let bundled: [LocalRoute] = BundledData.allCases.map { data in
        LocalRoute(.get, "/" + data.rawValue) { _ throws(NetworkError) in .json(try data.data()) }
    }
}
