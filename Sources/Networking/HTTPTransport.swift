import Foundation
import Streams

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends one `URLRequest` and reports the HTTP response or why there is none: the seam `RemoteClient`
/// sends through, so unit tests can stub the network.
///
/// Contract: call `completion` exactly once, on any thread, with the response whatever its status, or with
/// `.timeout`, `.cancelled` or `.transport`. The returned `Cancellable` cancels the request; after it, the
/// completion may still be called (with `.cancelled`) or not at all.
///
/// ```swift
/// let client = RemoteClient(transport: URLSessionTransport(session: .shared))
/// ```
public protocol HTTPTransport: Sendable {
    /// Starts sending `request`; returns what cancels it.
    func send(
        _ request: URLRequest, completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void
    ) -> any Cancellable
}

/// The default transport: a `URLSession` data task per request (FoundationNetworking on Linux).
///
/// Maps `URLError.timedOut` to `.timeout`, `URLError.cancelled` to `.cancelled`, and every other failure to
/// `.transport` carrying the `URLError`. Cancelling cancels the data task, which closes its connection.
///
/// ```swift
/// let transport = URLSessionTransport()                  // an ephemeral session of its own
/// ```
public struct URLSessionTransport: HTTPTransport {
    /// The session the data tasks run in.
    public let session: URLSession

    /// A transport over `session`; by default a new ephemeral session (no cookies or cache on disk).
    public init(session: URLSession = URLSession(configuration: .ephemeral)) {
        self.session = session
    }

    /// Starts a data task for `request`.
    public func send(
        _ request: URLRequest, completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void
    ) -> any Cancellable {
        let task = session.dataTask(with: request) { data, response, error in
            completion(Self.result(data: data, response: response, error: error))
        }
        task.resume()
        return DataTaskCancellable(task: task)
    }

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

/// Cancels a `URLSessionTask`.
private struct DataTaskCancellable: Cancellable, @unchecked Sendable {
    let task: URLSessionTask
    func cancel() { task.cancel() }
}
