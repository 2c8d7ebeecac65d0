import Foundation
import Networking
import Streams

/// How a price moved since the previous successful refresh.
///
/// ```swift
/// PriceDirection(from: 1.5, to: 2)   // .up
/// ```
public enum PriceDirection: String, Sendable, Equatable {
    /// Higher than before.
    case up
    /// Lower than before.
    case down
    /// Unchanged.
    case same
    /// Not in the previous list (or there was none).
    case new

    /// The direction from `previous` (`nil`: not known before) to `current`.
    public init(from previous: Decimal?, to current: Decimal) {
        guard let previous else {
            self = .new
            return
        }
        self = current > previous ? .up : (current < previous ? .down : .same)
    }
}

/// One row of the price list.
///
/// ```swift
/// PriceRow(currency: "BTC", price: 21_143, direction: .up)
/// ```
public struct PriceRow: Equatable, Sendable {
    /// The currency's ticker.
    public var currency: String
    /// The price at the last successful refresh.
    public var price: Decimal
    /// The move since the refresh before it.
    public var direction: PriceDirection

    /// Creates a row.
    public init(currency: String, price: Decimal, direction: PriceDirection) {
        self.currency = currency
        self.price = price
        self.direction = direction
    }
}

/// What the price list shows.
///
/// ```swift
/// if let error = state.error { print("showing prices from \(state.lastRefreshed!) — \(error)") }
/// ```
public struct PriceListState: Equatable, Sendable {
    /// The rows of the last successful refresh (kept when a later refresh fails), in the server's order.
    public var rows: [PriceRow]
    /// Whether a refresh is in flight (including its retries).
    public var isRefreshing: Bool
    /// The scheduler's time of the last successful refresh, `nil` before the first.
    public var lastRefreshed: SchedulerInstant?
    /// Why the last refresh failed after its retries, `nil` when it succeeded (the rows are then current).
    public var error: String?

    /// Nothing loaded yet, nothing in flight.
    public static let initial = PriceListState(rows: [], isRefreshing: false, lastRefreshed: nil, error: nil)

    /// Creates a state.
    public init(rows: [PriceRow], isRefreshing: Bool, lastRefreshed: SchedulerInstant?, error: String?) {
        self.rows = rows
        self.isRefreshing = isRefreshing
        self.lastRefreshed = lastRefreshed
        self.error = error
    }
}

/// The crypto price list: loads on first subscription and on ``refresh()``, shared by every subscriber.
///
/// - Inputs: ``refresh()``, ``cancel()``. Output: ``state`` (a ``PriceListState``).
/// - Loading: the first subscriber to ``state`` starts a load; every subscriber shares it and the last state is
///   replayed to later ones (`share(replay: 1)`). When every subscriber has cancelled, the next one starts over.
/// - Coalescing: a ``refresh()`` while a load is in flight is coalesced into it (the load in flight answers it);
///   a ``refresh()`` with no subscriber does nothing. A load counts as in flight until its answer is about to
///   be published: a ``refresh()`` made after a subscriber saw `isRefreshing == false` always starts a new
///   load, whatever thread the previous answer arrived on (it is never lost).
/// - Retries: a transient failure (transport error, timeout, HTTP 408, 429 or 5xx) is retried up to
///   `maxRetries` times with `backoff` on `scheduler`; a decoding error or another status is not retried.
/// - Failure: the previous rows stay, with ``PriceListState/error`` set.
/// - Cancelling: ``cancel()`` stops the load in flight (its request is cancelled, retries included) and
///   ends it as a failure with ``cancelledMessage``.
/// - Directions: each row compares its price with the previous successful refresh (``PriceDirection``).
/// - Time: ``PriceListState/lastRefreshed`` is `scheduler.now` when the list arrived.
/// - Threading: ``refresh()`` may be called from any thread; the state is published on the thread of the
///   response (or the scheduler's for retries).
///
/// ```swift
/// let prices = PriceListViewModel(client: client, baseURL: server, scheduler: queue)
/// let c = prices.state.sink { print($0.rows.count, $0.isRefreshing) }   // loads now
/// prices.refresh()
/// ```
public final class PriceListViewModel: Sendable {
    fileprivate enum Event {
        case started
        case loaded([CryptoCurrency], at: SchedulerInstant)
        case failed(String)
    }

