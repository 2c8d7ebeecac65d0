import Foundation
import Networking
import Streams
import StreamsTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct RemoteClientTests {
    @Test func returnsAnAcceptableResponse() async throws {
        let client = RemoteClient(transport: StubTransport(status: 200, body: "[]"))
        let response = try await client.response(for: TestEndpoint())
        #expect(response.statusCode == 200)
        #expect(response.body == Data("[]".utf8))
    }

    @Test func sendsTheBuiltRequest() async throws {
        let transport = StubTransport(status: 204)
        let client = RemoteClient(transport: transport)
        _ = try await client.send(
            TestEndpoint(method: .put, task: .parameters(["a": 1], encoding: .queryString)), as: EmptyResponse.self)
        #expect(transport.requests.map(\.url?.absoluteString) == ["https://api.example.com/items?a=1"])
        #expect(transport.requests.first?.httpMethod == "PUT")
    }

    @Test func decodesTheBodyWithTheInjectedDecoder() async throws {
        struct Item: Decodable, Equatable { let itemName: String }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let client = RemoteClient(transport: StubTransport(status: 200, body: #"{"item_name":"x"}"#))
        #expect(try await client.send(TestEndpoint(), as: Item.self, decoder: decoder) == Item(itemName: "x"))
    }

    @Test func failsWithTheStatusAndABodySnippet() async {
        let client = RemoteClient(transport: StubTransport(status: 404, body: String(repeating: "x", count: 300)))
        let error = await caught { try await client.response(for: TestEndpoint()) }
        guard case .unacceptableStatus(404, let body) = error else { return fail("got \(String(describing: error))") }
        #expect(body.count == 201)
    }

    @Test func failsWithUnauthorizedOnAn401NobodyRecovers() async {
        let client = RemoteClient(transport: StubTransport(status: 401))
        let error = await caught { try await client.response(for: TestEndpoint()) }
        guard case .unauthorized = error else { return fail("got \(String(describing: error))") }
    }

    @Test func failsWithDecodingForMalformedJSON() async {
        let client = RemoteClient(transport: StubTransport(status: 200, body: "[{"))
        let error = await caught { try await client.send(TestEndpoint(), as: [Crypto].self) }
        guard case .decoding = error else { return fail("got \(String(describing: error))") }
    }

    @Test func passesTransportErrorsThrough() async {
        let client = RemoteClient(transport: StubTransport { _, _ in .failure(.timeout) })
        let error = await caught { try await client.response(for: TestEndpoint()) }
        guard case .timeout = error else { return fail("got \(String(describing: error))") }
    }

    @Test func reportsAnInvalidURLWithoutSending() async {
        let transport = StubTransport(status: 200)
        let client = RemoteClient(transport: transport)
        let error = await caught { try await client.response(for: TestEndpoint(baseURL: URL(string: "nohost")!)) }
        guard case .invalidURL = error else { return fail("got \(String(describing: error))") }
        #expect(transport.requests.isEmpty)
    }

    @Test func retriesAsThePolicyDecidesWithItsBackOffDelays() async throws {
        let transport = StubTransport { _, index in
            .success(NetworkResponse(statusCode: index < 3 ? 503 : 200))
        }
        let sleeper = SleepRecorder()
        let policy = RetryPolicy(maxRetries: 3, backoff: .exponential(initial: .milliseconds(100)))
        let client = RemoteClient(transport: transport, interceptors: [policy], sleep: sleeper.sleep)
        let response = try await client.response(for: TestEndpoint())
        #expect(response.statusCode == 200)
        #expect(transport.requests.count == 3)
        #expect(sleeper.recorded == [.milliseconds(100), .milliseconds(200)])
    }

    @Test func sendsAtMostMaxRetriesPlusOneTimes() async {
        let transport = StubTransport(status: 500, body: "down")
        let client = RemoteClient(
            transport: transport, interceptors: [RetryPolicy(maxRetries: 2)], sleep: SleepRecorder().sleep)
        let error = await caught { try await client.response(for: TestEndpoint()) }
        guard case .unacceptableStatus(500, "down") = error else {
            return fail("got \(String(describing: error))")
        }
        #expect(transport.requests.count == 3)
    }

    @Test func neverRetriesAPost() async {
        let transport = StubTransport(status: 503)
        let client = RemoteClient(transport: transport, interceptors: [RetryPolicy()], sleep: SleepRecorder().sleep)
        _ = await caught { try await client.response(for: TestEndpoint(method: .post)) }
        #expect(transport.requests.count == 1)
    }

    @Test func adaptsEveryAttemptInInterceptorOrder() async throws {
        struct Stamp: RequestInterceptor {
            let name: String
            func adapt(_ request: URLRequest) async throws -> URLRequest {
                var adapted = request
                let trail = request.value(forHTTPHeaderField: "X-Trail").map { $0 + "," } ?? ""
                adapted.setValue(trail + name, forHTTPHeaderField: "X-Trail")
                return adapted
            }
        }
        let transport = StubTransport { _, index in .success(NetworkResponse(statusCode: index == 1 ? 503 : 200)) }
        let client = RemoteClient(
            transport: transport, interceptors: [Stamp(name: "a"), Stamp(name: "b"), RetryPolicy()],
            sleep: SleepRecorder().sleep)
        _ = try await client.response(for: TestEndpoint())
        #expect(transport.requests.map { $0.value(forHTTPHeaderField: "X-Trail") } == ["a,b", "a,b"])
    }

    @Test func anAdaptFailureFailsTheRequestWithoutSending() async {
        struct Refusing: RequestInterceptor {
            func adapt(_ request: URLRequest) async throws -> URLRequest { throw NetworkError.refreshFailed("no") }
        }
        let transport = StubTransport(status: 200)
        let client = RemoteClient(transport: transport, interceptors: [Refusing()])
        let error = await caught { try await client.response(for: TestEndpoint()) }
        guard case .refreshFailed("no") = error else { return fail("got \(String(describing: error))") }
        #expect(transport.requests.isEmpty)
    }

    @Test func cancellingTheTaskCancelsTheTransportAndTheBackOff() async {
        let transport = StubTransport(holds: true) { _, _ in .success(NetworkResponse(statusCode: 200)) }
        let client = RemoteClient(transport: transport)
        let task = Task { () async throws(NetworkError) -> NetworkResponse in
            try await client.response(for: TestEndpoint())
        }
        while transport.requests.isEmpty { await Task.yield() }
        task.cancel()
        let result = await task.result
        guard case .cancelled? = (result).networkError else { return fail("got \(result)") }
        #expect(transport.cancelCount == 1)
        transport.releaseAll()
    }

    @Test func publisherDeliversTheDecodedValue() async throws {
        let client = RemoteClient(transport: StubTransport(status: 200, body: #"[{"currency":"A","price":"1"}]"#))
        var values: [[Crypto]] = []
        for try await value in client.publisher(for: TestEndpoint(), as: [Crypto].self).values { values.append(value) }
        #expect(values == [[Crypto(currency: "A", price: "1")]])
    }

    @Test func cancellingThePublisherCancelsTheRequestAndDeliversNothing() async {
        let transport = StubTransport(holds: true) { _, _ in .success(NetworkResponse(statusCode: 200)) }
        let client = RemoteClient(transport: transport)
        let recorder = client.responsePublisher(for: TestEndpoint()).record()
        while transport.requests.isEmpty { await Task.yield() }
        recorder.cancel()
        while transport.cancelCount == 0 { await Task.yield() }
        transport.releaseAll()
        #expect(transport.cancelCount == 1)
        #expect(recorder.events.isEmpty)
    }
}
