import Foundation
import Testing

@testable import Networking

/// `HTTPResponseReader`: every way HTTP/1.1 frames a body, the limits, and bytes arriving in any split.
@Suite struct HTTPResponseReaderTests {
    /// Feeds `text` to a fresh reader in pieces of `split` bytes (all at once when nil); then ends the stream.
    private func read(
        _ text: String, limit: Int = 1 << 20, hasBody: Bool = true, split: Int? = nil, endOfStream: Bool = true
    ) throws(HTTPResponseReader.Failure) -> NetworkResponse? {
        var reader = HTTPResponseReader(maximumBodySize: limit, hasBody: hasBody)
        let bytes = Array(text.utf8)
        var start = 0
        repeat {
            let end = min(bytes.count, start + (split ?? bytes.count))
            if let response = try reader.consume(bytes[start..<end]) { return response }
            start = end
        } while start < bytes.count
        return endOfStream ? try reader.finishAtEndOfStream() : nil
    }

    @Test func aContentLengthBodyIsReadExactlyAndWhatFollowsIsIgnored() throws {
        let response = try read("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-Total-Count: 74\r\n\r\nhelloEXTRA")
        #expect(response?.statusCode == 200)
        #expect(response?.body == Data("hello".utf8))
        #expect(response?.headers["X-Total-Count"] == "74")
    }

    @Test func aChunkedBodyIsJoinedWithExtensionsAndTrailersIgnored() throws {
        let text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=x\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nX-Trailer: y\r\n\r\n"
        #expect(try read(text, endOfStream: false)?.body == Data("hello world".utf8))
    }

    @Test func aBodyWithoutLengthRunsToTheEndOfTheConnection() throws {
        #expect(try read("HTTP/1.0 200 OK\r\n\r\nall of it")?.body == Data("all of it".utf8))
    }

    @Test func headAndNoContentAndNotModifiedHaveNoBodyWhateverTheHeadersSay() throws {
        #expect(try read("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n", hasBody: false, endOfStream: false)?.body == Data())
        #expect(try read("HTTP/1.1 204 No Content\r\n\r\n", endOfStream: false)?.statusCode == 204)
        #expect(try read("HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n", endOfStream: false)?.statusCode == 304)
    }

    @Test func interimResponsesAreSkipped() throws {
        let response = try read(
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok",
            endOfStream: false)
        #expect(response?.statusCode == 201)
        #expect(response?.body == Data("ok".utf8))
        #expect(response?.headers["Link"] == nil)
    }

    @Test func repeatedFieldsAreJoinedAndFoldedLinesContinueTheirField() throws {
        let response = try read("HTTP/1.1 200 OK\r\nVia: a\r\nvia: b\r\nX-Long: one\r\n  two\r\nContent-Length: 0\r\n\r\n")
        #expect(response?.headers["Via"] == "a, b")
        #expect(response?.headers["X-Long"] == "one two")
    }

    @Test func bareLineFeedsAreAccepted() throws {
        #expect(try read("HTTP/1.1 200 OK\nContent-Length: 2\n\nok", endOfStream: false)?.body == Data("ok".utf8))
    }

    @Test func aDeclaredLengthOverTheLimitFailsBeforeAnyBodyArrives() {
        #expect(throws: HTTPResponseReader.Failure.bodyTooLarge) {
            try read("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n", limit: 10, endOfStream: false)
        }
        #expect(throws: Never.self) {
            try read("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789", limit: 10)
        }
    }

    @Test func chunkedAndUnframedBodiesFailAsSoonAsTheyPassTheLimit() {
        let chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + String(repeating: "4\r\nabcd\r\n", count: 100)
        #expect(throws: HTTPResponseReader.Failure.bodyTooLarge) { try read(chunked, limit: 10, endOfStream: false) }
        let unframed = "HTTP/1.1 200 OK\r\n\r\n" + String(repeating: "x", count: 11)
        #expect(throws: HTTPResponseReader.Failure.bodyTooLarge) { try read(unframed, limit: 10, endOfStream: false) }
        #expect(throws: Never.self) { try read("HTTP/1.1 200 OK\r\n\r\n0123456789", limit: 10) }
    }

    @Test func anEndlessHeadFailsAt64KiB() {
        let head = "HTTP/1.1 200 OK\r\n" + String(repeating: "X-Filler: 0123456789\r\n", count: 4_000)
        #expect(throws: HTTPResponseReader.Failure.self) { try read(head, split: 1_000, endOfStream: false) }
    }

    @Test func malformedAnswersFailWithASentence() {
        let cases = [
            "SSH-2.0-OpenSSH\r\n\r\n",
            "HTTP/1.1 2000 OK\r\n\r\n",
            "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 5, 6\r\n\r\nhello",
            "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n",
        ]
        for text in cases {
            #expect(throws: HTTPResponseReader.Failure.self, "\(text.debugDescription)") {
                try read(text, endOfStream: false)
            }
        }
    }

    @Test func aConnectionClosedEarlySaysWhatWasCutShort() {
        let cut: [(String, String)] = [
            ("", "without answering"),
            ("HTTP/1.1 200 OK\r\nContent-", "header fields"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", "7 bytes before"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nab", "last chunk"),
        ]
        for (text, words) in cut {
            do {
                _ = try read(text)
                Issue.record("\(text.debugDescription) was accepted")
            } catch .malformed(let sentence) {
                #expect(sentence.contains(words), "\(sentence)")
            } catch {
                Issue.record("\(text.debugDescription): \(error)")
            }
        }
    }

    /// Seeded: random responses in every framing, cut into random pieces, read back unchanged; and random
    /// bytes never crash the reader (they are a response, a failure, or incomplete).
    @Test func randomResponsesInRandomPiecesReadBackAndGarbageNeverCrashes() throws {
        var random = SeededGenerator(seed: 20_261_124)
        for round in 0..<500 {
            let body = (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            var text = Array("HTTP/1.1 200 OK\r\nX-Round: \(round)\r\n".utf8)
            let framing = round % 3
            switch framing {
            case 0:
                text += Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
            case 1:
                text += Array("Transfer-Encoding: chunked\r\n\r\n".utf8)
                var rest = body[...]
                while !rest.isEmpty {
                    let size = Int.random(in: 1...rest.count, using: &random)
                    text += Array("\(String(size, radix: 16))\r\n".utf8) + rest.prefix(size) + Array("\r\n".utf8)
                    rest = rest.dropFirst(size)
                }
                text += Array("0\r\n\r\n".utf8)
            default:
                text += Array("\r\n".utf8) + body
            }
            var reader = HTTPResponseReader(maximumBodySize: 1_000, hasBody: true)
            var response: NetworkResponse?
            var start = 0
            while response == nil && start < text.count {
                let end = min(text.count, start + Int.random(in: 1...40, using: &random))
                response = try reader.consume(text[start..<end])
                start = end
            }
            if response == nil { response = try reader.finishAtEndOfStream() }
            #expect(response?.body == Data(body), "round \(round), framing \(framing)")
            #expect(response?.headers["X-Round"] == "\(round)")

            let garbage = (0..<Int.random(in: 0...200, using: &random)).map { _ in
                Bool.random(using: &random) ? UInt8.random(in: 0...255, using: &random) : Array("HTTP/1.1 2\r\n:0\t ;".utf8).randomElement(using: &random)!
            }
            var other = HTTPResponseReader(maximumBodySize: 50, hasBody: true)
            _ = try? other.consume(garbage)
            _ = try? other.finishAtEndOfStream()
        }
    }
}

/// SplitMix64, so the fuzz test sees the same bytes on every run.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
