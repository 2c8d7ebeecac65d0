import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Turns an `Endpoint` into a `URLRequest`: URL, method, header fields, timeout, body and `Content-Type`.
///
/// - URL: `baseURL` (http or https, with a host) followed by `path`, joined with exactly one `/`;
///   characters not allowed in a path (a space…) are percent-escaped; a query already in `baseURL` is kept
///   and `.queryString` parameters are appended after it. Anything else is `NetworkError.invalidURL`,
///   never a crash.
/// - Body: `.formBody` sets `application/x-www-form-urlencoded; charset=utf-8`, `.json` and `.jsonBody` set
///   `application/json`, unless the endpoint's headers already name a `Content-Type`.
/// - Timeout: the endpoint's `timeout` becomes `timeoutInterval`.
/// - Threading: a value; use it from any thread.
///
/// ```swift
/// let request = try RequestBuilder().request(for: Catalog.products(search: "red car"))
/// ```
public struct RequestBuilder: Sendable {
    private let makeEncoder: @Sendable () -> JSONEncoder

    /// A builder whose `.json` / `.jsonBody` bodies are encoded by encoders from `makeEncoder`
    /// (default: `JSONEncoding.defaultEncoder()`, sorted keys).
    public init(jsonEncoder makeEncoder: @escaping @Sendable () -> JSONEncoder = JSONEncoding.defaultEncoder) {
        self.makeEncoder = makeEncoder
    }

    /// The request for `endpoint`.
    ///
    /// - Throws: `.invalidURL` if the base URL and path do not form an http(s) URL with a host;
    ///   `.transport(RequestBodyEncodingError)` if the body cannot be encoded.
    public func request(for endpoint: any Endpoint) throws(NetworkError) -> URLRequest {
        var components = try urlComponents(for: endpoint)
        var body: Data?
        var contentType: String?
        switch endpoint.task {
        case .plain:
            break
        case .parameters(let parameters, .queryString):
            let query = URLEncoding.encode(parameters)
            if !query.isEmpty {
                let existing = components.percentEncodedQuery.map { $0.isEmpty ? "" : $0 + "&" } ?? ""
                components.percentEncodedQuery = existing + query
            }
        case .parameters(let parameters, .formBody):
            body = Data(URLEncoding.encode(parameters).utf8)
            contentType = "application/x-www-form-urlencoded; charset=utf-8"
        case .parameters(let parameters, .json):
            body = try JSONEncoding.encode(parameters, encoder: makeEncoder())
            contentType = "application/json"
        case .jsonBody(let value):
            body = try JSONEncoding.encode(value: value, encoder: makeEncoder())
            contentType = "application/json"
        }
        guard let url = components.url else {
            throw .invalidURL(describe(endpoint))
        }
        var request = URLRequest(url: url)
        request.httpMethod = endpoint.method.rawValue
        request.timeoutInterval = Self.seconds(endpoint.timeout)
        for (name, value) in endpoint.headers.sorted(by: { $0.key < $1.key }) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        if let body {
            request.httpBody = body
            if let contentType, request.value(forHTTPHeaderField: "Content-Type") == nil {
                request.setValue(contentType, forHTTPHeaderField: "Content-Type")
            }
        }
        return request
    }

    private func urlComponents(for endpoint: any Endpoint) throws(NetworkError) -> URLComponents {
        let base = endpoint.baseURL.absoluteURL
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else {
            throw .invalidURL(describe(endpoint))
        }
        components.fragment = nil
        // The base path stays as it is written (an escaped `%2F` is not a separator); every trailing `/` goes.
        var basePath = Substring(components.percentEncodedPath)
        while basePath.hasSuffix("/") { basePath = basePath.dropLast() }
        let path = endpoint.path.drop(while: { $0 == "/" })
        guard !path.isEmpty else {
            components.percentEncodedPath = basePath.isEmpty ? "/" : String(basePath)
            return components
        }
        guard let escapedPath = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) else {
            throw .invalidURL(describe(endpoint))
        }
        components.percentEncodedPath = basePath + "/" + escapedPath
        return components
    }

    private func describe(_ endpoint: any Endpoint) -> String {
        let base = endpoint.baseURL.absoluteString
        let separator = base.hasSuffix("/") || endpoint.path.hasPrefix("/") || endpoint.path.isEmpty ? "" : "/"
        return base + separator + endpoint.path
    }

    /// `duration` in seconds, as `URLRequest.timeoutInterval` wants it.
    static func seconds(_ duration: Duration) -> TimeInterval {
        let parts = duration.components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}
