import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One accepted connection: reads one request, runs the handler, writes the response, closes.
final class Connection: Sendable {
    private let socket: Int32
    private let shared: Shared

    init(socket: Int32, shared: Shared) {
        self.socket = socket
        self.shared = shared
    }

    func serve() {
        defer { close() }
        guard let request = readRequest() else { return }
        let handler = shared.state.withLock { state in
            state.requests.append(request)
            return state.routes[request.method + " " + request.path]
        }
        let response = handler?(request) ?? .text("no route for \(request.method) \(request.path)", status: 404)
        write(response)
    }

    /// Closes the socket (once: the server forgets it first, so it never shuts down a reused descriptor).
    func close() {
        let wasOpen = shared.state.withLock { $0.openSockets.remove(socket) != nil }
        if wasOpen { _ = Glibc.close(socket) }
    }

    func waitUntilDisconnected(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN) | 0x2000 /* POLLRDHUP */, revents: 0)
            guard poll(&descriptor, 1, 20) > 0 else { continue }
            var byte: UInt8 = 0
            let peeked = recv(socket, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
            if peeked == 0 || (peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                shared.state.withLock { $0.disconnects += 1 }
                return true
            }
            usleep(5_000)
        }
        return false
    }

    private func readRequest() -> LoopbackHTTPServer.Request? {
        var buffer = Data()
        let terminator = Data("\r\n\r\n".utf8)
        var headerEnd: Range<Data.Index>?
        while headerEnd == nil {
            guard buffer.count < 1 << 20, let chunk = receive() else { return nil }
            buffer.append(chunk)
            headerEnd = buffer.range(of: terminator)
        }
        guard let headerEnd else { return nil }
        let head = String(decoding: buffer[..<headerEnd.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(buffer[headerEnd.upperBound...])
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while body.count < length {
            guard let chunk = receive() else { return nil }
            body.append(chunk)
        }
        let target = String(requestLine[1])
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return LoopbackHTTPServer.Request(
            method: String(requestLine[0]).uppercased(), path: String(parts[0]),
            query: parts.count > 1 ? String(parts[1]) : "", headers: headers, body: body.prefix(length),
            connection: self)
    }

    private func receive() -> Data? {
        var bytes = [UInt8](repeating: 0, count: 16_384)
        let count = recv(socket, &bytes, bytes.count, 0)
        return count > 0 ? Data(bytes[..<count]) : nil
    }

    private func write(_ response: LoopbackHTTPServer.Response) {
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if let chunks = response.chunks {
            head += "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            guard sendAll(Data(head.utf8)) else { return }
            chunks { data in
                data.isEmpty || sendAll(Data(String(data.count, radix: 16).utf8 + [13, 10]) + data + Data([13, 10]))
            }
            guard sendAll(Data("0\r\n\r\n".utf8)) else { return }
            shutdown(socket, Int32(SHUT_WR))
            return
        }
        head += "Content-Length: \(response.declaredLength ?? response.body.count)\r\nConnection: close\r\n\r\n"
        guard sendAll(Data(head.utf8)), sendAll(response.body) else { return }
        shutdown(socket, Int32(SHUT_WR))
    }

    private func sendAll(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = send(socket, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
