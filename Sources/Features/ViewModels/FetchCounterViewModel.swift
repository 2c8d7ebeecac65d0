import Foundation
import Networking
import Streams

/// What the fetch counter shows.
///
/// ```swift
/// FetchCounterState(lastStatusCode: 404, count: 3, isLoading: false, lastError: nil)
/// ```
public struct FetchCounterState: Equatable, Sendable {
    /// The status code of the last completed fetch, `nil` before the first (or after a reset).
    public var lastStatusCode: Int?
    /// How many fetches completed, kept across launches until reset.
    public var count: Int
    /// Whether a fetch is in flight.
    public var isLoading: Bool
    /// Why the last fetch (or saving the count) failed; `nil` once a fetch succeeds or after a reset.
    public var lastError: String?

    /// Creates a state.
    public init(lastStatusCode: Int?, count: Int, isLoading: Bool, lastError: String?) {
        self.lastStatusCode = lastStatusCode
        self.count = count
        self.isLoading = isLoading
        self.lastError = lastError
    }
}

/// Fetches a status code from `GET /status` and counts completed fetches in the persistent store.
///
/// - Inputs: ``fetch()``, ``reset()``, ``cancel()``.
/// - Outputs: ``state`` (everything at once), and ``lastStatusCode``, ``count``, ``isLoading``, ``lastError``
///   derived from it. Each publishes its current value on subscription, then each change (no repeats).
/// - Counting: any HTTP response (200, 404, 500…) completes a fetch: the count goes up by one and its code is
///   shown. A transport failure or a timeout does not count and is shown as ``FetchCounterState/lastError``
///   (the previous code stays). A fetch fails with a timeout when no response arrives within
///   `requestTimeout` on `scheduler`.
/// - Overlapping fetches: a ``fetch()`` while one is in flight is **ignored** (no second request).
/// - Threading: inputs may be called from any thread; outputs are published on the thread of the change
///   (the caller's, or the scheduler's for responses). Its stored properties are immutable; what changes is in
///   `progress`, under that relay's lock, and in the store, under its own.
///
/// ```swift
/// let counter = FetchCounterViewModel(client: client, baseURL: server, store: store, scheduler: queue)
/// let c = counter.state.sink { print($0.count, $0.lastStatusCode ?? 0) }
/// counter.fetch()
/// ```
public final class FetchCounterViewModel: @unchecked Sendable {
    private struct Progress: Equatable {
        var lastStatusCode: Int?
        var isLoading = false
        var lastError: String?
        var request: AnyCancellable?
        var generation = 0

        static func == (lhs: Progress, rhs: Progress) -> Bool {
            lhs.lastStatusCode == rhs.lastStatusCode && lhs.isLoading == rhs.isLoading
                && lhs.lastError == rhs.lastError
        }
    }

    private let client: any NetworkClient
    private let endpoint: FeatureEndpoint
    private let store: FeatureStore
    private let scheduler: any Scheduler
    private let requestTimeout: Duration
    private let progress = StateRelay(Progress())

    /// The whole state: current value on subscription, then each change.
    public let state: AnyPublisher<FetchCounterState, Never>

    /// A counter asking `client` for `GET /status` at `baseURL`, counting in `store`, timing out requests after
    /// `requestTimeout` on `scheduler`.
    public init(
        client: any NetworkClient, baseURL: URL, store: FeatureStore, scheduler: any Scheduler,
        requestTimeout: Duration = .seconds(10)
    ) {
        self.client = client
        endpoint = FeatureEndpoint(baseURL: baseURL, request: .status)
        self.store = store
        self.scheduler = scheduler
        self.requestTimeout = requestTimeout
        state = progress.publisher.removeDuplicates()
            .combineLatest(store.fetchCount) { progress, count in
                FetchCounterState(
                    lastStatusCode: progress.lastStatusCode, count: count, isLoading: progress.isLoading,
                    lastError: progress.lastError)
            }
            .removeDuplicates()
            .eraseToAnyPublisher()
    }

