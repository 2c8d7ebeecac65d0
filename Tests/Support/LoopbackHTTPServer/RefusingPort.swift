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
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw ServerError("socket", errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            close(socket)
            throw ServerError("bind", code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        self.socket = socket
        port = UInt16(bigEndian: address.sin_port)
        guard let url = URL(string: "http://127.0.0.1:\(port)") else { throw ServerError("URL", EINVAL) }
        baseURL = url
    }

    deinit { close(socket) }
}
