import Foundation
import Networking

/// Answers the fetch counter's status endpoint (`GET /status`) locally: always 200.
///
/// A remote server may answer `/status` with any code (200, 404, 500…); the fetch counter counts every HTTP
/// response and shows its code (``FeatureEndpoint`` accepts every status for this request).
/// - Response: 200 with `{"status": 200}`; 404 for another path.
///
/// ```swift
/// let response = StatusRoute.response(path: "/status", queryItems: [])   // 200
/// ```
public enum StatusRoute {
    /// `/status`.
    public static let path = "/status"

    /// The local answer to `GET path`: 200 for `/status`, 404 otherwise. `queryItems` are ignored.
    public static func response(path: String, queryItems: [URLQueryItem]) -> NetworkResponse {
        guard ProductSearchRoute.normalized(path) == Self.path else {
            return RouteResponse.error(status: 404, "no route for \(path)")
        }
        return RouteResponse.json(["status": 200])
    }
}