    private let refreshes = PassthroughSubject<Void, Never>()
    private let cancels: PassthroughSubject<Void, Never>

    /// Why a load stopped by ``cancel()`` failed.
    public static let cancelledMessage = "the price refresh was cancelled"

    /// The list's state, shared: see the type's documentation for when it loads.
    public let state: AnyPublisher<PriceListState, Never>

    /// A price list loaded by `client` from `GET /crypto` at `baseURL`, retrying transient failures up to
    /// `maxRetries` times, waiting `backoff` on `scheduler` before each retry.
    public init(
        client: any NetworkClient, baseURL: URL, scheduler: any Scheduler, maxRetries: Int = 3,
        backoff: RetryBackoff = .exponential(initial: .milliseconds(500), maxDelay: .seconds(8))
    ) {
        let endpoint = FeatureEndpoint(baseURL: baseURL, request: .cryptoPrices)
        let gate = RefreshGate()
        let cancels = PassthroughSubject<Void, Never>()
        self.cancels = cancels
        let load = { (load: RefreshGate.Load) in
            Deferred { client.responsePublisher(for: endpoint) }
                .tryMap { try ResponseDecoding.decode([CryptoCurrency].self, from: $0.body, decoder: JSONDecoder()) }
                .mapError { $0 as? NetworkError ?? .decoding(path: "", description: "\($0)") }
                .retry(maxRetries: maxRetries, backoff: backoff, scheduler: scheduler, shouldRetry: \.isTransient)
                .map { Event.loaded($0, at: scheduler.now) }
                .catch { Just(Event.failed($0.description)) }
                .stopped(by: cancels, publishing: .failed(Self.cancelledMessage))
                // The gate opens before the answer travels on, so whoever sees it may refresh at once.
                .handleEvents(receiveOutput: { _ in gate.end(load) }, receiveCancel: { gate.end(load) })
                .prepend(.started)
        }
        // The gate, not the flatMap's demand, decides whether a load is in flight: flatMap asks for the next
        // refresh only once the inner publisher completes, after its answer has been published, and a refresh
        // sent in between would be dropped by the subject with no load to answer it.
        state = refreshes.prepend(())
            .compactMap { gate.begin() }
            .flatMap(maxPublishers: .unlimited) { load($0) }
            .scan((state: PriceListState.initial, inFlight: 0)) { accumulated, event in
                accumulated.state.applying(event, inFlight: accumulated.inFlight)
            }
            .map(\.state)
            .share(replay: 1)
            .eraseToAnyPublisher()
    }

    /// Loads the list again, unless a load is in flight (its answer, still to come, answers this refresh too) or
    /// nobody subscribes to ``state``. Never lost: once a subscriber has seen the previous load's answer, a
    /// refresh starts a new load.
    public func refresh() {
        refreshes.send(())
    }

    /// Stops the load in flight, if any (it fails with ``cancelledMessage``); does nothing otherwise.
    public func cancel() {
        cancels.send(())
    }
}

extension PriceListState {
    /// The state after `event`, with the number of loads in flight before and after it: `isRefreshing` stays
    /// true while any load is in flight (an answer and the next load's start may cross on their way).
    fileprivate func applying(
        _ event: PriceListViewModel.Event, inFlight: Int
    ) -> (state: PriceListState, inFlight: Int) {
        var next = self
        switch event {
        case .started:
            next.isRefreshing = true
            return (next, inFlight + 1)
        case .loaded(let currencies, let time):
            var previous: [String: Decimal] = [:]
            for row in rows { previous[row.currency] = row.price }
            next.rows = currencies.map {
                PriceRow(
                    currency: $0.currency, price: $0.price,
                    direction: PriceDirection(from: previous[$0.currency], to: $0.price))
            }
            next.lastRefreshed = time
            next.error = nil
        case .failed(let message):
            next.error = message
        }
        let remaining = max(0, inFlight - 1)
        next.isRefreshing = remaining > 0
        return (next, remaining)
    }
}

extension NetworkError {
    /// Whether trying again may succeed: transport errors, timeouts, HTTP 408, 429 and 5xx.
    var isTransient: Bool {
        switch self {
        case .transport, .timeout: true
        case .unacceptableStatus(let code, _): code == 408 || code == 429 || (500..<600).contains(code)
        default: false
        }
    }
}
