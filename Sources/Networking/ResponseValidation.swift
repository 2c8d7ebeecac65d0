import Foundation

/// The status rules both clients apply to a response, so local and remote behave alike.
///
/// - A status in the endpoint's `acceptableStatusCodes` passes.
/// - 401 (when not acceptable) is `.unauthorized` — after the interceptors had their chance (remote client).
/// - Any other status is `.unacceptableStatus(code:body:)` with a snippet of the body (see `snippet(of:)`).
///
/// ```swift
/// let ok = try ResponseValidation.validate(response, for: endpoint)
/// ```
public enum ResponseValidation {
    /// The longest body snippet, in characters, carried by `.unacceptableStatus`.
    public static let snippetLength = 200

    /// `response` if its status is acceptable for `endpoint`; otherwise the matching error.
    public static func validate(
        _ response: NetworkResponse, for endpoint: any Endpoint
    ) throws(NetworkError) -> NetworkResponse {
        if endpoint.acceptableStatusCodes.contains(response.statusCode) { return response }
        throw error(for: response)
    }

    /// The error a response with an unacceptable status fails with.
    public static func error(for response: NetworkResponse) -> NetworkError {
        response.statusCode == 401
            ? .unauthorized : .unacceptableStatus(code: response.statusCode, body: snippet(of: response.body))
    }

    /// The body as text (invalid UTF-8 repaired), whitespace-trimmed, cut to `snippetLength` characters
    /// with a trailing `…` when cut.
    public static func snippet(of body: Data) -> String {
        let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count > snippetLength else { return text }
        return String(text.prefix(snippetLength)) + "…"
    }
}
