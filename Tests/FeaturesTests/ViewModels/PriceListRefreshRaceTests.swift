import Foundation
import Networking
import Streams
import StreamsTesting
import Testing

@testable import Features

/// The window between a load's answer and its completion: a real client (URLSession) publishes the response
/// and completes a moment later, on its own thread. A refresh made by someone who has already seen the answer
/// must start a new load, never be dropped (the REPL waited forever for the answer to a lost `:refresh`).
@Suite struct PriceListRefreshRaceTests {
    private let scheduler = TestScheduler()

    /// Answers every request with `timeline` (a cold marble diagram, 1 ms per frame), recording the requests.
    private struct MarbleClient: NetworkClient {
        let answers: TestPublisher<NetworkResponse, NetworkError>

        func response(for endpoint: any Endpoint) async throws(NetworkError) -> NetworkResponse {
            throw .cancelled
        }

        func responsePublisher(for endpoint: any Endpoint) -> AnyPublisher<NetworkResponse, NetworkError> {
            answers.eraseToAnyPublisher()
        }
    }

    private func list(_ currencies: [String: Decimal]) -> NetworkResponse {
        Fixtures.json(currencies.sorted { $0.key < $1.key }.map { CryptoCurrency(currency: $0.key, price: $0.value) })
    }

    /// The answer at 10 ms, the completion only at 50 ms: a refresh at 20 ms follows a published answer.
    @Test func aRefreshAfterTheAnswerButBeforeTheLoadCompletesStartsANewLoad() throws {
        let answers = try scheduler.cold(
            "10ms a 39ms |", values: ["a": list(["A": 1])], error: NetworkError.timeout)
        let prices = PriceListViewModel(
            client: MarbleClient(answers: answers), baseURL: Fixtures.baseURL, scheduler: scheduler)
        let recorder = prices.state.record(on: scheduler)
        scheduler.advance(to: SchedulerInstant(offset: .milliseconds(20)))
        #expect(recorder.values.map(\.isRefreshing) == [true, false])  // the answer is shown: not refreshing

        prices.refresh()  // as the REPL does once it has seen the answer
        scheduler.advance(to: SchedulerInstant(offset: .milliseconds(100)))

        #expect(answers.subscriptions.count == 2)  // a second load started at 20 ms
        #expect(answers.subscriptions.last?.subscribed == .milliseconds(20))
        #expect(recorder.values.map(\.isRefreshing) == [true, false, true, false])
        #expect(recorder.values.last?.lastRefreshed == SchedulerInstant(offset: .milliseconds(30)))
    }

    /// The same window after a failed load (a refused port): the failure and the completion come in one call,
    /// but another thread (the REPL's) may refresh between them. A subscriber that refreshes from inside the
    /// delivery of the failure stands for that thread, deterministically.
    @Test func aRefreshMadeWhileTheFailureIsBeingDeliveredStartsANewLoad() throws {
        let answers = try scheduler.cold(
            "10ms #", values: [Character: NetworkResponse](),
            error: NetworkError.unacceptableStatus(code: 404, body: ""))
        let prices = PriceListViewModel(
            client: MarbleClient(answers: answers), baseURL: Fixtures.baseURL, scheduler: scheduler, maxRetries: 0)
        let seen = Locked<[PriceListState]>([])
        let subscription = prices.state.sink { state in
            let count = seen.withLock { seen in
                seen.append(state)
                return seen.count
            }
            if !state.isRefreshing, count < 4 { prices.refresh() }  // once, on the first answer
        }
        scheduler.advance(to: SchedulerInstant(offset: .milliseconds(100)))
        #expect(answers.subscriptions.map(\.subscribed) == [.zero, .milliseconds(10)])
        #expect(seen.withLock { $0 }.map(\.isRefreshing) == [true, false, true, false])
        #expect(seen.withLock { $0 }.last?.error == "HTTP 404")
        subscription.cancel()
    }

    /// Refreshes while the answer is still on its way are coalesced into the load in flight.
    @Test func refreshesBeforeTheAnswerAreAnsweredByTheLoadInFlight() throws {
        let answers = try scheduler.cold(
            "10ms a 39ms |", values: ["a": list(["A": 1])], error: NetworkError.timeout)
        let prices = PriceListViewModel(
            client: MarbleClient(answers: answers), baseURL: Fixtures.baseURL, scheduler: scheduler)
        let recorder = prices.state.record(on: scheduler)
        scheduler.advance(to: SchedulerInstant(offset: .milliseconds(5)))
        prices.refresh()
        prices.refresh()
        scheduler.advance(to: SchedulerInstant(offset: .milliseconds(100)))
        #expect(answers.subscriptions.count == 1)
        #expect(recorder.values.map(\.isRefreshing) == [true, false])
    }
}
