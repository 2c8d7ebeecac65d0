import Foundation

/// Reads one HTTP/1.1 response from the bytes of a connection as they arrive: the status line, the header
/// fields, then the body framed by `Content-Length`, by chunked transfer coding, or by the end of the
/// connection (RFC 9112 §6). Interim `1xx` responses are skipped.
///
/// The limits are what keep a misbehaving server from growing memory without bound:
/// - the status line and header fields together (and a chunked body's trailer) are at most
///   ``maximumHeadSize`` bytes;
/// - the body is at most `maximumBodySize` bytes: a `Content-Length` above it fails before any of the body is
///   read, a chunked or connection-delimited body fails as soon as it passes it.
///
/// A value with no I/O, so every framing case is a unit test; `SocketTransport` feeds it from a socket.
///
/// ```swift
/// var reader = HTTPResponseReader(maximumBodySize: 1 << 20, hasBody: true)
/// if let response = try reader.consume(Array("HTTP/1.1 204 No Content\r\n\r\n".utf8)) { print(response.statusCode) }
/// ```
struct HTTPResponseReader {
    /// Why the bytes are not an acceptable response.
    enum Failure: Error, Equatable {
        /// The bytes break HTTP/1.1's syntax; the text says where, for an error message.
        case malformed(String)
        /// The body is longer than the limit.
        case bodyTooLarge
    }

    /// The most bytes the status line and header fields (or a chunked body's trailer) may take.
    static let maximumHeadSize = 64 * 1024
    /// The longest chunk-size line (with extensions) accepted.
    static let maximumChunkLineLength = 1024

    private enum Phase {
        /// Collecting the status line and header fields.
        case head
        /// `remaining` more body bytes, then the response is complete.
        case length(remaining: Int)
        /// Waiting for a chunk-size line.
        case chunkSize
        /// `remaining` more bytes of the current chunk.
        case chunkData(remaining: Int)
        /// The CRLF after a chunk's data.
        case chunkEnd
        /// The trailer fields after the last chunk, up to an empty line.
        case trailer
        /// Everything until the connection closes.
        case untilClose
        /// The response is complete.
        case done
    }

    private let maximumBodySize: Int
    private let hasBody: Bool
    private var phase = Phase.head
    /// Received bytes not yet consumed: a partial line, or the head while it is incomplete.
    private var pending: [UInt8] = []
    /// How many bytes of an incomplete head were already searched for its end.
    private var scannedHeadBytes = 0
    private var trailerSize = 0
    private var statusCode = 0
    private var headers: [String: String] = [:]
    private var body = Data()

    /// A reader for the response to a request; `hasBody` is false for a response to `HEAD`, whose framing
    /// headers describe a body that is never sent.
    init(maximumBodySize: Int, hasBody: Bool) {
        self.maximumBodySize = max(0, maximumBodySize)
        self.hasBody = hasBody
    }

    /// Whether the response so far is complete.
    var isComplete: Bool { if case .done = phase { true } else { false } }

    /// Consumes `bytes` just received; returns the response once it is complete (bytes after it are ignored:
    /// the transport sends `Connection: close`).
    mutating func consume(_ bytes: some Collection<UInt8>) throws(Failure) -> NetworkResponse? {
        pending.append(contentsOf: bytes)
        var index = 0
        defer { pending.removeFirst(min(index, pending.count)) }
        while index < pending.count {
            switch phase {
            case .head:
                guard let end = headEnd(from: index, skipping: max(0, scannedHeadBytes - 3)) else {
                    guard pending.count - index <= Self.maximumHeadSize else {
                        throw .malformed("the status line and header fields are longer than 64 KiB")
                    }
                    scannedHeadBytes = pending.count - index
                    return nil
                }
                scannedHeadBytes = 0
                try parseHead(pending[index..<end.start])
                index = end.next
            case .length(let remaining):
                let count = min(remaining, pending.count - index)
                body.append(contentsOf: pending[index..<(index + count)])
                index += count
                phase = remaining == count ? .done : .length(remaining: remaining - count)
            case .chunkSize:
                guard let line = try nextLine(from: &index, limit: Self.maximumChunkLineLength, what: "chunk size")
                else { return nil }
                let size = try Self.chunkSize(line)
                guard size <= maximumBodySize - body.count else { throw .bodyTooLarge }
                phase = size == 0 ? .trailer : .chunkData(remaining: size)
            case .chunkData(let remaining):
                let count = min(remaining, pending.count - index)
                body.append(contentsOf: pending[index..<(index + count)])
                index += count
                phase = remaining == count ? .chunkEnd : .chunkData(remaining: remaining - count)
            case .chunkEnd:
                guard let line = try nextLine(from: &index, limit: 2, what: "chunk end") else { return nil }
                guard line.isEmpty else { throw .malformed("a chunk's data is longer than its declared size") }
                phase = .chunkSize
            case .trailer:
                guard let line = try nextLine(from: &index, limit: Self.maximumHeadSize, what: "trailer") else {
                    return nil
                }
                trailerSize += line.count + 2
                guard trailerSize <= Self.maximumHeadSize else {
                    throw .malformed("the trailer fields after the body are longer than 64 KiB")
                }
                if line.isEmpty { phase = .done }
            case .untilClose:
                let count = pending.count - index
                guard count <= maximumBodySize - body.count else { throw .bodyTooLarge }
                body.append(contentsOf: pending[index...])
                index = pending.count
            case .done:
                index = pending.count
            }
            if case .done = phase { return response }
        }
        if case .done = phase { return response }
        return nil
    }

