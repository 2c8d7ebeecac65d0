import Foundation
import Networking
import Streams
import StreamsTesting
import Testing

@testable import Features

@Suite struct FetchCounterViewModelTests {
    private let scheduler = TestScheduler()
    /// Removed with the suite instance, after each test.
    private let temporary = TemporaryDirectory()
    private var directory: URL { temporary.url }

    /// A client answering `/status` with the given codes in turn (the last one repeats), after 100 ms.
    private func client(codes: [Int]) -> StubClient {
        let next = Locked(0)
        return StubClient(scheduler: scheduler) { _ in
            let index = next.withLock { index -> Int in
                defer { index += 1 }
                return index
            }
            return .ok(NetworkResponse(statusCode: codes[min(index, codes.count - 1)]))
        }
    }

    private func counter(_ client: StubClient, store: FeatureStore? = nil) throws -> FetchCounterViewModel {
        FetchCounterViewModel(
            client: client, baseURL: Fixtures.baseURL, store: try store ?? FeatureStore(directory: directory),
            scheduler: scheduler, requestTimeout: .seconds(5))
    }

    private func state(code: Int?, count: Int, loading: Bool = false, error: String? = nil) -> FetchCounterState {
        FetchCounterState(lastStatusCode: code, count: count, isLoading: loading, lastError: error)
    }

    @Test func aFetchShowsLoadingThenTheCodeAndCounts() throws {
        let client = client(codes: [200])
        let viewModel = try counter(client)
        let recorder = viewModel.state.record(on: scheduler)
        scheduler.advance(by: .milliseconds(50))
        viewModel.fetch()
        scheduler.advance(by: .milliseconds(100))
        #expect(
            recorder.events == [
                .value(state(code: nil, count: 0), at: .zero),
                .value(state(code: nil, count: 0, loading: true), at: .milliseconds(50)),
                // The count is saved first, then the fetch ends: two steps at the same instant.
                .value(state(code: nil, count: 1, loading: true), at: .milliseconds(150)),
                .value(state(code: 200, count: 1), at: .milliseconds(150)),
            ])
        #expect(client.requests.map(\.path) == ["/status"])
    }

    @Test func everyHTTPResponseCountsAndShowsItsCode() throws {
        let viewModel = try counter(client(codes: [200, 404, 500]))
        let codes = viewModel.lastStatusCode.record(on: scheduler)
        let counts = viewModel.count.record(on: scheduler)
        for _ in 0..<3 {
            viewModel.fetch()
            scheduler.advance(by: .milliseconds(100))
        }
        #expect(codes.values == [nil, 200, 404, 500])
        #expect(counts.values == [0, 1, 2, 3])
    }

    @Test func aTransportFailureDoesNotCountAndIsShownAsTheError() throws {
        let calls = Locked(0)
        let client = StubClient(scheduler: scheduler) { _ in
            calls.withLock { calls -> Int in
                calls += 1
                return calls
            } == 1
                ? .ok(NetworkResponse(statusCode: 201)) : .failure(.transport(URLError(.cannotConnectToHost)))
        }
        let viewModel = try counter(client)
        let errors = viewModel.lastError.record(on: scheduler)
        viewModel.fetch()
        scheduler.advance(by: .milliseconds(100))
        viewModel.fetch()
        scheduler.advance(by: .milliseconds(100))
        let last = viewModel.state.record().values.last
        #expect(last?.count == 1)
        #expect(last?.lastStatusCode == 201)
        #expect(last?.isLoading == false)
        #expect(errors.values.count == 2)
        #expect(errors.values.last??.hasPrefix("transport error") == true)
    }

    @Test func aStatusTheClientRejectsStillCounts() throws {
        let client = StubClient(scheduler: scheduler) { _ in .failure(.unacceptableStatus(code: 503, body: "down")) }
        let viewModel = try counter(client)
        viewModel.fetch()
        scheduler.advance(by: .milliseconds(100))
        #expect(viewModel.state.record().values.last == state(code: 503, count: 1))
    }

    @Test func noResponseWithinTheTimeoutIsAnErrorAndDoesNotCount() throws {
        let client = StubClient(scheduler: scheduler) { _ in .ok(NetworkResponse(statusCode: 200), after: .seconds(30))
        }
        let viewModel = try counter(client)
        let recorder = viewModel.state.record(on: scheduler)
        viewModel.fetch()
        scheduler.advance(by: .seconds(60))
        #expect(
            recorder.events.last == .value(state(code: nil, count: 0, error: "the request timed out"), at: .seconds(5)))
        #expect(client.cancellations == 1)
    }

    @Test func aFetchWhileOneIsInFlightIsIgnored() throws {
        let client = client(codes: [200])
        let viewModel = try counter(client)
        let counts = viewModel.count.record(on: scheduler)
        viewModel.fetch()
        scheduler.advance(by: .milliseconds(50))
        viewModel.fetch()
        viewModel.fetch()
        scheduler.advance(by: .milliseconds(50))
        #expect(client.requests.count == 1)
        viewModel.fetch()
        scheduler.advance(by: .milliseconds(100))
        #expect(client.requests.map(\.time) == [.zero, .milliseconds(100)])
        #expect(counts.values == [0, 1, 2])
    }

    @Test func resetZeroesTheCountAndClearsTheCode() throws {
        let viewModel = try counter(client(codes: [200]))
        viewModel.fetch()
        scheduler.advance(by: .milliseconds(100))
        viewModel.reset()
        #expect(viewModel.state.record().values.last == state(code: nil, count: 0))
        #expect(try FeatureStore(directory: directory).snapshot.fetchCount == 0)
    }

    @Test func theCountSurvivesANewViewModelOnTheSameDirectory() throws {
        let first = try counter(client(codes: [200]))
        for _ in 0..<2 {
            first.fetch()
            scheduler.advance(by: .milliseconds(100))
        }
        let second = try counter(client(codes: [404]))
        let counts = second.count.record(on: scheduler)
        second.fetch()
        scheduler.advance(by: .milliseconds(100))
        #expect(counts.values == [2, 3])
    }

    @Test func cancelStopsTheFetchInFlightWhichDoesNotCount() throws {
        let client = StubClient(scheduler: scheduler) { _ in .ok(NetworkResponse(statusCode: 200), after: .seconds(3)) }
        let viewModel = try counter(client)
        let recorder = viewModel.state.record(on: scheduler)
        #expect(viewModel.cancel() == false)
        viewModel.fetch()
        scheduler.advance(by: .seconds(1))
        #expect(viewModel.cancel() == true)
        #expect(client.cancellations == 1)
        scheduler.advance(by: .seconds(10))
        #expect(
            recorder.events.last
                == .value(state(code: nil, count: 0, error: FetchCounterViewModel.cancelledMessage), at: .seconds(1)))
        viewModel.fetch()  // a new fetch works after a cancel
        scheduler.advance(by: .seconds(3))
        #expect(recorder.values.last == state(code: 200, count: 1))
    }
}
