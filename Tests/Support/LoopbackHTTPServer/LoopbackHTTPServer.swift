import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for tests: real sockets, a thread per connection, `Connection: close`.
///
/// ```swift
/// let server = try LoopbackHTTPServer()          // binds 127.0.0.1, a port the OS picks
/// server.route("GET", "/users") { _ in .json(#"[{"id":1}]"#) }
/// let url = server.baseURL.appendingPathComponent("users")
/// defer { server.stop() }
/// ```
///
/// Unrouted requests get 404. Every request is recorded (`requests`, `requestCount(_:)`), thread-safely.
/// Handlers run on the connection's thread and may block briefly (e.g. `waitUntilDisconnected`).
/// `stop()` (also on deinit) stops accepting and shuts down open connections.
public final class LoopbackHTTPServer: Sendable {
    /// Answers one request.
    public typealias Handler = @Sendable (Request) -> Response

    /// `http://127.0.0.1:<port>`.
    public let baseURL: URL
    /// The port the OS picked.
    public let port: UInt16

    private let listener: Int32
    private let shared: Shared
    private let acceptThread: ServerLocked<pthread_t?>

    /// Binds 127.0.0.1 on a free port and starts accepting.
    public init() throws {
        let (socket, port) = try bindLoopbackSocket(reusingAddress: true)
        guard listen(socket, 128) == 0 else {
            let code = errno
            close(socket)
            throw ServerError("listen", code)
        }
        self.port = port
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        listener = socket
        shared = Shared()
        acceptThread = ServerLocked(nil)
        let shared = self.shared
        let thread = startThread { Self.acceptLoop(listener: socket, shared: shared) }
        guard let thread else {
            close(socket)
            throw ServerError("pthread_create", errno)
        }
        acceptThread.withLock { $0 = thread }
    }

    deinit { stop() }

    /// Answers `method` `path` (path without query) with `handler`, replacing an earlier route.
    public func route(_ method: String, _ path: String, handler: @escaping Handler) {
        shared.state.withLock { $0.routes[method.uppercased() + " " + path] = handler }
    }

    /// Every request received so far, in arrival order.
    public var requests: [Request] { shared.state.withLock { $0.requests } }

    /// How many requests for `path` (any method) arrived so far.
    public func requestCount(_ path: String) -> Int {
        shared.state.withLock { state in state.requests.count(where: { $0.path == path }) }
    }

    /// How many times a handler's `waitUntilDisconnected` saw the client close the connection.
    public var disconnectCount: Int { shared.state.withLock { $0.disconnects } }

    /// Waits (real time, polling every 5 ms without blocking a thread) until `condition` holds or `timeout`
    /// passes; returns whether it held. For tests' bounded end-to-end waits.
    public func wait(
        timeout: Duration = .seconds(2), until condition: @Sendable (LoopbackHTTPServer) -> Bool
    ) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition(self)
    }

    /// Stops accepting, waits for the accept thread, and shuts down open connections. Idempotent.
    public func stop() {
        let thread = acceptThread.withLock { thread in
            defer { thread = nil }
            return thread
        }
        guard let thread else { return }
        shared.state.withLock { $0.isStopped = true }
        pthread_join(thread, nil)
        close(listener)
        shared.state.withLock { state in
            for socket in state.openSockets { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    private static func acceptLoop(listener: Int32, shared: Shared) {
        while !shared.state.withLock({ $0.isStopped }) {
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            // Not inherited by a child process a test starts (it would hold the connection open).
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let registered = shared.state.withLock { state in
                if state.isStopped { return false }
                state.openSockets.insert(client)
                return true
            }
            guard registered else {
                close(client)
                continue
            }
            let connection = Connection(socket: client, shared: shared)
            if startThread({ connection.serve() }).map({ pthread_detach($0) }) == nil { connection.close() }
        }
    }
}

/// The state the server shares with its threads.
final class Shared: Sendable {
    struct State {
        var routes: [String: LoopbackHTTPServer.Handler] = [:]
        var requests: [LoopbackHTTPServer.Request] = []
        var openSockets: Set<Int32> = []
        var disconnects = 0
        var isStopped = false
    }

    let state = ServerLocked(State())
}

/// Why the server could not start.
public struct ServerError: Error, CustomStringConvertible {
    /// The failing call and its `errno`.
    public let description: String

    init(_ call: String, _ code: Int32) { description = "\(call) failed: \(String(cString: strerror(code)))" }
}

/// A TCP socket bound to a free port on 127.0.0.1 (the system picks it), and that port; not listening yet. The
/// caller owns the socket (and closes it).
public func bindLoopbackSocket(reusingAddress: Bool) throws -> (socket: Int32, port: UInt16) {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard socket >= 0 else { throw ServerError("socket", errno) }
    if reusingAddress {
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    }
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
    return (socket, UInt16(bigEndian: address.sin_port))
}
