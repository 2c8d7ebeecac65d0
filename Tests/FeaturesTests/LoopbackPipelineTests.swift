import Dispatch
import FeatureServer
import Features
import Foundation
import LoopbackHTTPServer
import Networking
import Streams
import Testing

/// One test per pipeline against a real HTTP server on 127.0.0.1 (the remote side of the one-line swap):
/// the server answers with the same route handlers the local client uses.
@Suite struct LoopbackPipelineTests {
    /// A server answering the Features endpoints; `/status` answers `statusCode`.
    private func makeServer(statusCode: Int = 200) throws -> LoopbackHTTPServer {
        let server = try LoopbackHTTPServer()
        try server.serveFeatures()
        server.route("GET", StatusRoute.path) { _ in .text("status \(statusCode)", status: statusCode) }
        return server
    }

    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("loopback-\(UUID().uuidString)")
    }

    @Test func fetchCounterCountsA404FromTheServerAndPersistsIt() async throws {
        let server = try makeServer(statusCode: 404)
        defer { server.stop() }
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The request runs in a `Task` (RemoteClient): on a loaded 2-core machine it can wait behind the other
        // tests' tasks for longer than the view model's default 10 s timeout. What is tested here is the count,
        // so the timeout is the test's own wait (firstValue's 40 s) less a margin.
        let viewModel = FetchCounterViewModel(
            client: RemoteClient(), baseURL: server.baseURL, store: try FeatureStore(directory: directory),
            scheduler: DispatchQueue(label: "fetch-counter"), requestTimeout: .seconds(30))
        let done = firstValue(of: viewModel.state) { $0.lastStatusCode == 404 && !$0.isLoading }
        viewModel.fetch()
        let state = try await done.value
        #expect(state.count == 1)
        #expect(server.requestCount(StatusRoute.path) == 1)
        let reopened = try FeatureStore(directory: directory)
        let persisted = try await firstValue(of: reopened.fetchCount) { _ in true }.value
        #expect(persisted == 1)
    }

    @Test func productSearchPagesThroughTheServer() async throws {
        let server = try makeServer()
        defer { server.stop() }
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let viewModel = ProductSearchViewModel(
            catalog: NetworkProductCatalog(client: RemoteClient(), baseURL: server.baseURL),
            store: try FeatureStore(directory: directory), scheduler: DispatchQueue(label: "search"))
        let firstPage = firstValue(of: viewModel.state) { state in
            if case .results(let results) = state { return results.products.count == 4 }
            return false
        }
        viewModel.search("  ")  // empty: the whole catalogue, first page
        guard case .results(let results) = try await firstPage.value else { return }
        #expect(results.totalCount == 74)
        let secondPage = firstValue(of: viewModel.state) { state in
            if case .results(let results) = state { return results.products.count == 8 }
            return false
        }
        viewModel.loadNextPage()
        guard case .results(let more) = try await secondPage.value else { return }
        #expect(more.products.prefix(4) == results.products.prefix(4))
        #expect(server.requests.contains { $0.path == "/products" && $0.query.contains("page=2") })
    }

    @Test func priceListLoadsFromTheServerAndRefreshes() async throws {
        let server = try makeServer()
        defer { server.stop() }
        let viewModel = PriceListViewModel(
            client: RemoteClient(), baseURL: server.baseURL, scheduler: DispatchQueue(label: "prices"))
        // Keeps the shared list alive between the waits (without a subscriber it would start afresh).
        let keeper = viewModel.state.sink { _ in }
        defer { keeper.cancel() }
        let loaded = firstValue(of: viewModel.state) { $0.rows.count == 2191 && !$0.isRefreshing }
        let first = try await loaded.value
        #expect(first.rows.allSatisfy { $0.direction == .new })
        let refreshed = firstValue(of: viewModel.state) { state in
            state.rows.count == 2191 && !state.isRefreshing && state.rows.allSatisfy { $0.direction == .same }
        }
        viewModel.refresh()
        let second = try await refreshed.value
        #expect(try #require(second.lastRefreshed) > #require(first.lastRefreshed))
        #expect(server.requestCount("/crypto") == 2)
    }

    @Test func usersViewModelWorksUnchangedOnTheRemoteClient() async throws {
        let server = try makeServer()
        defer { server.stop() }
        let remote = UsersViewModel(client: RemoteClient(), baseURL: server.baseURL)
        let local = UsersViewModel(client: try LocalClient.features(), baseURL: FeatureEndpoint.localBaseURL)
        let remoteUsers = try await firstValue(of: remote.state) { if case .loaded = $0 { true } else { false } }
            .value
        let localUsers = try await firstValue(of: local.state) { if case .loaded = $0 { true } else { false } }
            .value
        #expect(remoteUsers == localUsers)
        guard case .loaded(let users) = remoteUsers else { return }
        #expect(users.count == 10)
    }
}

/// The first value of `publisher` that satisfies `predicate`, waiting at most `timeout` of real time. Generous:
/// under the thread sanitizer, CPU-heavy synchronous suites running alongside (fuzz tests) hold the cooperative
/// pool the loopback server serves from for seconds; a normal run answers in milliseconds.
private func firstValue<P: Publisher>(
    of publisher: P, timeout: Duration = .seconds(40), where predicate: @escaping @Sendable (P.Output) -> Bool
) -> Task<P.Output, any Error> where P.Failure == Never, P.Output: Sendable {
    let waiter = FirstValueWaiter<P.Output>()
    // Every value seen is kept, so that a timeout says what the pipeline did publish (a wrong value, or nothing).
    let seen = Locked<[String]>([])
    let cancellable = publisher.handleEvents(receiveOutput: { value in seen.withLock { $0.append("\(value)") } })
        .first(where: predicate).sink { waiter.resolve(.success($0)) }
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(timeout.components.seconds * 1000))) {
        waiter.resolve(.failure(TimedOut(seen: seen.withLock { $0 })))
    }
    return Task {
        defer { cancellable.cancel() }
        return try await waiter.value()
    }
}

/// No value satisfied the predicate in time; `seen` lists the values that were published, oldest first.
private struct TimedOut: Error, CustomStringConvertible {
    let seen: [String]
    var description: String {
        "no value satisfied the predicate in time; published: \(seen.isEmpty ? "nothing" : seen.joined(separator: " → "))"
    }
}

/// Hands one result to one awaiting task, whichever comes first.
private final class FirstValueWaiter<Value: Sendable>: Sendable {
    private let state = Locked<
        (result: Result<Value, any Error>?, continuation: CheckedContinuation<Value, any Error>?)
    >(
        (nil, nil))

    func resolve(_ result: Result<Value, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: result)
    }

    func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<Value, any Error>? in
                if let result = state.result { return result }
                state.continuation = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
