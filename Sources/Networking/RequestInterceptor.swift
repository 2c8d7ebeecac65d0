import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why an attempt of a request failed: a response with an unacceptable status, or no response at all.
public enum RequestFailure: Sendable {
    /// A response arrived whose status is outside the endpoint's acceptable codes (401 included).
    case status(NetworkResponse)
    /// No response: `.timeout`, `.transport` (never `.cancelled`: a cancelled request is not retried).
    case error(NetworkError)

    /// The error the request fails with if nobody retries it (`.unauthorized` for a 401).
    public var error: NetworkError {
        switch self {
        case .status(let response): ResponseValidation.error(for: response)
        case .error(let error): error
        }
    }

    /// The status code, if a response arrived.
    public var statusCode: Int? {
        if case .status(let response) = self { response.statusCode } else { nil }
    }
}

/// What an interceptor decides about a failed attempt.
public enum RetryDecision: Sendable, Equatable {
    /// Send the request again now.
    case retry
    /// Send the request again after the delay.
    case retryAfter(Duration)
    /// This interceptor does not retry; the next interceptor decides, else the request fails.
    case doNotRetry
    /// Stop: fail the request with this error (e.g. `.refreshFailed`), asking no other interceptor.
    case fail(NetworkError)

    /// Compares decisions; two `.fail` decisions are equal when their errors describe the same.
    public static func == (lhs: RetryDecision, rhs: RetryDecision) -> Bool {
        switch (lhs, rhs) {
        case (.retry, .retry), (.doNotRetry, .doNotRetry): true
        case (.retryAfter(let left), .retryAfter(let right)): left == right
        case (.fail(let left), .fail(let right)): left.description == right.description
        default: false
        }
    }
}

/// Adapts each request before it is sent and decides whether a failed attempt is retried.
///
/// `RemoteClient` runs `adapt` of every interceptor, in order, before every attempt (so a retry gets a fresh
/// token); after a failed attempt it asks `retry` of each interceptor in order, and the first decision
/// other than `.doNotRetry` wins. Both default to "no change".
///
/// ```swift
/// let client = RemoteClient(interceptors: [AuthenticationInterceptor(refresher: refresher), RetryPolicy()])
/// ```
public protocol RequestInterceptor: Sendable {
    /// The request to send instead of `request`; throw to fail the request without sending it
    /// (a thrown `NetworkError` is kept, any other error becomes `.transport`).
    func adapt(_ request: URLRequest) async throws -> URLRequest

    /// Whether to send `request` (as it was sent: adapted) again after it failed with `failure`.
    /// `attemptCount` counts the attempts made so far, this one included (1 after the first failure).
    func retry(_ request: URLRequest, dueTo failure: RequestFailure, attemptCount: Int) async -> RetryDecision
}

extension RequestInterceptor {
    /// Sends `request` unchanged.
    public func adapt(_ request: URLRequest) async throws -> URLRequest { request }

    /// `.doNotRetry`.
    public func retry(_ request: URLRequest, dueTo failure: RequestFailure, attemptCount: Int) async -> RetryDecision {
        .doNotRetry
    }
}
