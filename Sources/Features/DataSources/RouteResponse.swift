import Foundation
import Networking

/// Builds the JSON responses of the feature routes.
enum RouteResponse {
    /// `status` with `{"error": message}`.
    static func error(status: Int, _ message: String) -> NetworkResponse {
        json(["error": message], status: status)
    }

    /// `value` as JSON with `Content-Type: application/json`; a value that cannot be encoded gives a 500.
    static func json<T: Encodable>(_ value: T, status: Int = 200, headers: [String: String] = [:]) -> NetworkResponse {
        var headers = headers
        headers["Content-Type"] = "application/json"
        do {
            return NetworkResponse(statusCode: status, headers: headers, body: try JSONEncoder().encode(value))
        } catch {
            let body = Data("{\"error\":\"the response could not be encoded\"}".utf8)
            return NetworkResponse(statusCode: 500, headers: ["Content-Type": "application/json"], body: body)
        }
    }
}
