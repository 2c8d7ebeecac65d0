import Foundation
import Networking
import Streams
import StreamsTesting
import Testing

@Suite struct LocalClientTests {
    @Test func servesEachBundledDataSet() async throws {
        let client = LocalClient()
        #expect(try await client.send(Fixture.products, as: [Product].self).count == 74)
        #expect(try await client.send(Fixture.crypto, as: [Crypto].self).count == 2191)
        #expect(try await client.send(Fixture.users, as: [User].self).map(\.id) == Array(1...10))
    }

    @Test func answersAnUnknownPathWith404AndAnotherMethodWith405() async {
        let client = LocalClient()
        let missing = await caught { try await client.response(for: TestEndpoint(path: "/nothing")) }
        guard case .unacceptableStatus(404, "no route for GET /nothing") = missing else {
            return fail("got \(String(describing: missing))")
        }
        let wrongMethod = await caught { try await client.response(for: TestEndpoint(path: "/users", method: .post)) }
        guard case .unacceptableStatus(405, _) = wrongMethod else {
            return fail("got \(String(describing: wrongMethod))")
        }
    }

    @Test func addedRoutesSeeThePathQueryItemsAndBody() async throws {
        let seen = Locked<LocalRequest?>(nil)
        let client = LocalClient().handling(.post, "/products/search/") { request in
            seen.withLock { $0 = request }
            return .json(Data(#"{"ok":true}"#.utf8))
        }
        let endpoint = TestEndpoint(
            baseURL: URL(string: "https://api.example.com/v2")!, path: "products/search", method: .post,
            task: .parameters(["q": "red car", "brand": ["Audi", "BMW"]], encoding: .formBody))
        _ = try await client.response(for: endpoint)
        let request = try #require(seen.withLock { $0 })
        #expect(request.path == "/products/search")
        #expect(request.method == .post)
        #expect(String(decoding: request.body, as: UTF8.self) == "brand=Audi&brand=BMW&q=red%20car")
        let query = TestEndpoint(
            path: "/products/search", method: .post, task: .parameters(["q": "a&b", "n": 2], encoding: .queryString))
        _ = try await client.response(for: query)
        #expect(seen.withLock { $0?.queryValue("q") } == "a&b")
        #expect(seen.withLock { $0?.queryValues("n") } == ["2"])
    }

    @Test func aRouteReplacesTheBundledOne() async throws {
        var client = LocalClient()
        client.handle(.get, "/users") { _ in .json(Data("[]".utf8)) }
        #expect(try await client.send(Fixture.users, as: [User].self).isEmpty)
    }

    @Test func appliesTheSameStatusAndErrorRulesAsTheRemoteClient() async {
        let client = LocalClient(routes: [
            LocalRoute(.get, "/auth") { _ in NetworkResponse(statusCode: 401) },
            LocalRoute(.get, "/broken") { _ in .json(Data("[{".utf8)) },
            LocalRoute(.get, "/slow") { _ throws(NetworkError) in throw .timeout },
        ])
        guard case .unauthorized = await caught({ try await client.response(for: TestEndpoint(path: "/auth")) }) else {
            return fail("expected unauthorized")
        }
        guard case .decoding = await caught({ try await client.send(TestEndpoint(path: "/broken"), as: [User].self) })
        else { return fail("expected decoding") }
        guard case .timeout = await caught({ try await client.response(for: TestEndpoint(path: "/slow")) }) else {
            return fail("expected timeout")
        }
        guard
            case .invalidURL = await caught({
                try await client.response(for: TestEndpoint(baseURL: URL(string: "nohost")!, path: "/auth"))
            })
        else { return fail("expected invalidURL") }
    }

    @Test func withoutASchedulerThePublisherDeliversAtOnce() {
        let recorder = LocalClient().publisher(for: Fixture.users, as: [User].self).record()
        #expect(recorder.values.first?.count == 10)
        #expect(recorder.isFinished)
    }

    @Test func deliversExactlyTheLatencyLaterOnTheScheduler() {
        let scheduler = TestScheduler()
        let client = LocalClient(latency: .milliseconds(300), scheduler: scheduler)
        let recorder = client.publisher(for: Fixture.users, as: [User].self).map(\.count).record(on: scheduler)
        scheduler.advance(by: .milliseconds(299))
        #expect(recorder.events.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.events == [.value(10, at: .milliseconds(300)), .finished(at: .milliseconds(300))])
    }

    @Test func deliversFailuresAfterTheLatencyToo() {
        let scheduler = TestScheduler()
        let recorder = LocalClient(latency: .milliseconds(50), scheduler: scheduler)
            .responsePublisher(for: TestEndpoint(path: "/missing")).record(on: scheduler)
        scheduler.advance(by: .milliseconds(50))
        #expect(recorder.events.map(\.time) == [.milliseconds(50)])
        guard case .unacceptableStatus(404, _) = recorder.failure else { return fail("got \(recorder.events)") }
    }

    @Test func cancellingBeforeTheLatencyDeliversNothingAndCancelsTheScheduledAction() {
        let scheduler = TestScheduler()
        let handled = Locked(0)
        let client = LocalClient(latency: .milliseconds(300), scheduler: scheduler).handling(.get, "/count") { _ in
            handled.withLock { $0 += 1 }
            return NetworkResponse(statusCode: 204)
        }
        let recorder = client.responsePublisher(for: TestEndpoint(path: "/count")).record(on: scheduler)
        #expect(scheduler.pendingCount == 1)
        recorder.cancel()
        #expect(scheduler.pendingCount == 0)
        scheduler.run()
        #expect(recorder.events.isEmpty)
        #expect(handled.withLock { $0 } == 0)
    }

    @Test func composesWithTimingOperatorsOnVirtualTime() {
        let scheduler = TestScheduler()
        let client = LocalClient(latency: .milliseconds(200), scheduler: scheduler)
        let query = PassthroughSubject<String, Never>()
        let recorder =
            query
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .map { _ in client.publisher(for: Fixture.crypto, as: [Crypto].self).map(\.count).replaceError(with: -1) }
            .switchToLatest()
            .record(on: scheduler)
        query.send("b")
        scheduler.advance(by: .milliseconds(100))
        query.send("bt")
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.value(2191, at: .milliseconds(600))])
    }

    @Test func theAsyncAPIWaitsForTheLatencyOnTheScheduler() async throws {
        let scheduler = TestScheduler()
        let client = LocalClient(latency: .seconds(2), scheduler: scheduler)
        let task = Task { try await client.send(Fixture.users, as: [User].self).count }
        while scheduler.pendingCount == 0 { await Task.yield() }
        #expect(scheduler.now == .zero)
        scheduler.advance(by: .seconds(2))
        #expect(try await task.value == 10)
    }

    @Test func cancellingTheAsyncCallCancelsTheScheduledAnswer() async {
        let scheduler = TestScheduler()
        let client = LocalClient(latency: .seconds(2), scheduler: scheduler)
        let task = Task { () async throws(NetworkError) -> NetworkResponse in
            try await client.response(for: Fixture.users)
        }
        while scheduler.pendingCount == 0 { await Task.yield() }
        task.cancel()
        guard case .cancelled? = (await task.result).networkError else { return fail("expected cancelled") }
        #expect(scheduler.pendingCount == 0)
    }
}
