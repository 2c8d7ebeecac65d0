import Foundation
import Networking
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct RetryPolicyTests {
    let policy = RetryPolicy(maxRetries: 2, backoff: .exponential(initial: .milliseconds(500), maxDelay: .seconds(10)))

    func request(_ method: HTTPMethod) -> URLRequest {
        var request = URLRequest(url: URL(string: "https://api.example.com/x")!)
        request.httpMethod = method.rawValue
        return request
    }

    func status(_ code: Int, headers: [String: String] = [:]) -> RequestFailure {
        .status(NetworkResponse(statusCode: code, headers: headers))
    }

    @Test func retriesIdempotentMethodsOnlyNeverPostOrPatch() {
        for method in HTTPMethod.allCases {
            let decision = policy.decision(for: request(method), dueTo: status(503), attemptCount: 1)
            #expect((decision != .doNotRetry) == method.isIdempotent, "\(method)")
        }
        #expect(!HTTPMethod.post.isIdempotent && !HTTPMethod.patch.isIdempotent)
    }

    @Test func retries408And429And5xxButNotOtherStatuses() {
        for code in [408, 429, 500, 502, 503, 599] {
            #expect(policy.decision(for: request(.get), dueTo: status(code), attemptCount: 1) != .doNotRetry, "\(code)")
        }
        for code in [400, 401, 403, 404, 409, 422] {
            #expect(policy.decision(for: request(.get), dueTo: status(code), attemptCount: 1) == .doNotRetry, "\(code)")
        }
    }

    @Test func retriesTimeoutsAndTransientTransportErrorsOnly() {
        let retried: [NetworkError] = [
            .timeout, .transport(URLError(.networkConnectionLost)), .transport(URLError(.cannotConnectToHost)),
        ]
        for error in retried {
            #expect(policy.decision(for: request(.get), dueTo: .error(error), attemptCount: 1) != .doNotRetry)
        }
        let notRetried: [NetworkError] = [
            .cancelled, .transport(URLError(.badURL)), .transport(TestRefreshError()),
            .decoding(path: "", description: ""),
        ]
        for error in notRetried {
            #expect(policy.decision(for: request(.get), dueTo: .error(error), attemptCount: 1) == .doNotRetry)
        }
    }

    @Test func maxRetriesCountsRetriesAfterTheFirstAttempt() {
        #expect(policy.decision(for: request(.get), dueTo: status(500), attemptCount: 2) != .doNotRetry)
        #expect(policy.decision(for: request(.get), dueTo: status(500), attemptCount: 3) == .doNotRetry)
        let never = RetryPolicy(maxRetries: 0)
        #expect(never.decision(for: request(.get), dueTo: status(500), attemptCount: 1) == .doNotRetry)
    }

    @Test func backsOffExponentiallyUpToTheCap() {
        let long = RetryPolicy(
            maxRetries: 10, backoff: .exponential(initial: .milliseconds(500), maxDelay: .seconds(3)))
        let delays = (1...4).map { long.decision(for: request(.get), dueTo: status(503), attemptCount: $0) }
        #expect(
            delays == [
                .retryAfter(.milliseconds(500)), .retryAfter(.seconds(1)), .retryAfter(.seconds(2)),
                .retryAfter(.seconds(3)),
            ])
    }

    @Test func honoursRetryAfterSecondsWithinTheCap() {
        #expect(
            policy.decision(for: request(.get), dueTo: status(429, headers: ["Retry-After": "3"]), attemptCount: 1)
                == .retryAfter(.seconds(3)))
        #expect(
            policy.decision(for: request(.get), dueTo: status(429, headers: ["retry-after": "99"]), attemptCount: 1)
                == .retryAfter(.seconds(10)))
    }
}
