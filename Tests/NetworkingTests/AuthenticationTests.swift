import Foundation
import Networking
import Streams
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A refresh action that waits for a gate and returns (or throws) what the test says, counting calls.
final class RefreshAction: Sendable {
    let gate = Gate()
    private let tokens: Locked<[Result<String, TestRefreshError>]>
    private let calls = Locked(0)

    init(_ results: [Result<String, TestRefreshError>]) { tokens = Locked(results) }

    var callCount: Int { calls.withLock { $0 } }

    var run: @Sendable () async throws -> String {
        { [self] in
            calls.withLock { $0 += 1 }
            await gate.wait()
            return try tokens.withLock { $0.isEmpty ? .failure(TestRefreshError()) : $0.removeFirst() }.get()
        }
    }
}

struct TestRefreshError: Error, Equatable {}

/// A server stub: 200 for accepted `Authorization` values, 401 otherwise; holds the answers to
/// requests carrying `Bearer old` until `releaseAll()`, so that every first attempt is sent with it.
func tokenCheckingTransport(accepting accepted: @escaping @Sendable (String?) -> Bool) -> StubTransport {
    StubTransport(holdingWhen: { $0.value(forHTTPHeaderField: "Authorization") == "Bearer old" }) { request, _ in
        .success(NetworkResponse(statusCode: accepted(request.value(forHTTPHeaderField: "Authorization")) ? 200 : 401))
    }
}

@Suite struct AuthenticationTests {
    @Test func addsTheBearerTokenAndNoHeaderWithoutAToken() async throws {
        let with = AuthenticationInterceptor(refresher: TokenRefresher(token: "abc") { "x" })
        let without = AuthenticationInterceptor(refresher: TokenRefresher(token: nil) { "x" })
        let request = URLRequest(url: URL(string: "https://api.example.com")!)
        #expect(try await with.adapt(request).value(forHTTPHeaderField: "Authorization") == "Bearer abc")
        #expect(try await without.adapt(request).value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func concurrent401sShareExactlyOneRefreshAndAllRetryWithTheNewToken() async throws {
        let action = RefreshAction([.success("new")])
        let refresher = TokenRefresher(token: "old", refresh: action.run)
        let transport = tokenCheckingTransport { $0 == "Bearer new" }
        let client = RemoteClient(transport: transport, interceptors: [AuthenticationInterceptor(refresher: refresher)])
        let count = 20
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<count {
                group.addTask { try await client.response(for: TestEndpoint()).statusCode }
            }
            while transport.requests.count < count { await Task.yield() }
            transport.releaseAll()
            while await refresher.waitingCount < count { await Task.yield() }
            action.gate.open()
            for try await status in group { #expect(status == 200) }
        }
        #expect(action.callCount == 1)
        #expect(await refresher.refreshCount == 1)
        let tokens = transport.requests.map { $0.value(forHTTPHeaderField: "Authorization") }
        #expect(tokens.filter { $0 == "Bearer old" }.count == count)
        #expect(tokens.filter { $0 == "Bearer new" }.count == count)
    }

    @Test func aRequestRejectedWithAnAlreadyReplacedTokenRetriesWithoutANewRefresh() async throws {
        let action = RefreshAction([.success("new")])
        action.gate.open()
        let refresher = TokenRefresher(token: "old", refresh: action.run)
        #expect(try await refresher.refreshToken(replacing: "old") == "new")
        #expect(try await refresher.refreshToken(replacing: "old") == "new")
        let interceptor = AuthenticationInterceptor(refresher: refresher)
        var stale = URLRequest(url: URL(string: "https://api.example.com")!)
        stale.setValue("Bearer old", forHTTPHeaderField: "Authorization")
        let decision = await interceptor.retry(
            stale, dueTo: .status(NetworkResponse(statusCode: 401)), attemptCount: 1)
        #expect(decision == .retry)
        #expect(action.callCount == 1)
    }

    @Test func aFailedRefreshFailsEveryWaitingRequestWithRefreshFailed() async {
        let action = RefreshAction([.failure(TestRefreshError())])
        let refresher = TokenRefresher(token: "old", refresh: action.run)
        let transport = tokenCheckingTransport { $0 == "Bearer new" }
        let client = RemoteClient(transport: transport, interceptors: [AuthenticationInterceptor(refresher: refresher)])
        let count = 10
        await withTaskGroup(of: NetworkError?.self) { group in
            for _ in 0..<count {
                group.addTask { await caught { try await client.response(for: TestEndpoint()) } }
            }
            while transport.requests.count < count { await Task.yield() }
            transport.releaseAll()
            while await refresher.waitingCount < count { await Task.yield() }
            action.gate.open()
            for await error in group {
                guard case .refreshFailed = error else { return fail("got \(String(describing: error))") }
            }
        }
        #expect(action.callCount == 1)
        #expect(transport.requests.count == count)
    }

