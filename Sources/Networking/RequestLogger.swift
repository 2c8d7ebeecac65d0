import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Writes one line per request sent and per outcome received, with secrets redacted.
///
/// Header fields named in `redactedHeaders` (case-insensitive; default `Authorization`,
/// `Proxy-Authorization`, `Cookie`, `Set-Cookie`) are logged as `<redacted>`. Bodies are not logged,
/// only their size. `write` is called on whatever thread the client is running on.
///
/// ```swift
/// let client = RemoteClient(logger: RequestLogger { print($0) })
/// // → GET http://127.0.0.1:8080/users [Authorization: <redacted>] (0 bytes)
/// // ← 200 GET http://127.0.0.1:8080/users (5123 bytes)
/// ```
public struct RequestLogger: Sendable {
    /// Header names whose values are never logged (compared case-insensitively).
    public let redactedHeaders: Set<String>
    private let write: @Sendable (String) -> Void

    /// A logger sending each line to `write`.
    public init(
        redactedHeaders: Set<String> = ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"],
        write: @escaping @Sendable (String) -> Void
    ) {
        self.redactedHeaders = Set(redactedHeaders.map { $0.lowercased() })
        self.write = write
    }

    /// Logs a request about to be sent.
    public func log(_ request: URLRequest) {
        let headers = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }
            .map { "\($0.key): \(redact($0.key, $0.value))" }
            .joined(separator: ", ")
        write("→ \(describe(request)) [\(headers)] (\(request.httpBody?.count ?? 0) bytes)")
    }

    /// Logs the outcome of `request`: a response's status and size, or the error.
    public func log(_ outcome: Result<NetworkResponse, NetworkError>, for request: URLRequest) {
        switch outcome {
        case .success(let response):
            write("← \(response.statusCode) \(describe(request)) (\(response.body.count) bytes)")
        case .failure(let error):
            write("✕ \(describe(request)): \(error)")
        }
    }

    private func redact(_ name: String, _ value: String) -> String {
        redactedHeaders.contains(name.lowercased()) ? "<redacted>" : value
    }

    private func describe(_ request: URLRequest) -> String {
        "\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "?")"
    }
}
