import Foundation
import Streams

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends one `URLRequest` and reports the HTTP response or why there is none: the seam `RemoteClient`
/// sends through, so unit tests can stub the network.
///
/// Contract: call `completion` exactly once, on any thread, with the response whatever its status, or with
/// `.timeout`, `.cancelled`, `.responseTooLarge` or `.transport`. The returned `Cancellable` cancels the
/// request; after it, the completion may still be called (with `.cancelled`) or not at all.
///
/// Two transports ship: ``SocketTransport`` (the default: `http` on a socket of its own, with a hard response
/// limit and a whole-exchange deadline; other schemes through `URLSession`) and ``URLSessionTransport``.
///
/// ```swift
/// let client = RemoteClient(transport: URLSessionTransport(session: .shared))
/// ```
public protocol HTTPTransport: Sendable {
    /// Starts sending `request`; returns what cancels it.
    func send(
        _ request: URLRequest, completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void
    ) -> any Cancellable

    /// Starts sending `request`, failing with ``NetworkError/responseTooLarge(limit:)`` when the response body
    /// is longer than `maximumResponseSize` bytes; returns what cancels it. `RemoteClient` calls this one,
    /// with the endpoint's ``Endpoint/maximumResponseSize``.
    ///
    /// The default implementation calls ``send(_:completion:)`` and checks the size of the whole body when
    /// it has arrived, so the limit holds for the caller but memory is not bounded while the body arrives;
    /// a transport that reads the body itself implements this to stop at the limit.
    func send(
        _ request: URLRequest, maximumResponseSize: Int,
        completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void
    ) -> any Cancellable
}

extension HTTPTransport {
    /// Sends with ``send(_:completion:)`` and fails a response whose whole body is over the limit.
    public func send(
        _ request: URLRequest, maximumResponseSize: Int,
        completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void
    ) -> any Cancellable {
        send(request) { result in
            if case .success(let response) = result, response.body.count > maximumResponseSize {
                return completion(.failure(.responseTooLarge(limit: maximumResponseSize)))
            }
            completion(result)
        }
    }
}

/// A `URLSession` data task per request (FoundationNetworking on Linux): every scheme `URLSession` speaks,
/// https included, proxies from the environment, and transparent `Content-Encoding` decoding.
///
/// - Limits: on Linux, FoundationNetworking buffers the whole body before the completion handler runs, so
///   the response limit is checked on the whole body (memory is not bounded while it arrives), and a
///   cancelled transfer is not reliably stopped. ``SocketTransport`` (the default of `RemoteClient`) has
///   neither problem for `http`, and hands `https` to this transport.
///
/// - Errors: `URLError.timedOut` is `.timeout`, `URLError.cancelled` is `.cancelled`, every other failure is
///   `.transport` carrying the `URLError`. Cancelling cancels the data task, which closes its connection.
/// - Timeout: the request's `timeoutInterval` is enforced as a deadline for the complete response, to the
///   millisecond. (FoundationNetworking hands libcurl whole seconds, so on Linux a 0.5 s timeout would
///   otherwise fire at once; the session is given the interval rounded up, and this transport cancels the
///   task at the exact deadline and reports `.timeout`.)
///
/// ```swift
/// let transport = URLSessionTransport()                  // an ephemeral session of its own
/// ```
///
/// - Note: not the default of `RemoteClient` any more; pass it explicitly (`RemoteClient(transport:
///   URLSessionTransport())`) for what only `URLSession` does, such as proxies.
public struct URLSessionTransport: HTTPTransport {
    /// The session the data tasks run in.
    public let session: URLSession

    /// A transport over `session`; by default a new ephemeral session (no cookies or cache on disk).
    public init(session: URLSession = URLSession(configuration: .ephemeral)) {
        self.session = session
    }

    /// Starts a data task for `request`, with a deadline `request.timeoutInterval` from now.
    public func send(
        _ request: URLRequest, completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void
    ) -> any Cancellable {
        // A deadline beyond a year, or infinite, is capped there (libcurl takes whole seconds in an Int).
        let deadline = request.timeoutInterval.isNaN ? 0 : min(request.timeoutInterval, SocketTransport.longestDeadline)
        var sent = request
        sent.timeoutInterval = max(1, deadline.rounded(.up))
        let outcome = Locked(DeadlineState.running)
        let task = session.dataTask(with: sent) { data, response, error in
            let timedOut = outcome.withLock { state in
                defer { state = .finished }
                return state == .timedOut
            }
            completion(timedOut ? .failure(.timeout) : Self.result(data: data, response: response, error: error))
        }
        let cancellable = DataTaskCancellable(task: task)
        if deadline > 0 {
            DispatchQueue.global().asyncAfter(deadline: .now() + deadline) {
                let expired = outcome.withLock { state in
                    guard state == .running else { return false }
                    state = .timedOut
                    return true
                }
                if expired { cancellable.cancel() }
            }
        }
        task.resume()
        return cancellable
    }

    private enum DeadlineState { case running, timedOut, finished }

    static func result(data: Data?, response: URLResponse?, error: (any Error)?) -> Result<
        NetworkResponse, NetworkError
    > {
        if let error { return .failure(map(error)) }
        guard let http = response as? HTTPURLResponse else {
            return .failure(.transport(URLError(.badServerResponse)))
        }
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in http.allHeaderFields { headers[name] = value }
        return .success(NetworkResponse(statusCode: http.statusCode, headers: headers, body: data ?? Data()))
    }

    /// The `NetworkError` for an error a `URLSession` task completed with.
    public static func map(_ error: any Error) -> NetworkError {
        guard let urlError = error as? URLError else { return .transport(error) }
        switch urlError.code {
        case .timedOut: return .timeout
        case .cancelled: return .cancelled
        default: return .transport(urlError)
        }
    }
}

/// Cancels a `URLSessionTask`. Immutable, and `URLSessionTask.cancel()` is safe from any thread (the task
/// serialises its own state on an internal queue).
private struct DataTaskCancellable: Cancellable, @unchecked Sendable {
    let task: URLSessionTask
    func cancel() { task.cancel() }
}
