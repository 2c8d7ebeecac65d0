import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The request that follows a redirect response (RFC 9110 §15.4), as `SocketTransport` follows them.
///
/// - 301, 302, 303, 307 and 308 with a `Location` are followed; any other response is final (nil).
/// - 303, and 301 or 302 answering a POST, continue as a GET without body or `Content-Type` (what browsers
///   and `URLSession` do); 307 and 308 repeat the method and body.
/// - A relative `Location` is resolved against the request's URL. `Authorization` and `Cookie` are dropped
///   when the host, port or scheme changes, so credentials never reach another server.
///
/// ```swift
/// if let next = HTTPRedirect.request(following: response, of: request) { /* send next */ }
/// ```
enum HTTPRedirect {
    /// The request to send next, or nil when `response` is not a redirect to follow.
    static func request(following response: NetworkResponse, of request: URLRequest) -> URLRequest? {
        guard [301, 302, 303, 307, 308].contains(response.statusCode),
            let location = response.headers.first(where: { $0.key.lowercased() == "location" })?.value,
            let base = request.url,
            let target = URL(string: location.trimmingCharacters(in: .whitespaces), relativeTo: base)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        var next = request
        next.url = target
        let method = (request.httpMethod ?? "GET").uppercased()
        if response.statusCode == 303 || ([301, 302].contains(response.statusCode) && method == "POST") {
            next.httpMethod = method == "HEAD" ? "HEAD" : "GET"
            next.httpBody = nil
            next.setValue(nil, forHTTPHeaderField: "Content-Type")
        }
        if origin(of: base) != origin(of: target) {
            next.setValue(nil, forHTTPHeaderField: "Authorization")
            next.setValue(nil, forHTTPHeaderField: "Cookie")
        }
        return next
    }

    /// Scheme, host and port: what must stay the same for credentials to be sent on.
    private static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
