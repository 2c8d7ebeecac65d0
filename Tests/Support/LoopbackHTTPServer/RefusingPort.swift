import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A port on 127.0.0.1 that refuses every connection, for as long as this value lives: a socket bound to it
/// that never listens.
///
/// A stopped ``LoopbackHTTPServer``'s port is not that: the system may hand it at once to a server another test
/// starts, and a client expecting a refusal then talks to that server. A bound socket keeps the port taken, and
/// a connection to a port bound but not listening is refused.
///
/// ```swift
/// let refusing = try RefusingPort()
/// let error = await caught { try await client.response(for: Endpoint(baseURL: refusing.baseURL, path: "/")) }
/// ```
public final class RefusingPort: Sendable {
    /// The port, taken by this value until it is released.
    public let port: UInt16
    /// `http://127.0.0.1:<port>`.
    public let baseURL: URL
    private let socket: Int32

    /// Takes a free port on 127.0.0.1.
    public init() throws {
        (socket, port) = try bindLoopbackSocket(reusingAddress: false)
        guard let url = URL(string: "http://127.0.0.1:\(port)") else {
            close(socket)
            throw ServerError("URL", EINVAL)
        }
        baseURL = url
    }

    deinit { close(socket) }
}
