import Foundation
import LoopbackHTTPServer
import Networking
import Streams
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `SocketTransport` against servers that misbehave on 127.0.0.1: an endless body, a body dripping forever,
/// a server that never answers, redirects, a child process started mid-request. Real time, every wait bounded:
/// about 1.5 s in all (a broken deadline would show as a server answering after 60 s).
@Suite struct SocketTransportTests {
    /// An endpoint with a small response limit and a short deadline.
    struct LimitedEndpoint: Endpoint {
        let baseURL: URL
        var path: String
        var method: HTTPMethod = .get
        var headers: [String: String] = [:]
        var timeout: Duration = .seconds(10)
        var maximumResponseSize = 64 * 1024
    }

    private let client = RemoteClient(transport: SocketTransport())

    @Test func anEndlessChunkedBodyStopsAtTheLimitAndTheConnectionIsClosed() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let written = Locked(0)
        let hungUp = Locked(false)
        server.route("GET", "/endless") { _ in
            .chunked { write in
                let chunk = Data(repeating: UInt8(ascii: "x"), count: 4_096)
                // Endless, but bounded for the test's sake: the client must hang up long before 1 GiB.
                while written.withLock({ $0 }) < 1 << 30 {
                    guard write(chunk) else { return hungUp.withLock { $0 = true } }
                    written.withLock { $0 += chunk.count }
                }
            }
        }
        let error = await caught { try await client.response(for: LimitedEndpoint(baseURL: server.baseURL, path: "/endless")) }
        guard case .responseTooLarge(limit: 65_536) = error else { return fail("got \(String(describing: error))") }
        #expect(
            error?.description
                == "the server's answer is larger than the 64 KiB this request allows; if such an answer is expected, raise the endpoint's maximumResponseSize"
        )
        // The client hung up: the server's next writes failed. What it wrote beyond the limit is what the
        // sockets' buffers held.
        #expect(await server.wait(timeout: .seconds(20)) { _ in hungUp.withLock { $0 } })
        #expect(written.withLock { $0 } < 16 << 20)
    }

    /// A request's socket is closed on exec: a child process the app starts while the request is in flight
    /// does not inherit it, so the connection closes when the request ends, not when the child exits. The
    /// request ends by closing its socket (an endless body stopped at the limit), and the child, `sleep 30`, is
    /// started while the body flows. Before the fix the server kept writing into the connection the child held.
    @Test func aChildProcessStartedDuringARequestDoesNotKeepItsConnectionOpen() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let started = Locked(false)
        let childRunning = Locked(false)
        let hungUp = Locked(false)
        server.route("GET", "/endless") { _ in
            .chunked { write in
                let chunk = Data(repeating: UInt8(ascii: "x"), count: 4_096)
                let deadline = ContinuousClock.now + .seconds(20)
                var written = 0
                while written < 1 << 30 {  // endless, but bounded for the test's sake
                    guard write(chunk) else { return hungUp.withLock { $0 = true } }
                    written += chunk.count
                    started.withLock { $0 = true }
                    // Below the client's limit, the body waits (20 s at most) for the child to be running.
                    while written >= 16_384 && !childRunning.withLock({ $0 }) && ContinuousClock.now < deadline {
                        usleep(1_000)
                    }
                }
            }
        }
        let request = Task {
            await caught { try await client.response(for: LimitedEndpoint(baseURL: server.baseURL, path: "/endless")) }
        }
        #expect(await server.wait(timeout: .seconds(20)) { _ in started.withLock { $0 } })
        var child: pid_t = 0
        let arguments = ["/bin/sleep", "30"]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        #expect(posix_spawn(&child, "/bin/sleep", nil, nil, &argv, environ) == 0)
        defer {
            kill(child, SIGKILL)
            var status: Int32 = 0
            waitpid(child, &status, 0)
        }
        childRunning.withLock { $0 = true }
        guard case .responseTooLarge = await request.value else { return fail("the body was not stopped at the limit") }
        // The client closed its socket: the server's writes fail long before the child's 30 s are over.
        #expect(await server.wait(timeout: .seconds(10)) { _ in hungUp.withLock { $0 } })
    }

    @Test func aDeclaredLengthOverTheLimitFailsWithoutReadingTheBody() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/big") { _ in .json(Data(repeating: 0x20, count: 100_000)) }
        server.route("GET", "/fits") { _ in .json(Data(repeating: 0x20, count: 65_536)) }
        let endpoint = LimitedEndpoint(baseURL: server.baseURL, path: "/big")
        guard case .responseTooLarge = await caught({ try await client.response(for: endpoint) }) else {
            return fail("a body over the limit was accepted")
        }
        let fits = try await client.response(for: LimitedEndpoint(baseURL: server.baseURL, path: "/fits"))
        #expect(fits.body.count == 65_536)
    }

    @Test func theDeadlineCoversTheWholeExchangeEvenWhileBytesKeepArriving() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/drip") { _ in
            .chunked { write in
                // One byte every 20 ms for up to 60 s: never idle long enough for an idle timeout. Had only
                // idleness been bounded, this would end in a 3,000-byte success, not `.timeout`.
                for _ in 0..<3_000 {
                    guard write(Data(" ".utf8)) else { return }
                    usleep(20_000)
                }
            }
        }
        let started = ContinuousClock.now
        let error = await caught {
            try await client.response(
                for: LimitedEndpoint(baseURL: server.baseURL, path: "/drip", timeout: .milliseconds(400)))
        }
        guard case .timeout = error else { return fail("got \(String(describing: error))") }
        // No upper bound on the time: on a loaded machine (the sanitizer, parallel suites) resuming this
        // test can wait seconds for a thread. `.timeout` itself shows the deadline ended the exchange.
        #expect(ContinuousClock.now - started >= .milliseconds(400))
    }

    @Test func aServerThatNeverAnswersTimesOutAtTheDeadline() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/silent") { request in
            // Answers after 60 s, unless the client hangs up first: `.timeout` shows the deadline came first.
            _ = request.waitUntilDisconnected(timeout: .seconds(60))
            return .json("[]")
        }
        let started = ContinuousClock.now
        let error = await caught {
            try await client.response(
                for: LimitedEndpoint(baseURL: server.baseURL, path: "/silent", timeout: .milliseconds(300)))
        }
        guard case .timeout = error else { return fail("got \(String(describing: error))") }
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        #expect(await server.wait(timeout: .seconds(20)) { $0.disconnectCount == 1 })
    }

    @Test func cancellingAnEndlessBodyClosesTheConnectionAtOnce() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gone = Locked(false)
        server.route("GET", "/endless") { _ in
            .chunked { write in
                for _ in 0..<1_000_000 {
                    guard write(Data(" ".utf8)) else { return gone.withLock { $0 = true } }
                    usleep(1_000)
                }
            }
        }
        let endpoint = LimitedEndpoint(baseURL: server.baseURL, path: "/endless", maximumResponseSize: 1 << 30)
        let task = Task { try await client.response(for: endpoint) }
        #expect(await server.wait(timeout: .seconds(20)) { $0.requestCount("/endless") == 1 })
        task.cancel()
        guard case .cancelled? = await task.result.networkError else { return fail("expected cancelled") }
        #expect(await server.wait(timeout: .seconds(20)) { _ in gone.withLock { $0 } })
    }

    @Test func redirectsAreFollowedAsBrowsersDoAndCredentialsStayWithTheirHost() async throws {
        let server = try LoopbackHTTPServer()
        let other = try LoopbackHTTPServer()
        defer {
            server.stop()
            other.stop()
        }
        server.route("GET", "/old") { _ in .init(status: 301, headers: ["Location": "/new?x=1"]) }
        server.route("GET", "/new") { request in .json(#"{"query":"\#(request.query)"}"#) }
        server.route("POST", "/form") { _ in .init(status: 303, headers: ["Location": "/done"]) }
        server.route("GET", "/done") { request in .text("\(request.method) \(request.body.count)") }
        server.route("PUT", "/keep") { _ in .init(status: 307, headers: ["Location": "/kept"]) }
        server.route("PUT", "/kept") { request in .text("\(request.method) \(request.body.count)") }
        server.route("GET", "/away") { _ in .init(status: 302, headers: ["Location": other.baseURL.absoluteString + "/there"]) }
        other.route("GET", "/there") { request in .text(request.header("Authorization") ?? "none") }
        server.route("GET", "/loop") { _ in .init(status: 302, headers: ["Location": "/loop"]) }

        let base = server.baseURL
        #expect(try await client.response(for: LimitedEndpoint(baseURL: base, path: "/old")).body == Data(#"{"query":"x=1"}"#.utf8))
        var post = LimitedEndpoint(baseURL: base, path: "/form", method: .post)
        post.headers = ["Authorization": "Bearer secret"]
        #expect(try await client.response(for: post).body == Data("GET 0".utf8))
        #expect(server.requests.last?.header("Authorization") == "Bearer secret")  // same host: kept
        struct Upload: Endpoint {
            let baseURL: URL
            var path: String { "/keep" }
            var method: HTTPMethod { .put }
            var task: HTTPTask { .jsonBody(["a": 1]) }
        }
        #expect(try await client.response(for: Upload(baseURL: base)).body == Data("PUT 7".utf8))
        var away = LimitedEndpoint(baseURL: base, path: "/away")
        away.headers = ["Authorization": "Bearer secret"]
        #expect(try await client.response(for: away).body == Data("none".utf8))
        let loop = await caught { try await client.response(for: LimitedEndpoint(baseURL: base, path: "/loop")) }
        guard case .transport(let error as URLError) = loop, error.code == .httpTooManyRedirects else {
            return fail("got \(String(describing: loop))")
        }
        #expect(server.requestCount("/loop") == SocketTransport.maximumRedirects + 1)
    }

    @Test(arguments: LoopbackTransport.allCases)
    func anEndpointTimeoutTooLongForAnyClockMeansNoDeadline(_ transport: LoopbackTransport) async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/") { _ in .json("[]") }
        let endpoint = LimitedEndpoint(baseURL: server.baseURL, path: "/", timeout: .seconds(Int64.max))
        #expect(try await loopbackClient(transport).response(for: endpoint).statusCode == 200)
        var request = URLRequest(url: server.baseURL)
        request.timeoutInterval = .infinity
        let response = try await withCancellableCompletion { done in SocketTransport().send(request, completion: done) }
        #expect(response.statusCode == 200)
    }

    @Test func aRefusedConnectionIsATransientErrorInWords() async throws {
        let refusing = try RefusingPort()
        let error = await caught {
            try await client.response(for: LimitedEndpoint(baseURL: refusing.baseURL, path: "/"))
        }
        guard case .transport(let underlying) = error else { return fail("got \(String(describing: error))") }
        #expect(RetryPolicy.isTransient(underlying))
        #expect(
            error?.description
                == "transport error: could not connect to 127.0.0.1:\(refusing.port) (the connection was refused); check that the server is running and that the address and port are right (URLError -1004)"
        )
    }

    @Test func aHeaderWithALineBreakNeverBecomesASecondField() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/") { _ in .json("[]") }
        var endpoint = LimitedEndpoint(baseURL: server.baseURL, path: "/")
        endpoint.headers = ["X-Evil": "a\r\nX-Injected: b"]
        // Foundation drops such a value from the URLRequest; the transport refuses one that gets through.
        _ = await caught { try await client.response(for: endpoint) }
        #expect(server.requests.allSatisfy { $0.header("X-Injected") == nil })
    }

    @Test func aGarbageAnswerIsATransportErrorInWords() async throws {
        let listener = try RawServer(answer: "SSH-2.0-OpenSSH_9.2\r\n\r\n")
        let error = await caught { try await client.response(for: LimitedEndpoint(baseURL: listener.baseURL, path: "/")) }
        #expect(error?.description.contains("not valid HTTP: the answer does not start with an HTTP/1.x status line") == true)
    }
}

/// A one-shot server that answers the first connection with fixed bytes, whatever it asked.
private final class RawServer: Sendable {
    let baseURL: URL

    init(answer: String) throws {
        // Its own port, picked by the system (not a stopped server's: another test's server may take that).
        let (listener, port) = try bindLoopbackSocket(reusingAddress: false)
        guard listen(listener, 4) == 0 else {
            close(listener)
            throw URLError(.cannotConnectToHost)
        }
        guard let url = URL(string: "http://127.0.0.1:\(port)") else {
            close(listener)
            throw URLError(.badURL)
        }
        baseURL = url
        Thread {
            let connection = accept(listener, nil, nil)
            close(listener)
            guard connection >= 0 else { return }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)  // not inherited by a child process a test starts
            var request = [UInt8](repeating: 0, count: 4_096)
            _ = recv(connection, &request, request.count, 0)
            _ = Array(answer.utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(connection)
        }.start()
    }
}
