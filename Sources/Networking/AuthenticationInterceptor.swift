import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Adds `Authorization: Bearer <token>` to every request and recovers from 401 by refreshing the token once.
///
/// - `adapt`: sets the header from the `TokenRefresher`'s current token (waiting for a running refresh);
///   no token, no header.
/// - `retry`: on a 401, asks the refresher for a token to replace the one the request was sent with (read
///   from the request's header): concurrent 401s share one refresh; a request sent with an already-replaced
///   token retries without a new refresh. Then `.retry` (whose `adapt` puts in the new token), or
///   `.fail(.refreshFailed)` if the refresh failed.
/// - At most `maxRetries` (default 2) retries per request, counted by `attemptCount`; after that the 401
///   is `.unauthorized`. So a server that keeps refusing cannot cause an endless refresh loop.
///
/// ```swift
/// let auth = AuthenticationInterceptor(refresher: TokenRefresher(token: saved) { try await login.refresh() })
/// ```
public struct AuthenticationInterceptor: RequestInterceptor {
    /// Holds and refreshes the token.
    public let refresher: TokenRefresher
    /// Retries after a 401, per request.
    public let maxRetries: Int

    /// An interceptor taking tokens from `refresher`.
    public init(refresher: TokenRefresher, maxRetries: Int = 2) {
        self.refresher = refresher
        self.maxRetries = max(0, maxRetries)
    }

    /// `request` with the current bearer token.
    public func adapt(_ request: URLRequest) async throws -> URLRequest {
        guard let token = await refresher.token() else { return request }
        var adapted = request
        adapted.setValue("Bearer " + token, forHTTPHeaderField: "Authorization")
        return adapted
    }

    /// On 401 (with retries left): refresh (or reuse a newer token), then `.retry`.
    public func retry(_ request: URLRequest, dueTo failure: RequestFailure, attemptCount: Int) async -> RetryDecision {
        guard failure.statusCode == 401, attemptCount <= maxRetries else { return .doNotRetry }
        do {
            _ = try await refresher.refreshToken(replacing: Self.bearerToken(of: request))
            return .retry
        } catch {
            return .fail(error)
        }
    }

    /// The token in the request's `Authorization: Bearer …` header, if any.
    static func bearerToken(of request: URLRequest) -> String? {
        guard let value = request.value(forHTTPHeaderField: "Authorization"), value.hasPrefix("Bearer ") else {
            return nil
        }
        return String(value.dropFirst("Bearer ".count))
    }
}
