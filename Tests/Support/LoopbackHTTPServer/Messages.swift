import Foundation

extension LoopbackHTTPServer {
    /// A request as the server received it.
    public struct Request: Sendable {
        /// The method, e.g. `"GET"`.
        public let method: String
        /// The path without the query, e.g. `"/products"`.
        public let path: String
        /// The raw query string after `?` (percent-encoded, as sent), or `""`.
        public let query: String
        /// Header fields, names lowercased.
        public let headers: [String: String]
        /// The body bytes.
        public let body: Data
        let connection: Connection

        /// The value of the header `name` (case-insensitive).
        public func header(_ name: String) -> String? { headers[name.lowercased()] }

        /// Blocks the handler until the client closes the connection or `timeout` passes (real time, so keep
        /// it short); returns whether the client disconnected. Counted in `disconnectCount`.
        public func waitUntilDisconnected(timeout: Duration) -> Bool {
            connection.waitUntilDisconnected(timeout: timeout)
        }
    }

    /// A response a handler returns.
    public struct Response: Sendable {
        /// The status code.
        public var status: Int
        /// Extra header fields (`Content-Length` and `Connection: close` are added by the server).
        public var headers: [String: String]
        /// The body bytes sent.
        public var body: Data
        /// A `Content-Length` larger than `body`: the server sends `body` and then closes the connection
        /// mid-body. `nil`: the real length.
        public var declaredLength: Int?
        /// Set: the body is sent with chunked transfer coding instead of `body`, one chunk per call of the
        /// writer the closure is given; the writer returns false once the client is gone. The last chunk is
        /// sent when the closure returns.
        public var chunks: (@Sendable (_ write: (Data) -> Bool) -> Void)?

        /// A response.
        public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data(), declaredLength: Int? = nil)
        {
            self.status = status
            self.headers = headers
            self.body = body
            self.declaredLength = declaredLength
        }

        /// A JSON response whose body `chunks` sends chunk by chunk (chunked transfer coding), for as long
        /// as it likes: an endless body is a closure that writes until the writer returns false.
        public static func chunked(_ chunks: @escaping @Sendable (_ write: (Data) -> Bool) -> Void) -> Response {
            var response = Response(status: 200, headers: ["Content-Type": "application/json"])
            response.chunks = chunks
            return response
        }

        /// A JSON response.
        public static func json(_ body: Data, status: Int = 200) -> Response {
            Response(status: status, headers: ["Content-Type": "application/json"], body: body)
        }

        /// A JSON response from text.
        public static func json(_ text: String, status: Int = 200) -> Response { json(Data(text.utf8), status: status) }

        /// A plain-text response.
        public static func text(_ text: String, status: Int = 200) -> Response {
            Response(status: status, headers: ["Content-Type": "text/plain"], body: Data(text.utf8))
        }

        /// Declares `length` bytes, sends `body` (shorter) and closes the connection.
        public static func truncated(declaring length: Int, sending body: Data) -> Response {
            Response(status: 200, headers: ["Content-Type": "application/json"], body: body, declaredLength: length)
        }
    }
}
