import Foundation

/// An HTTP method.
public enum HTTPMethod: String, Sendable, CaseIterable {
    /// GET: read a resource.
    case get = "GET"
    /// HEAD: GET without the body.
    case head = "HEAD"
    /// POST: create or submit; not idempotent.
    case post = "POST"
    /// PUT: replace a resource.
    case put = "PUT"
    /// PATCH: change part of a resource; not idempotent.
    case patch = "PATCH"
    /// DELETE: remove a resource.
    case delete = "DELETE"
    /// OPTIONS: ask what the server allows.
    case options = "OPTIONS"

    /// Whether repeating the request has the same effect as sending it once (RFC 9110 §9.2.2):
    /// GET, HEAD, PUT, DELETE, OPTIONS. Only idempotent requests are retried automatically.
    public var isIdempotent: Bool { self != .post && self != .patch }
}

/// A value in a request's parameters, encoded by `URLEncoding` or `JSONEncoding`.
///
/// ```swift
/// let parameters: [String: ParameterValue] = ["search": "red car", "page": 2, "brand": ["Audi", "BMW"]]
/// ```
public enum ParameterValue: Sendable, Equatable {
    /// Text.
    case string(String)
    /// An integer.
    case int(Int)
    /// A floating-point number.
    case double(Double)
    /// A boolean: `true` / `false` in a query string.
    case bool(Bool)
    /// Several values: repeated keys in a query string, a JSON array in JSON.
    case array([ParameterValue])
}

extension ParameterValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral
{
    /// A string parameter.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer parameter.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A floating-point parameter.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A boolean parameter.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array parameter.
    public init(arrayLiteral elements: ParameterValue...) { self = .array(elements) }
}

/// What a request carries besides its URL and headers.
public enum HTTPTask: Sendable {
    /// No parameters and no body.
    case plain
    /// Parameters encoded by `encoding` (a query string, a form body, or a JSON body).
    case parameters([String: ParameterValue], encoding: ParameterEncoding)
    /// An `Encodable` value sent as a JSON body (`Content-Type: application/json`).
    case jsonBody(any Encodable & Sendable)
}

/// How `HTTPTask.parameters` are put into a request.
public enum ParameterEncoding: Sendable, Equatable {
    /// `URLEncoding` into the URL's query string (sorted keys, percent-escaped).
    case queryString
    /// `URLEncoding` into an `application/x-www-form-urlencoded` body.
    case formBody
    /// `JSONEncoding`: the parameters as a JSON object body.
    case json
}

/// Describes one request of an API. Apps implement it with an enum, one case per request.
///
/// ```swift
/// enum Catalog: Endpoint {
///     case products(search: String)
///     var baseURL: URL { URL(string: "https://api.example.com")! }
///     var path: String { "/products" }
///     var task: HTTPTask {
///         switch self { case .products(let search): .parameters(["search": .string(search)], encoding: .queryString) }
///     }
/// }
/// ```
public protocol Endpoint: Sendable {
    /// The scheme, host, port and optional leading path shared by the API's endpoints.
    var baseURL: URL { get }
    /// The path appended to `baseURL`, e.g. `"/products"`.
    var path: String { get }
    /// The HTTP method; default `.get`.
    var method: HTTPMethod { get }
    /// Parameters or body; default `.plain`.
    var task: HTTPTask { get }
    /// Extra header fields; default none.
    var headers: [String: String] { get }
    /// How long the whole exchange may take — connecting, sending, redirects and the last byte of the
    /// response — before it fails with `.timeout`; default 30 seconds.
    var timeout: Duration { get }
    /// The most bytes a response body may have; a longer one fails with `.responseTooLarge` (the default
    /// transport stops reading and closes the connection at the limit). Default
    /// ``NetworkResponse/defaultMaximumBodySize`` (10 MiB); raise it for an endpoint that returns more.
    var maximumResponseSize: Int { get }
    /// Status codes treated as success; default `200..<300`. Others fail with `.unacceptableStatus`.
    var acceptableStatusCodes: Range<Int> { get }
}

extension Endpoint {
    /// `.get`.
    public var method: HTTPMethod { .get }
    /// `.plain`.
    public var task: HTTPTask { .plain }
    /// No extra headers.
    public var headers: [String: String] { [:] }
    /// 30 seconds.
    public var timeout: Duration { .seconds(30) }
    /// ``NetworkResponse/defaultMaximumBodySize`` (10 MiB).
    public var maximumResponseSize: Int { NetworkResponse.defaultMaximumBodySize }
    /// `200..<300`.
    public var acceptableStatusCodes: Range<Int> { 200..<300 }
}
