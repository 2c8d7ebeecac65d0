import Foundation
import Streams

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default transport: HTTP/1.1 over a TCP socket of its own for `http://` URLs, with a hard limit on the
/// response size and a deadline for the whole exchange; `https://` (and any other scheme) goes to a fallback
/// transport, by default ``URLSessionTransport``.
///
/// Why not `URLSession` for everything: on Linux, FoundationNetworking buffers a response body without limit
/// and does not reliably stop a transfer it was asked to cancel (measured here: 3 of 18 cancelled transfers
/// of an endless body kept running and growing memory). This transport reads the body itself, so it stops
/// at the limit and closes the connection.
///
/// - Limits: a response body over the request's `maximumResponseSize` fails with
///   ``NetworkError/responseTooLarge(limit:)`` as soon as it passes the limit (or at once, when
///   `Content-Length` announces it); the status line and header fields are at most 64 KiB.
/// - Deadline: `request.timeoutInterval` bounds the whole exchange — name lookup, connecting, sending,
///   every redirect and the last byte of the body — and fails with ``NetworkError/timeout`` exactly then.
///   A `timeoutInterval` of 0 or less, or over a year, means no deadline.
/// - Redirects: 301, 302, 303, 307 and 308 are followed, at most ``maximumRedirects`` times; 303 (and 301/302
///   after a POST) continue as a GET without body, as browsers and `URLSession` do. `Authorization` and
///   `Cookie` are not sent to another host. A redirect to `https` continues on the fallback transport.
/// - Connection: one connection per request (`Connection: close`), IPv4 and IPv6 (`http://[::1]:8080`),
///   `TCP_NODELAY`. Not supported: proxies, `Content-Encoding` decoding (no `Accept-Encoding` is sent unless
///   the request sets it, and then the body arrives as the server encoded it), request body streams.
/// - Errors: connection failures are `.transport(URLError)` with the codes `RetryPolicy` treats as
///   transient (`.cannotConnectToHost`, `.networkConnectionLost`, `.cannotFindHost`) and a sentence as
///   their description; a response that is not valid HTTP is `.transport(URLError(.badServerResponse))`.
/// - Threading: each request runs on a thread of its own; `completion` is called exactly once, on that
///   thread, on the deadline's timer, or on the thread that cancels. Cancelling closes the connection at
///   once and completes with ``NetworkError/cancelled``.
///
/// ```swift
/// let client = RemoteClient(transport: SocketTransport())            // what RemoteClient() uses
/// let viaSession = RemoteClient(transport: URLSessionTransport())    // every scheme through URLSession
/// ```
public struct SocketTransport: HTTPTransport {
    /// The most redirects followed for one request.
    public static let maximumRedirects = 10
    /// The longest deadline kept, in seconds (a year); a longer or infinite `timeoutInterval` means none.
    static let longestDeadline: Double = 365 * 24 * 3600

    private let fallback: (any HTTPTransport)?

    /// A transport sending `http` requests itself and every other scheme through `fallback` (by default a
    /// ``URLSessionTransport`` shared by every `SocketTransport`, created on first use).
    public init(fallback: (any HTTPTransport)? = nil) {
        self.fallback = fallback
    }

    /// Sends `request` with the default response limit, ``NetworkResponse/defaultMaximumBodySize``.
    public func send(
        _ request: URLRequest, completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void
    ) -> any Cancellable {
        send(request, maximumResponseSize: NetworkResponse.defaultMaximumBodySize, completion: completion)
    }

    /// Sends `request`, failing with ``NetworkError/responseTooLarge(limit:)`` once the body passes
    /// `maximumResponseSize` bytes.
    public func send(
        _ request: URLRequest, maximumResponseSize: Int,
        completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void
    ) -> any Cancellable {
        let seconds = request.timeoutInterval
        // A deadline beyond a year (or infinite) is no deadline: it could not be represented in every clock.
        let bounded = seconds.isFinite && seconds > 0 && seconds <= Self.longestDeadline
        let deadline = bounded ? ContinuousClock.now + .milliseconds(Int64(seconds * 1000)) : nil
        let exchange = SocketExchange(
            fallback: fallback ?? Self.sessionFallback, maximumResponseSize: maximumResponseSize, deadline: deadline,
            completion: completion)
        if bounded {
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak exchange] in
                exchange?.finish(.failure(.timeout))
            }
        }
        let thread = Thread { exchange.run(request) }
        thread.name = "SocketTransport"
        thread.start()
        return exchange
    }

    /// The fallback when none is given: one `URLSession` for every `SocketTransport`, made on first use.
    private static let sessionFallback = URLSessionTransport()
}

