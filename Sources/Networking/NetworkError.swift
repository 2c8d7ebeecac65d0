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
    /// The whole exchange did not finish within the endpoint's `timeout`.
    case timeout
    /// The response body is longer than the endpoint's ``Endpoint/maximumResponseSize`` (`limit` bytes); the
    /// transport stopped reading it.
    case responseTooLarge(limit: Int)
    /// The request was cancelled by its caller (task cancellation or publisher cancellation).
    case cancelled
    /// A response arrived with a status code outside the endpoint's acceptable codes. ``description`` shows
    /// the body as one line of at most ``descriptionSnippetLength`` characters (an HTML page without its tags).
    case unacceptableStatus(code: Int, body: String)
    /// The body could not be decoded as the expected type: `path` is where in the JSON (`[3].price`), and
    /// `description` says what is wrong in plain words (`the field "price" is missing in item 4`).
    case decoding(path: String, description: String)
    /// The server answered 401 and no token refresh could recover.
    case unauthorized
    /// Refreshing the access token failed; every request waiting for it fails with this error.
    case refreshFailed(String)

    /// A one-line, human-readable explanation, suitable for logs and the REPL.
    public var description: String {
        switch self {
        case .invalidURL(let url): "invalid URL: \(url)"
        case .transport(let error as BundledDataMissing): error.description
        case .transport(let error as BundledDataInvalid): error.description
        case .transport(let error): "transport error: \(Self.explanation(of: error))"
        case .timeout: "the request timed out"
        case .cancelled: "the request was cancelled"
        case .responseTooLarge(let limit):
            "the server's answer is larger than the \(Self.size(limit)) this request allows; "
                + "if such an answer is expected, raise the endpoint's maximumResponseSize"
        case .unacceptableStatus(let code, let body):
            Self.oneLine(body).isEmpty ? "HTTP \(code)" : "HTTP \(code): \(Self.oneLine(body))"
        case .decoding(_, let description): "the answer could not be read: \(description)"
        case .unauthorized: "unauthorized (HTTP 401)"
        case .refreshFailed(let reason): "token refresh failed: \(reason)"
        }
    }

    /// `bytes` in the largest whole binary unit: "10 MiB", "512 KiB", "100 bytes".
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }

    /// The most characters of a response body that ``description`` shows.
    public static let descriptionSnippetLength = 120

    /// A one-line explanation of a transport error: Foundation errors give their localized description (not the
    /// whole `userInfo` dump), with the `URLError` code; where Foundation has no words for it (`The operation
    /// could not be completed. (NSURLErrorDomain error -1000.)`), the code is explained here. Other errors give
    /// their `description`.
    static func explanation(of error: any Error) -> String {
        if let urlError = error as? URLError {
            return "\(explanation(of: urlError)) (URLError \(urlError.code.rawValue))"
        }
        if type(of: error) is NSError.Type {
            let nsError = error as NSError
            if isGeneric(nsError.localizedDescription),
                let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
                !isGeneric(underlying.localizedDescription)
            {
                return underlying.localizedDescription
            }
            return nsError.localizedDescription
        }
        return String(describing: error)
    }

    /// Foundation's words for `error` when it has some, else an explanation of its code.
    private static func explanation(of error: URLError) -> String {
        if error.code == .badURL, let host = error.failingURL?.host, host.contains(":") {
            return "URLSession on this platform cannot connect to an IPv6 address written in the URL "
                + "(a FoundationNetworking limitation); use a host name that resolves to it, "
                + "such as localhost for [::1]"
        }
        let text = error.localizedDescription
        if !isGeneric(text) { return text }
        switch error.code {
        case .badURL:
            return "the address \(error.failingURL?.absoluteString ?? "") is not a URL that can be loaded; check it"
        case .unsupportedURL: return "the address is not an http or https URL"
        case .cannotFindHost, .dnsLookupFailed: return "the server's host name could not be found; check the address"
        case .cannotConnectToHost:
            return "could not connect to the server; check that it is running and that the address and port are right"
        case .networkConnectionLost: return "the connection to the server was lost"
        case .notConnectedToInternet: return "there is no network connection"
        case .timedOut: return "the server did not answer in time"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return "a secure (TLS) connection to the server could not be established"
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData:
            return "the server's answer is not valid HTTP"
        case .dataLengthExceedsMaximum: return "the server's answer is larger than allowed"
        case .cancelled: return "the request was cancelled"
        default: return "the request could not be sent"
        }
    }

    /// Whether `text` is Foundation's wording for an error it has no words for.
    private static func isGeneric(_ text: String) -> Bool {
        text.isEmpty || text.contains("(NSURLErrorDomain error") || text.contains("(NSCocoaErrorDomain error")
            || text.contains("(NSPOSIXErrorDomain error")
    }

    /// `body` as one line for a message: markup tags dropped when it looks like HTML or XML, every run of
    /// white space (line breaks included) made one space, cut to ``descriptionSnippetLength`` characters with a
    /// trailing `…`.
    static func oneLine(_ body: String) -> String {
        var text = body.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("<") {
            text = text.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
        }
        let words = text.split(whereSeparator: { $0.isWhitespace || $0.isNewline })
        let line = words.joined(separator: " ")
        guard line.count > descriptionSnippetLength else { return line }
        return String(line.prefix(descriptionSnippetLength)) + "…"
    }
}
