import Foundation
import Networking
import Streams
import StreamsTesting
import Testing

@testable import Features

@Suite struct PriceListViewModelTests {
    private let scheduler = TestScheduler()

    /// A client answering `/crypto` with `lists[i]` on the i-th request (the last repeats), after 100 ms.
    private func client(_ replies: [StubReply]) -> StubClient {
        let next = Locked(0)
        return StubClient(scheduler: scheduler) { _ in
            let index = next.withLock { index -> Int in
                defer { index += 1 }
                return index
            }
            return replies[min(index, replies.count - 1)]
        }
    }

    private func prices(_ pairs: KeyValuePairs<String, Decimal>) -> StubReply {
        .ok(Fixtures.json(pairs.map { CryptoCurrency(currency: $0.key, price: $0.value) }))
    }

    private func viewModel(_ client: StubClient, maxRetries: Int = 2) -> PriceListViewModel {
        PriceListViewModel(
            client: client, baseURL: Fixtures.baseURL, scheduler: scheduler, maxRetries: maxRetries,
            backoff: .exponential(initial: .seconds(1)))
    }

    @Test func theListLoadsOnFirstSubscriptionWithEveryRowNew() {
        let client = StubClient.serving(bundleOn: scheduler)
        let prices = viewModel(client)
        scheduler.advance(by: .seconds(1))
        #expect(client.requests.isEmpty)
        let recorder = prices.state.record(on: scheduler)
        #expect(recorder.values == [PriceListState(rows: [], isRefreshing: true, lastRefreshed: nil, error: nil)])
        scheduler.advance(by: .milliseconds(100))
        let loaded = recorder.values.last
        #expect(loaded?.rows.count == 2191)
        #expect(loaded?.rows.allSatisfy { $0.direction == .new } == true)
        #expect(
            loaded?.rows.first == PriceRow(currency: "0XBTC", price: Decimal(string: "0.19788058")!, direction: .new))
        #expect(loaded?.lastRefreshed == SchedulerInstant(offset: .milliseconds(1100)))
        #expect(loaded?.isRefreshing == false)
        #expect(client.requests.map(\.path) == ["/crypto"])
    }

    @Test func subscribersShareOneRequestAndALateOneGetsTheLastState() {
        let client = client([prices(["A": 1])])
        let prices = viewModel(client)
        let first = prices.state.record(on: scheduler)
        let second = prices.state.record(on: scheduler)
        scheduler.advance(by: .milliseconds(100))
        let late = prices.state.record(on: scheduler)
        #expect(client.requests.count == 1)
        #expect(first.values == second.values)
        #expect(late.values == [first.values.last])
        #expect(late.values.first?.rows.map(\.currency) == ["A"])
    }

    @Test func aRefreshWhileOneIsInFlightIsCoalesced() {
        let client = client([prices(["A": 1])])
        let prices = viewModel(client)
        let recorder = prices.state.record(on: scheduler)
        scheduler.advance(by: .milliseconds(50))
        prices.refresh()
        prices.refresh()
        scheduler.advance(by: .milliseconds(50))
        #expect(client.requests.count == 1)
        prices.refresh()
        scheduler.advance(by: .milliseconds(100))
        #expect(client.requests.map(\.time) == [.zero, .milliseconds(100)])
        #expect(recorder.values.map(\.isRefreshing) == [true, false, true, false])
    }

    @Test func rowsCarryTheDirectionSinceThePreviousRefresh() {
        let client = client([prices(["A": 1, "B": 2, "C": 3]), prices(["A": 2, "B": 1, "C": 3, "D": 9])])
        let prices = viewModel(client)
        let recorder = prices.state.record(on: scheduler)
        scheduler.advance(by: .milliseconds(100))
        prices.refresh()
        scheduler.advance(by: .milliseconds(100))
        #expect(
            recorder.values.last?.rows == [
                PriceRow(currency: "A", price: 2, direction: .up), PriceRow(currency: "B", price: 1, direction: .down),
                PriceRow(currency: "C", price: 3, direction: .same), PriceRow(currency: "D", price: 9, direction: .new),
            ])
        #expect(recorder.values.last?.lastRefreshed == SchedulerInstant(offset: .milliseconds(200)))
    }

    @Test func transientFailuresAreRetriedWithExponentialBackOff() {
        let down = StubReply.failure(.transport(URLError(.networkConnectionLost)))
        let client = client([down, .failure(.unacceptableStatus(code: 503, body: "")), prices(["A": 1])])
        let prices = viewModel(client)
        let recorder = prices.state.record(on: scheduler)
        scheduler.advance(by: .seconds(10))
        // Fails at 0.1 s; retry 1 after 1 s (1.1 s) fails at 1.2 s; retry 2 after 2 s (3.2 s) succeeds at 3.3 s.
        #expect(client.requests.map(\.time) == [.zero, .milliseconds(1100), .milliseconds(3200)])
        #expect(recorder.values.last?.rows.map(\.currency) == ["A"])
        #expect(recorder.values.last?.error == nil)
        #expect(recorder.events.last?.time == .milliseconds(3300))
    }

    @Test func aFailedRefreshKeepsThePreviousListWithAnError() {
        let down = StubReply.failure(.timeout)
        let client = client([prices(["A": 1]), down])
        let prices = viewModel(client, maxRetries: 1)
        let recorder = prices.state.record(on: scheduler)
        scheduler.advance(by: .milliseconds(100))
        prices.refresh()
        scheduler.advance(by: .seconds(10))
        #expect(client.requests.count == 3)  // the load, the refresh and its one retry
        #expect(
            recorder.values.last
                == PriceListState(
                    rows: [PriceRow(currency: "A", price: 1, direction: .new)], isRefreshing: false,
                    lastRefreshed: SchedulerInstant(offset: .milliseconds(100)), error: "the request timed out"))
    }

    @Test func aMalformedListIsNotRetried() {
        let client = client([.ok(NetworkResponse(statusCode: 200, body: Data(#"[{"currency":"A","price":"x"}]"#.utf8)))]
        )
        let prices = viewModel(client)
        let recorder = prices.state.record(on: scheduler)
        scheduler.advance(by: .seconds(10))
        #expect(client.requests.count == 1)
        #expect(
            recorder.values.last?.error?.hasPrefix("the answer could not be read: the field \"price\" is invalid in item 1")
                == true)
        #expect(recorder.values.last?.rows.isEmpty == true)
    }

    @Test func whichFailuresAreTransient() {
        #expect(NetworkError.timeout.isTransient)
        #expect(NetworkError.transport(URLError(.timedOut)).isTransient)
        #expect(NetworkError.unacceptableStatus(code: 429, body: "").isTransient)
        #expect(NetworkError.unacceptableStatus(code: 502, body: "").isTransient)
        #expect(!NetworkError.unacceptableStatus(code: 404, body: "").isTransient)
        #expect(!NetworkError.decoding(path: "", description: "").isTransient)
        #expect(!NetworkError.cancelled.isTransient)
    }

    @Test func cancelStopsTheLoadInFlightRetriesIncluded() {
        let client = client([.failure(.timeout, after: .seconds(1))])
        let prices = viewModel(client, maxRetries: 3)
        let recorder = prices.state.record(on: scheduler)
        scheduler.advance(by: .milliseconds(1500))  // the first attempt failed; the retry waits out its back-off
        prices.cancel()
        scheduler.advance(by: .seconds(60))
        #expect(client.requests.count == 1)  // no retry after the cancel
        #expect(recorder.values.last?.error == PriceListViewModel.cancelledMessage)
        #expect(recorder.values.last?.isRefreshing == false)
        let later = client.requests.count
        prices.refresh()  // a refresh after a cancel loads again
        scheduler.advance(by: .milliseconds(10))
        #expect(client.requests.count == later + 1)
        #expect(recorder.values.last?.isRefreshing == true)
    }
}