    @Test func a401ArrivingAfterTheRefreshFailedSharesThatFailureWithoutANewRefresh() async throws {
        let action = RefreshAction([.failure(TestRefreshError()), .success("new")])
        action.gate.open()
        let refresher = TokenRefresher(token: "old", refresh: action.run)
        #expect(await refresher.token() == "old")  // two requests are sent with the old token
        #expect(await refresher.token() == "old")
        let first = await caught { try await refresher.refreshToken(replacing: "old") }
        let second = await caught { try await refresher.refreshToken(replacing: "old") }  // its 401 came later
        guard case .refreshFailed = first, case .refreshFailed = second else {
            return fail("got \(String(describing: first)), \(String(describing: second))")
        }
        #expect(action.callCount == 1)
        #expect(await refresher.token() == "old")  // a request sent after the failure may try again
        #expect(try await refresher.refreshToken(replacing: "old") == "new")
        #expect(action.callCount == 2)
    }

    @Test func concurrent401sWithAFastFailingRefreshCauseExactlyOneRefreshAndAllFail() async {
        // The refresh fails at once, so most 401s reach the refresher after it failed (several rounds: a race).
        for _ in 0..<10 {
            let count = 30
            let action = RefreshAction(Array(repeating: .failure(TestRefreshError()), count: count))
            action.gate.open()
            let refresher = TokenRefresher(token: "old", refresh: action.run)
            let transport = tokenCheckingTransport { $0 == "Bearer new" }
            let client = RemoteClient(
                transport: transport, interceptors: [AuthenticationInterceptor(refresher: refresher)])
            await withTaskGroup(of: NetworkError?.self) { group in
                for _ in 0..<count {
                    group.addTask { await caught { try await client.response(for: TestEndpoint()) } }
                }
                while transport.requests.count < count { await Task.yield() }
                transport.releaseAll()
                for await error in group {
                    guard case .refreshFailed = error else { return fail("got \(String(describing: error))") }
                }
            }
            #expect(action.callCount == 1)
            #expect(transport.requests.count == count)
        }
    }

    @Test func retriesAtMostTwiceThenFailsUnauthorizedWithoutLooping() async {
        let action = RefreshAction([.success("t1"), .success("t2"), .success("t3")])
        action.gate.open()
        let refresher = TokenRefresher(token: "t0", refresh: action.run)
        let transport = tokenCheckingTransport { _ in false }
        let client = RemoteClient(transport: transport, interceptors: [AuthenticationInterceptor(refresher: refresher)])
        let error = await caught { try await client.response(for: TestEndpoint()) }
        guard case .unauthorized = error else { return fail("got \(String(describing: error))") }
        #expect(transport.requests.count == 3)
        #expect(action.callCount == 2)
    }

    @Test func ignoresFailuresOtherThan401() async {
        let interceptor = AuthenticationInterceptor(refresher: TokenRefresher(token: "t") { "n" })
        let request = URLRequest(url: URL(string: "https://api.example.com")!)
        #expect(
            await interceptor.retry(request, dueTo: .status(NetworkResponse(statusCode: 403)), attemptCount: 1)
                == .doNotRetry)
        #expect(await interceptor.retry(request, dueTo: .error(.timeout), attemptCount: 1) == .doNotRetry)
    }

    @Test func requestsSentDuringARefreshCarryTheNewToken() async throws {
        let action = RefreshAction([.success("new")])
        let refresher = TokenRefresher(token: "old", refresh: action.run)
        let refreshing = Task { try await refresher.refreshToken(replacing: "old") }
        while await refresher.waitingCount < 1 { await Task.yield() }
        let interceptor = AuthenticationInterceptor(refresher: refresher)
        let adapting = Task { try await interceptor.adapt(URLRequest(url: URL(string: "https://a.example")!)) }
        action.gate.open()
        #expect(try await adapting.value.value(forHTTPHeaderField: "Authorization") == "Bearer new")
        _ = try await refreshing.value
    }
}
