import Foundation

/// Every way a request can fail, with the context needed to explain it.
///
/// One enum for the whole networking layer, so callers `switch` once. Cases carry context: the status code
/// and a snippet of the body, the decoding path, the underlying transport error.
///
/// ```swift
/// do { let users: [User] = try await client.send(UsersEndpoint.all) }
/// catch .unacceptableStatus(let code, let body) { print("HTTP \(code): \(body)") }
/// ```
public enum NetworkError: Error, Sendable, CustomStringConvertible {
    /// The endpoint's base URL and path do not form a valid URL.
    case invalidURL(String)
    /// The request never produced an HTTP response (connection refused or reset, DNS, TLS…).
    case transport(any Error & Sendable)
    /// No complete response arrived within the endpoint's timeout.
    case timeout
    /// The request was cancelled by its caller (task cancellation or publisher cancellation).
    case cancelled
    /// A response arrived with a status code outside the endpoint's acceptable codes.
    case unacceptableStatus(code: Int, body: String)
    /// The body could not be decoded as the expected type.
    case decoding(path: String, description: String)
    /// The server answered 401 and no token refresh could recover.
    case unauthorized
    /// Refreshing the access token failed; every request waiting for it fails with this error.
    case refreshFailed(String)

    /// A one-line, human-readable explanation, suitable for logs and the REPL.
    public var description: String {
        switch self {
        case .invalidURL(let url): "invalid URL: \(url)"
        case .transport(let error): "transport error: \(Self.explanation(of: error))"
        case .timeout: "the request timed out"
        case .cancelled: "the request was cancelled"
        case .unacceptableStatus(let code, let body): body.isEmpty ? "HTTP \(code)" : "HTTP \(code): \(body)"
        case .decoding(let path, let description):
            path.isEmpty ? "malformed response: \(description)" : "malformed response at \(path): \(description)"
        case .unauthorized: "unauthorized (HTTP 401)"
        case .refreshFailed(let reason): "token refresh failed: \(reason)"
        }
    }

    /// A one-line explanation of a transport error: Foundation errors give their localized description (not the
    /// whole `userInfo` dump), with the `URLError` code; other errors their `description`.
    static func explanation(of error: any Error) -> String {
        if let urlError = error as? URLError {
            return "\(urlError.localizedDescription) (URLError \(urlError.code.rawValue))"
        }
        if type(of: error) is NSError.Type { return (error as NSError).localizedDescription }
        return String(describing: error)
    }
}