    /// The last status code (`nil` before the first fetch or after a reset).
    public var lastStatusCode: AnyPublisher<Int?, Never> {
        state.map(\.lastStatusCode).removeDuplicates().eraseToAnyPublisher()
    }

    /// The number of completed fetches.
    public var count: AnyPublisher<Int, Never> {
        state.map(\.count).removeDuplicates().eraseToAnyPublisher()
    }

    /// Whether a fetch is in flight.
    public var isLoading: AnyPublisher<Bool, Never> {
        state.map(\.isLoading).removeDuplicates().eraseToAnyPublisher()
    }

    /// The last error's explanation, or `nil`.
    public var lastError: AnyPublisher<String?, Never> {
        state.map(\.lastError).removeDuplicates().eraseToAnyPublisher()
    }

    /// Sends one `GET /status`, unless a fetch is in flight (then does nothing).
    public func fetch() {
        let generation = progress.update { progress -> Int? in
            guard !progress.isLoading else { return nil }
            progress.isLoading = true
            progress.generation += 1
            return progress.generation
        }
        guard let generation else { return }
        let request = client.responsePublisher(for: endpoint)
            .timeout(requestTimeout, scheduler: scheduler, customError: { .timeout })
            .sink(
                receiveCompletion: { [weak self] completion in
                    self?.finish(generation, with: completion)
                },
                receiveValue: { [weak self] response in
                    self?.finish(generation, with: response.statusCode)
                })
        progress.update { progress in
            if progress.generation == generation && progress.isLoading { progress.request = request }
        }
    }

    /// Why a fetch stopped by ``cancel()`` did not count.
    public static let cancelledMessage = "the fetch was cancelled"

    /// Stops the fetch in flight, if any: its request is cancelled (which cancels the network task), it does
    /// not count, and ``FetchCounterState/lastError`` says it was cancelled. Returns whether one was stopped.
    @discardableResult
    public func cancel() -> Bool {
        let stopped = progress.update { progress -> AnyCancellable?? in
            guard progress.isLoading else { return nil }
            progress.isLoading = false
            progress.lastError = Self.cancelledMessage
            progress.generation += 1  // a late answer of the stopped request is ignored
            defer { progress.request = nil }
            return .some(progress.request)
        }
        guard let stopped else { return false }
        stopped?.cancel()  // outside the lock
        return true
    }

    /// Sets the count to 0 and clears the last code and error. A fetch in flight still counts when it completes.
    public func reset() {
        let failure: String?
        do {
            try store.resetFetchCount()
            failure = nil
        } catch {
            failure = "could not reset the count: \(error)"
        }
        progress.update { progress in
            progress.lastStatusCode = nil
            progress.lastError = failure
        }
    }

    private func finish(_ generation: Int, with statusCode: Int) {
        let failure: String?
        do {
            try store.incrementFetchCount()
            failure = nil
        } catch {
            failure = "HTTP \(statusCode) received, but the count could not be saved: \(error)"
        }
        end(generation) { progress in
            progress.lastStatusCode = statusCode
            progress.lastError = failure
        }
    }

    private func finish(_ generation: Int, with completion: Subscribers.Completion<NetworkError>) {
        switch completion {
        case .failure(.unacceptableStatus(let code, _)):
            // A client that rejects some codes still delivered an HTTP response: it counts.
            finish(generation, with: code)
        case .failure(let error):
            end(generation) { $0.lastError = error.description }
        case .finished:
            end(generation) { progress in
                if progress.isLoading { progress.lastError = "the server closed the request without a response" }
            }
        }
    }

    /// Ends the fetch `generation` (if it is still the current one) after applying `change`.
    private func end(_ generation: Int, _ change: (inout Progress) -> Void) {
        let finished = progress.update { progress -> AnyCancellable? in
            guard progress.generation == generation, progress.isLoading else { return nil }
            change(&progress)
            progress.isLoading = false
            defer { progress.request = nil }
            return progress.request
        }
        _ = finished  // released here, outside the lock
    }
}
