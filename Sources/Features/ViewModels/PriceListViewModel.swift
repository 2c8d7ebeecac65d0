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
/// - Input: ``refresh()``. Output: ``state`` (a ``PriceListState``).
/// - Loading: the first subscriber to ``state`` starts a load; every subscriber shares it and the last state is
///   replayed to later ones (`share(replay: 1)`). When every subscriber has cancelled, the next one starts over.
/// - Coalescing: a ``refresh()`` while a load is in flight is dropped (the load in flight answers it); a
///   ``refresh()`` with no subscriber does nothing.
/// - Retries: a transient failure (transport error, timeout, HTTP 408, 429 or 5xx) is retried up to
///   `maxRetries` times with `backoff` on `scheduler`; a decoding error or another status is not retried.
/// - Failure: the previous rows stay, with ``PriceListState/error`` set.
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

    /// The list's state, shared: see the type's documentation for when it loads.
    public let state: AnyPublisher<PriceListState, Never>

    /// A price list loaded by `client` from `GET /crypto` at `baseURL`, retrying transient failures up to
    /// `maxRetries` times, waiting `backoff` on `scheduler` before each retry.
    public init(
        client: any NetworkClient, baseURL: URL, scheduler: any Scheduler, maxRetries: Int = 3,
        backoff: RetryBackoff = .exponential(initial: .milliseconds(500), maxDelay: .seconds(8))
    ) {
        let endpoint = FeatureEndpoint(baseURL: baseURL, request: .cryptoPrices)
        let load = {
            Deferred { client.responsePublisher(for: endpoint) }
                .tryMap { try ResponseDecoding.decode([CryptoCurrency].self, from: $0.body, decoder: JSONDecoder()) }
                .mapError { $0 as? NetworkError ?? .decoding(path: "", description: "\($0)") }
                .retry(maxRetries: maxRetries, backoff: backoff, scheduler: scheduler, shouldRetry: \.isTransient)
                .map { Event.loaded($0, at: scheduler.now) }
                .catch { Just(Event.failed($0.description)) }
                .prepend(.started)
        }
        state = refreshes.prepend(())
            .flatMap(maxPublishers: .max(1)) { load() }
            .scan(PriceListState.initial) { state, event in state.applying(event) }
            .share(replay: 1)
            .eraseToAnyPublisher()
    }

    /// Loads the list again, unless a load is in flight (then it is dropped) or nobody subscribes to ``state``.
    public func refresh() {
        refreshes.send(())
    }
}

extension PriceListState {
    fileprivate func applying(_ event: PriceListViewModel.Event) -> PriceListState {
        var next = self
        switch event {
        case .started:
            next.isRefreshing = true
        case .loaded(let currencies, let time):
            var previous: [String: Decimal] = [:]
            for row in rows { previous[row.currency] = row.price }
            next.rows = currencies.map {
                PriceRow(
                    currency: $0.currency, price: $0.price,
                    direction: PriceDirection(from: previous[$0.currency], to: $0.price))
            }
            next.isRefreshing = false
            next.lastRefreshed = time
            next.error = nil
        case .failed(let message):
            next.isRefreshing = false
            next.error = message
        }
        return next
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
