import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request as a `LocalClient` route sees it: method, path, query items, header fields and body.
///
/// Built from the same `URLRequest` the remote client would send, so encodings behave identically.
/// `path` is the endpoint's `path`, normalized to one leading `/` and no trailing `/` (the base URL's own
/// path is not part of it), so routes match whatever base URL an endpoint uses.
///
/// ```swift
/// client.handle(.get, "/products/search") { request in
///     let text = request.queryValue("q") ?? ""
///     return try .json(encoding: catalog.search(text))
/// }
/// ```
public struct LocalRequest: Sendable {
    /// The HTTP method.
    public let method: HTTPMethod
    /// The endpoint's path, normalized: `"/products"`.
    public let path: String
    /// The query items, percent-decoded, in order.
    public let queryItems: [URLQueryItem]
    /// The header fields as the request carries them.
    public let headers: [String: String]
    /// The body (empty if none).
    public let body: Data
    /// The full request, for anything else.
    public let urlRequest: URLRequest

    /// A request for `endpoint` built into `urlRequest`.
    public init(endpoint: any Endpoint, urlRequest: URLRequest) {
        self.method = endpoint.method
        self.path = Self.normalize(endpoint.path)
        self.queryItems =
            urlRequest.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: true) }?
            .queryItems ?? []
        self.headers = urlRequest.allHTTPHeaderFields ?? [:]
        self.body = urlRequest.httpBody ?? Data()
        self.urlRequest = urlRequest
    }

    /// The first value of the query item `name` (`nil` if absent; `""` if it has no value).
    public func queryValue(_ name: String) -> String? {
        queryItems.first(where: { $0.name == name }).map { $0.value ?? "" }
    }

    /// Every value of the query item `name`, in order (arrays are encoded as repeated keys).
    public func queryValues(_ name: String) -> [String] {
        queryItems.filter { $0.name == name }.map { $0.value ?? "" }
    }

    /// `path` with exactly one leading `/` and no trailing `/`: `"products/"` → `"/products"`.
    public static func normalize(_ path: String) -> String {
        "/" + path.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
    }
}

extension NetworkResponse {
    /// A JSON response: `body` with `Content-Type: application/json`.
    ///
    /// ```swift
    /// return .json(try BundledData.users.data())
    /// ```
    public static func json(_ body: Data, statusCode: Int = 200) -> NetworkResponse {
        NetworkResponse(statusCode: statusCode, headers: ["Content-Type": "application/json"], body: body)
    }

    /// A JSON response with `value` encoded by `encoder` (default: sorted keys).
    ///
    /// - Throws: `.transport(RequestBodyEncodingError)` if `value` cannot be encoded.
    public static func json(
        encoding value: any Encodable, statusCode: Int = 200, encoder: JSONEncoder = JSONEncoding.defaultEncoder()
    ) throws(NetworkError) -> NetworkResponse {
        .json(try JSONEncoding.encode(value: value, encoder: encoder), statusCode: statusCode)
    }
}