/// One request of a ``SocketTransport``: runs on its own thread, and completes exactly once — with the
/// response, or when cancelled or out of time, whichever is first.
final class SocketExchange: Cancellable, Sendable {
    private struct State {
        var isFinished = false
        /// What cancels the fallback transport's request, after a hand-over.
        var handedOver: (any Cancellable)?
    }

    private let fallback: any HTTPTransport
    private let maximumResponseSize: Int
    private let deadline: ContinuousClock.Instant?
    private let completion: @Sendable (Result<NetworkResponse, NetworkError>) -> Void
    /// Ends the socket's waits when the exchange is finished from outside (cancel, deadline).
    private let abort = TCPConnection.Abort()
    /// Guards the finished flag and the hand-over.
    private let state = Locked(State())

    init(
        fallback: any HTTPTransport, maximumResponseSize: Int, deadline: ContinuousClock.Instant?,
        completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void
    ) {
        self.fallback = fallback
        self.maximumResponseSize = maximumResponseSize
        self.deadline = deadline
        self.completion = completion
    }

    /// Closes the connection and completes with `.cancelled`, unless already complete.
    func cancel() { finish(.failure(.cancelled)) }

    /// Completes with `result` if nothing completed yet, and stops whatever is still running.
    func finish(_ result: Result<NetworkResponse, NetworkError>) {
        let (first, handedOver) = state.withLock { state in
            defer {
                state.isFinished = true
                state.handedOver = nil
            }
            return (!state.isFinished, state.handedOver)
        }
        guard first else { return }
        abort.abort()
        handedOver?.cancel()
        completion(result)
    }

    /// Sends `request` and follows redirects; on the exchange's own thread.
    func run(_ request: URLRequest) {
        var current = request
        for _ in 0...SocketTransport.maximumRedirects {
            guard let url = current.url, let scheme = url.scheme?.lowercased() else {
                return finish(.failure(.invalidURL(current.url?.absoluteString ?? "")))
            }
            guard scheme == "http" else { return handOver(current) }
            let response: NetworkResponse
            do {
                response = try exchange(current, url: url)
            } catch {
                return finish(.failure(error))
            }
            guard let next = HTTPRedirect.request(following: response, of: current) else {
                return finish(.success(response))
            }
            current = next
        }
        finish(
            .failure(
                .transport(
                    TCPConnection.error(
                        .httpTooManyRedirects,
                        "the server redirected more than \(SocketTransport.maximumRedirects) times; check the address"))))
    }

    /// Sends `request` on a connection of its own and reads the response.
    private func exchange(_ request: URLRequest, url: URL) throws(NetworkError) -> NetworkResponse {
        let message: HTTPRequestMessage
        do {
            message = try HTTPRequestMessage(request, url: url)
        } catch {
            throw .transport(error)
        }
        do {
            let connection = try TCPConnection.connect(
                host: message.host, port: message.port, deadline: deadline, abort: abort)
            try connection.send(message.bytes)
            var reader = HTTPResponseReader(maximumBodySize: maximumResponseSize, hasBody: message.method != "HEAD")
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = try connection.receive(into: &buffer)
                do {
                    if count == 0 { return try reader.finishAtEndOfStream() }
                    if let response = try reader.consume(buffer[..<count]) { return response }
                } catch .bodyTooLarge {
                    throw NetworkError.responseTooLarge(limit: maximumResponseSize)
                } catch .malformed(let what) {
                    throw NetworkError.transport(
                        TCPConnection.error(.badServerResponse, "the server's answer is not valid HTTP: \(what)"))
                }
            }
        } catch let error as URLError {
            throw URLSessionTransport.map(error)
        } catch let error as NetworkError {
            throw error
        } catch {
            throw .transport(error)
        }
    }

    /// Continues on the fallback transport (a scheme this transport does not speak), with the time left.
    private func handOver(_ request: URLRequest) {
        var request = request
        if let deadline {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return finish(.failure(.timeout)) }
            let (seconds, attoseconds) = left.components
            request.timeoutInterval = Double(seconds) + Double(attoseconds) / 1e18
        }
        let cancellable = fallback.send(request, maximumResponseSize: maximumResponseSize) { [self] result in
            finish(result)
        }
        let finished = state.withLock { state in
            if !state.isFinished { state.handedOver = cancellable }
            return state.isFinished
        }
        if finished { cancellable.cancel() }
    }
}
