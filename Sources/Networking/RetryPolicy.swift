import Foundation
import Streams

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Retries idempotent requests after transient failures, with exponential back-off.
///
/// - What retries: only idempotent methods (GET, HEAD, PUT, DELETE, OPTIONS — never POST or PATCH), and only
///   after a status in `retryableStatusCodes` (408, 429, 500–599 by default), `.timeout`, or a transient
///   transport error (connection lost or refused, host unreachable, DNS, not connected).
/// - How many: `maxRetries` is the number of retries **after the first attempt**, so a request is sent at
///   most `maxRetries + 1` times. `RetryPolicy(maxRetries: 2)` sends at most 3 times.
/// - When: the n-th retry waits `backoff.delay(beforeRetry: n)` (default 0.5 s, 1 s, 2 s … capped at 10 s),
///   or the response's `Retry-After` seconds when present (capped at `backoff`'s cap, or 60 s).
///   The wait itself is done by `RemoteClient` through its injectable `sleep`, so tests use no real time.
///
/// ```swift
/// let client = RemoteClient(interceptors: [RetryPolicy(maxRetries: 2)])
/// ```
public struct RetryPolicy: RequestInterceptor {
    /// Retries after the first attempt (total attempts ≤ `maxRetries + 1`).
    public var maxRetries: Int
    /// The delay before each retry.
    public var backoff: RetryBackoff
    /// Statuses that are retried.
    public var retryableStatusCodes: Set<Int>

    /// A policy; by default at most 2 retries, 0.5 s doubling up to 10 s, statuses 408, 429 and 5xx.
    public init(
        maxRetries: Int = 2,
        backoff: RetryBackoff = .exponential(initial: .milliseconds(500), multiplier: 2, maxDelay: .seconds(10)),
        retryableStatusCodes: Set<Int> = Set([408, 429]).union(500...599)
    ) {
        self.maxRetries = max(0, maxRetries)
        self.backoff = backoff
        self.retryableStatusCodes = retryableStatusCodes
    }

    /// `.retryAfter(delay)` for a retryable failure of an idempotent request with retries left;
    /// otherwise `.doNotRetry`.
    public func retry(_ request: URLRequest, dueTo failure: RequestFailure, attemptCount: Int) async -> RetryDecision {
        decision(for: request, dueTo: failure, attemptCount: attemptCount)
    }

    /// The decision `retry` returns, computed synchronously.
    public func decision(for request: URLRequest, dueTo failure: RequestFailure, attemptCount: Int) -> RetryDecision {
        let method = HTTPMethod(rawValue: request.httpMethod ?? "GET") ?? .post
        guard method.isIdempotent, attemptCount <= maxRetries, isRetryable(failure) else { return .doNotRetry }
        return .retryAfter(retryAfterHeader(of: failure) ?? backoff.delay(beforeRetry: attemptCount))
    }

    private func isRetryable(_ failure: RequestFailure) -> Bool {
        switch failure {
        case .status(let response): return retryableStatusCodes.contains(response.statusCode)
        case .error(.timeout): return true
        case .error(.transport(let error)): return Self.isTransient(error)
        case .error: return false
        }
    }

    /// Whether a transport error is worth retrying: the connection or the route failed, not the request.
    public static func isTransient(_ error: any Error) -> Bool {
        guard let urlError = error as? URLError else { return false }
        let transient: Set<URLError.Code> = [
            .timedOut, .networkConnectionLost, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed,
            .notConnectedToInternet,
        ]
        return transient.contains(urlError.code)
    }

    private func retryAfterHeader(of failure: RequestFailure) -> Duration? {
        guard case .status(let response) = failure,
            let value = response.headers.first(where: { $0.key.lowercased() == "retry-after" })?.value,
            let seconds = Int(value.trimmingCharacters(in: .whitespaces)), seconds >= 0
        else { return nil }
        let cap: Duration =
            if case .exponential(_, _, let maxDelay?) = backoff { maxDelay } else { .seconds(60) }
        return min(.seconds(seconds), cap)
    }
}