    /// The response when the connection has closed: complete if the body runs until the close, else a
    /// failure saying what was cut short.
    mutating func finishAtEndOfStream() throws(Failure) -> NetworkResponse {
        switch phase {
        case .done, .untilClose:
            phase = .done
            return response
        case .head:
            throw pending.isEmpty
                ? .malformed("the server closed the connection without answering")
                : .malformed("the server closed the connection in the middle of the header fields")
        case .length(let remaining):
            throw .malformed("the server closed the connection \(remaining) bytes before the declared end of the body")
        case .chunkSize, .chunkData, .chunkEnd, .trailer:
            throw .malformed("the server closed the connection before the last chunk of the body")
        }
    }

    private var response: NetworkResponse { NetworkResponse(statusCode: statusCode, headers: headers, body: body) }

    /// Where the head that starts at `index` ends (`start`: its last byte + 1; `next`: the first byte after the
    /// empty line), searching from `skipped` bytes in (those before were searched already); nil if not yet.
    private func headEnd(from index: Int, skipping skipped: Int) -> (start: Int, next: Int)? {
        var position = index + skipped
        while position + 1 < pending.count {
            if pending[position] == 0x0A {
                if pending[position + 1] == 0x0A { return (position, position + 2) }
                if pending[position + 1] == 0x0D, position + 2 < pending.count, pending[position + 2] == 0x0A {
                    return (position, position + 3)
                }
            }
            position += 1
        }
        return nil
    }

    /// The next line from `index` without its line break (CRLF, or a lone LF), advancing `index`; nil while it
    /// is incomplete.
    private func nextLine(from index: inout Int, limit: Int, what: String) throws(Failure) -> ArraySlice<UInt8>? {
        guard let newline = pending[index...].firstIndex(of: 0x0A) else {
            guard pending.count - index <= limit else { throw .malformed("a \(what) line is too long") }
            return nil
        }
        var end = newline
        if end > index, pending[end - 1] == 0x0D { end -= 1 }
        guard end - index <= limit else { throw .malformed("a \(what) line is too long") }
        defer { index = newline + 1 }
        return pending[index..<end]
    }

    /// Parses the status line and header fields, then chooses how the body is framed.
    private mutating func parseHead(_ bytes: ArraySlice<UInt8>) throws(Failure) {
        // Split the bytes, not a String: in Swift "\r\n" is one Character, which never equals "\n".
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
        }
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3,
            parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), let code = Int(parts[1]), code >= 100
        else {
            throw .malformed("the answer does not start with an HTTP/1.x status line")
        }
        var fields: [(name: String, value: String)] = []
        for line in lines {
            if let first = line.first, first == " " || first == "\t" {
                guard let last = fields.popLast() else { throw .malformed("a header field starts with a space") }
                fields.append((last.name, last.value + " " + line.trimmingCharacters(in: .whitespaces)))
                continue
            }
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw .malformed("a header line has no field name")
            }
            let name = String(line[..<colon])
            guard !name.contains(where: { $0 == " " || $0 == "\t" }) else {
                throw .malformed("a header field name contains a space")
            }
            fields.append((name, line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        if (100..<200).contains(code) && code != 101 {
            phase = .head  // an interim response: the real one follows
            return
        }
        statusCode = code
        headers = [:]
        for field in fields {
            if let existing = headers.first(where: { $0.key.caseInsensitiveCompare(field.name) == .orderedSame }) {
                headers[existing.key] = existing.value + ", " + field.value
            } else {
                headers[field.name] = field.value
            }
        }
        phase = try bodyFraming(code: code, fields: fields)
    }

    /// How the body after a final response's head is delimited (RFC 9112 §6.3).
    private func bodyFraming(code: Int, fields: [(name: String, value: String)]) throws(Failure) -> Phase {
        if !hasBody || code == 204 || code == 304 || code == 101 { return .done }
        let codings = fields.filter { $0.name.lowercased() == "transfer-encoding" }
            .flatMap { $0.value.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if !codings.isEmpty {
            return codings.last == "chunked" ? .chunkSize : .untilClose
        }
        let lengths = Set(
            fields.filter { $0.name.lowercased() == "content-length" }
                .flatMap { $0.value.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces) })
        guard let length = lengths.first else { return .untilClose }
        guard lengths.count == 1, !length.isEmpty, length.count <= 18, length.allSatisfy({ $0.isASCII && $0.isNumber }),
            let count = Int(length)
        else {
            throw .malformed("the Content-Length header is not one number")
        }
        guard count <= maximumBodySize else { throw .bodyTooLarge }
        return count == 0 ? .done : .length(remaining: count)
    }

    /// The size a chunk-size line declares (hexadecimal, extensions after `;` ignored).
    private static func chunkSize(_ line: ArraySlice<UInt8>) throws(Failure) -> Int {
        let digits = line.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != 0x20 && $0 != 0x09 }
        guard !digits.isEmpty, digits.count <= 15 else { throw .malformed("a chunk size is not a hexadecimal number") }
        var size = 0
        for digit in digits {
            guard let value = hexValue(digit) else { throw .malformed("a chunk size is not a hexadecimal number") }
            size = size * 16 + value
        }
        return size
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }
}
