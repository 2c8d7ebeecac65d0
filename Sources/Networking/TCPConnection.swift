import Foundation
import Streams

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A non-blocking TCP client socket whose every wait ends at a deadline: what `SocketTransport` sends a
/// request and reads a response through.
///
/// - Deadline: `connect`, `send` and `receive` wait in `poll` for at most the time left until `deadline`,
///   and fail with `URLError(.timedOut)` when it has passed.
/// - Abort: another thread ends every wait at once through ``Abort/abort()``, which shuts the socket down;
///   the waiting call then fails with `URLError(.cancelled)`.
/// - Errors: `URLError`s with the code `RetryPolicy` and `NetworkError` understand, and a sentence saying
///   what failed as their localized description.
final class TCPConnection {
    /// Lets another thread end the connection's waits. The descriptor is shut down and closed only under
    /// `lock`, so an abort never touches a descriptor number the system has already reused.
    final class Abort: Sendable {
        private struct State {
            var descriptor: Int32 = -1
            var isAborted = false
        }

        /// Guards the descriptor and the flag.
        private let state = Locked(State())

        init() {}

        /// Whether ``abort()`` was called.
        var isAborted: Bool { state.withLock { $0.isAborted } }

        /// Ends the connection's waits now and every later one.
        func abort() {
            state.withLock { state in
                state.isAborted = true
                if state.descriptor >= 0 { _ = shutdown(state.descriptor, Int32(SHUT_RDWR)) }
            }
        }

        /// Registers `descriptor`; false (and the descriptor closed) if already aborted.
        fileprivate func adopt(_ descriptor: Int32) -> Bool {
            state.withLock { state in
                guard !state.isAborted else {
                    _ = close(descriptor)
                    return false
                }
                state.descriptor = descriptor
                return true
            }
        }

        /// Closes the registered descriptor.
        fileprivate func closeDescriptor() {
            state.withLock { state in
                if state.descriptor >= 0 { _ = close(state.descriptor) }
                state.descriptor = -1
            }
        }
    }

    private let descriptor: Int32
    private let abort: Abort
    private let deadline: ContinuousClock.Instant?

    private init(descriptor: Int32, abort: Abort, deadline: ContinuousClock.Instant?) {
        self.descriptor = descriptor
        self.abort = abort
        self.deadline = deadline
    }

    deinit { abort.closeDescriptor() }

    /// Connects to `host` (a name, an IPv4 address, or an IPv6 address without brackets) on `port`, trying
    /// each address the name resolves to in turn.
    static func connect(
        host: String, port: Int, deadline: ContinuousClock.Instant?, abort: Abort
    ) throws(URLError) -> TCPConnection {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw error(.cannotFindHost, "the server's host name \(host) could not be found; check the address")
        }
        defer { freeaddrinfo(first) }
        var lastError = error(
            .cannotConnectToHost,
            "could not connect to \(display(host)):\(port); check that the server is running and that the address and port are right")
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry?.pointee {
            entry = address.ai_next
            if abort.isAborted { throw error(.cancelled, "the request was cancelled") }
            // Closed on exec: a child process the app starts meanwhile must not inherit the connection (it would
            // keep it open, and the server waiting, until the child exits).
            let descriptor = socket(
                address.ai_family, address.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), address.ai_protocol)
            guard descriptor >= 0 else { continue }
            guard abort.adopt(descriptor) else { throw error(.cancelled, "the request was cancelled") }
            let connection = TCPConnection(descriptor: descriptor, abort: abort, deadline: deadline)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            var noDelay: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
            if systemConnect(descriptor, address.ai_addr, address.ai_addrlen) == 0 { return connection }
            guard errno == EINPROGRESS else {
                lastError = connectError(errno, host: host, port: port)
                continue
            }
            do {
                try connection.wait(for: Int16(POLLOUT))
            } catch let failure where failure.code == .timedOut || failure.code == .cancelled {
                throw failure
            } catch {
                lastError = connectError(ECONNREFUSED, host: host, port: port)
                continue
            }
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length)
            if code == 0 { return connection }
            lastError = connectError(code, host: host, port: port)
        }
        throw lastError
    }

    /// Sends every byte of `bytes`.
    func send(_ bytes: [UInt8]) throws(URLError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                systemSend(descriptor, raw.baseAddress! + offset, raw.count - offset)
            }
            if sent > 0 {
                offset += sent
            } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                try wait(for: Int16(POLLOUT))
            } else {
                if abort.isAborted { throw Self.error(.cancelled, "the request was cancelled") }
                throw Self.error(.networkConnectionLost, "the connection to the server was lost while sending the request")
            }
        }
    }

    /// Receives up to `buffer.count` bytes into `buffer`; 0 when the server has closed the connection.
    func receive(into buffer: inout [UInt8]) throws(URLError) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in recv(descriptor, raw.baseAddress!, raw.count, 0) }
            if abort.isAborted { throw Self.error(.cancelled, "the request was cancelled") }
            if count >= 0 { return count }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
                throw Self.error(.networkConnectionLost, "the connection to the server was lost while reading the answer")
            }
            try wait(for: Int16(POLLIN))
        }
    }

    /// Waits until the socket is ready for `events`, the deadline passes, or the connection is aborted.
    private func wait(for events: Int16) throws(URLError) {
        while true {
            if abort.isAborted { throw Self.error(.cancelled, "the request was cancelled") }
            var timeout: Int32 = -1
            if let deadline {
                let left = deadline - ContinuousClock.now
                guard left > .zero else { throw Self.error(.timedOut, "the server did not answer in time") }
                let (seconds, attoseconds) = left.components
                timeout = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, timeout)
            if ready > 0 {
                if entry.revents & Int16(POLLNVAL) != 0 || abort.isAborted {
                    throw Self.error(.cancelled, "the request was cancelled")
                }
                if entry.revents & Int16(POLLERR) != 0 && events == Int16(POLLOUT) {
                    throw Self.error(.cannotConnectToHost, "the connection failed")
                }
                return
            }
            if ready < 0 && errno != EINTR {
                throw Self.error(.networkConnectionLost, "waiting for the server failed")
            }
        }
    }

    /// A `URLError` whose localized description is `sentence`.
    static func error(_ code: URLError.Code, _ sentence: String) -> URLError {
        URLError(code, userInfo: [NSLocalizedDescriptionKey: sentence])
    }

    private static func connectError(_ code: Int32, host: String, port: Int) -> URLError {
        let reason =
            switch code {
            case ECONNREFUSED: "the connection was refused"
            case ENETUNREACH, EHOSTUNREACH: "the host cannot be reached"
            case ETIMEDOUT: "the connection attempt timed out"
            default: String(cString: strerror(code)).lowercased()
            }
        return error(
            .cannotConnectToHost,
            "could not connect to \(display(host)):\(port) (\(reason)); check that the server is running and that the address and port are right")
    }

    /// `host` as written in a URL: an IPv6 address in brackets.
    private static func display(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }
}

/// The system's `connect`, by a name the class's own `connect` does not shadow.
private func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
    connect(descriptor, address, length)
}

/// The system's `send`, never raising SIGPIPE on a closed connection.
private func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
}
