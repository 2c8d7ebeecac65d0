import Foundation
import Streams

/// A received HTTP response: status code, header fields and the raw body.
public struct NetworkResponse: Sendable, Equatable {
    /// The HTTP status code.
    public var statusCode: Int
    /// Header fields as received (names as the server spelled them).
    public var headers: [String: String]
    /// The body bytes (empty for 204 or HEAD).
    public var body: Data

    /// The response size limit of an endpoint that sets none (``Endpoint/maximumResponseSize``): 10 MiB.
    public static let defaultMaximumBodySize = 10 * 1024 * 1024

    /// Creates a response.
    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }
}

/// Sends endpoints' requests. Two interchangeable implementations: `RemoteClient` (HTTP) and
/// `LocalClient` (bundled JSON, optional simulated latency on a scheduler); swap them in one line.
///
/// Both APIs fail only with `NetworkError`. A response whose status is outside the endpoint's
/// `acceptableStatusCodes` fails with `.unacceptableStatus`.
public protocol NetworkClient: Sendable {
    /// Sends the endpoint's request and returns the response once its status is acceptable.
    func response(for endpoint: any Endpoint) async throws(NetworkError) -> NetworkResponse

    /// A publisher that sends the request when subscribed, publishes the response once and finishes.
    /// Cancelling the subscription cancels the underlying request.
    func responsePublisher(for endpoint: any Endpoint) -> AnyPublisher<NetworkResponse, NetworkError>
}
