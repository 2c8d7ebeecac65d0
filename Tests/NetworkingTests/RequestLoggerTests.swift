import Foundation
import Networking
import Streams
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct RequestLoggerTests {
    @Test func redactsAuthorizationButLogsOtherHeaders() {
        let lines = Locked<[String]>([])
        let logger = RequestLogger { line in lines.withLock { $0.append(line) } }
        var request = URLRequest(url: URL(string: "https://api.example.com/me")!)
        request.setValue("Bearer secret-token", forHTTPHeaderField: "Authorization")
        request.setValue("1", forHTTPHeaderField: "X-Trace")
        logger.log(request)
        let line = lines.withLock { $0.first } ?? ""
        #expect(line == "→ GET https://api.example.com/me [Authorization: <redacted>, X-Trace: 1] (0 bytes)")
    }

    @Test func theClientLogsEachAttemptAndOutcomeWithoutTheToken() async throws {
        let lines = Locked<[String]>([])
        let refresher = TokenRefresher(token: "secret-token") { "other" }
        let client = RemoteClient(
            transport: StubTransport(status: 200, body: "{}"),
            interceptors: [AuthenticationInterceptor(refresher: refresher)],
            logger: RequestLogger { line in lines.withLock { $0.append(line) } })
        _ = try await client.response(for: TestEndpoint())
        let logged = lines.withLock { $0 }
        #expect(logged.count == 2)
        #expect(logged.last == "← 200 GET https://api.example.com/items (2 bytes)")
        #expect(!logged.joined().contains("secret-token"))
        #expect(logged.first?.contains("Authorization: <redacted>") == true)
    }
}
