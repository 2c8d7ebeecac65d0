import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `URLRequest` as the bytes of an HTTP/1.1 request message, with the host and port to connect to: what
/// `SocketTransport` writes on its connection.
///
/// - Request line: the method and the URL's percent-encoded path (`/` when empty) and query.
/// - Header fields: the request's own, plus `Host` (the URL's host and any non-default port), `Accept: */*`
///   and a `User-Agent` unless the request sets them, `Content-Length` when there is a body (or the method
///   is POST, PUT or PATCH), and `Connection: close`.
/// - A field name or value containing a line break is refused (`URLError(.badURL)`), so no request can
///   smuggle a header or a second request.
///
/// ```swift
/// let message = try HTTPRequestMessage(URLRequest(url: url), url: url)   // message.bytes, .host, .port
/// ```
struct HTTPRequestMessage {
    /// The method, upper-cased (`GET` by default).
    let method: String
    /// The host to connect to: a name or an address (an IPv6 address without brackets).
    let host: String
    /// The port to connect to (80 when the URL names none).
    let port: Int
    /// The whole message: request line, header fields, empty line, body.
    let bytes: [UInt8]

    /// The `User-Agent` sent when the request names none.
    static let userAgent = "Streams-Networking/1.0"

    init(_ request: URLRequest, url: URL) throws(URLError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            var host = components.host, !host.isEmpty
        else {
            throw TCPConnection.error(.badURL, "the address \(url.absoluteString) has no host")
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let port = components.port ?? 80
        guard (1...65_535).contains(port) else {
            throw TCPConnection.error(.badURL, "the port \(port) is not a number from 1 to 65535")
        }
        self.host = host
        self.port = port
        method = (request.httpMethod ?? "GET").uppercased()
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        let body = request.httpBody ?? Data()
        var fields: [(String, String)] = []
        var named = Set<String>()
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            let lower = name.lowercased()
            if lower == "content-length" || lower == "connection" || lower == "transfer-encoding" { continue }
            guard !name.contains(where: { $0 == "\r" || $0 == "\n" || $0 == ":" }),
                !value.contains(where: { $0 == "\r" || $0 == "\n" })
            else {
                throw TCPConnection.error(.badURL, "the header field \(name.debugDescription) contains a line break")
            }
            fields.append((name, value))
            named.insert(lower)
        }
        if !named.contains("host") {
            let written = host.contains(":") ? "[\(host)]" : host
            fields.insert(("Host", port == 80 ? written : "\(written):\(port)"), at: 0)
        }
        if !named.contains("accept") { fields.append(("Accept", "*/*")) }
        if !named.contains("user-agent") { fields.append(("User-Agent", Self.userAgent)) }
        if !body.isEmpty || ["POST", "PUT", "PATCH"].contains(method) {
            fields.append(("Content-Length", String(body.count)))
        }
        fields.append(("Connection", "close"))
        var head = "\(method) \(target) HTTP/1.1\r\n"
        for (name, value) in fields { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        bytes = Array(head.utf8) + body
    }
}
