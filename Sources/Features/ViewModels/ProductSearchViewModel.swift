import Foundation
import Networking
import Streams

/// The debounced product search, with pagination, sort, filters, favourites and a basket.
///
/// - Inputs: ``search(_:)``, ``submit()``, ``cancel()``, ``loadNextPage()``, ``sort(by:)``,
///   ``filter(brands:models:)``, ``retry()``;
///   favourites and basket: ``addFavourite(_:)``, ``removeFavourite(productID:)``, ``addToBasket(_:quantity:)``,
///   ``setQuantity(_:forProductID:)``, ``removeFromBasket(productID:)``, ``checkout()``.
/// - Outputs: ``state`` (a ``SearchState``), ``favourites``, ``basket``: each publishes its current value on
///   subscription, then every change.
/// - Typing: the text is trimmed, repeats are dropped, and it is searched once it has been quiet for
///   500 ms (`debounce` on `scheduler`; a settled text equal to the last one is not searched again). An empty
///   text shows the whole catalogue; 1 character shows ``SearchState/hint(_:)``; 2 or more search.
///   ``submit()`` searches the text typed so far at once (Enter in a search field); the debounce then
///   does not search it again.
/// - Cancelling: ``cancel()`` stops the request in flight (its subscription is cancelled, which cancels the
///   network task) and shows ``SearchState/failed(query:message:)`` with ``cancelledMessage`` (``retry()``
///   searches again); a next page loading stops with that message as its error.
/// - Stale responses: each search replaces the request in flight (`switchToLatest` cancels it), and a response
///   of any request but the latest is ignored, so an older search can never overwrite a newer one.
/// - Pages: `pageSize` (4) products per page. ``loadNextPage()`` appends the next page; it does nothing while a
///   page is loading, after the last page (see ``ProductPage/isLastPage``), or when no results are shown.
/// - Sort and filters apply to every search; changing them searches the current text again from page 1
///   at once (no debounce).
/// - Threading: inputs may be called from any thread; the state is published on the thread of the change (the
///   scheduler's for debounced searches, the catalog's for responses). Its stored properties are immutable;
///   what changes is in `machine` and `subscriptions`, each under its lock, and in subjects and the store.
///
/// ```swift
/// let search = ProductSearchViewModel(catalog: catalog, store: store, scheduler: queue)
/// let c = search.state.sink { print($0) }
/// search.search("focus")   // .loading, then .results after 500 ms and the response
/// ```
public final class ProductSearchViewModel: @unchecked Sendable {
    /// How long the text must be quiet before it is searched.
    public static let debounceInterval: Duration = .milliseconds(500)
    /// The shortest text searched (an empty text shows everything).
    public static let minimumSearchLength = 2
    /// Why a search stopped by ``cancel()`` shows no results.
    public static let cancelledMessage = "the search was cancelled"

    private struct Request {
        var generation: Int
        var query: ProductQuery
    }

    private enum PendingRequest {
        case load(Request)
        case cancel
    }

    private enum Outcome: CustomStringConvertible {
        case loaded(Request, ProductPage)
        case failed(Request, NetworkError)

        /// How a trace shows it: `4 products`, `failed: the request timed out`.
        var description: String {
            switch self {
            case .loaded(_, let page): "\(page.products.count) product" + (page.products.count == 1 ? "" : "s")
            case .failed(_, let error): "failed: \(error)"
            }
        }
    }

    private struct Machine {
        var settledText: String?
        var sort: ProductSort?
        var brands: Set<String> = []
        var models: Set<String> = []
        var generation = 0
        var search = SearchState.idle
        /// The request the next signal starts; taken (set to nil) when started.
        var pending: PendingRequest?
    }

    private let store: FeatureStore
    private let pageSize: Int
    private let machine = StateRelay(Machine())
    /// The text typed so far (`nil`: nothing yet).
    private let typedText = CurrentValueSubject<String?, Never>(nil)
    private let submitted = PassthroughSubject<String, Never>()
    private let requestSignals = PassthroughSubject<Void, Never>()
    private let subscriptions = Locked<[AnyCancellable]>([])

    /// The search's state: current value on subscription, then each change.
    public let state: AnyPublisher<SearchState, Never>

    /// A search over `catalog`, keeping favourites and the basket in `store`, debouncing on `scheduler`.
    ///
    /// - Parameters:
    ///   - catalog: where pages of products come from (``LocalProductCatalog`` for model values in memory, or
    ///     ``NetworkProductCatalog`` over a local or remote client).
    ///   - store: the persistent store holding favourites and the basket.
    ///   - scheduler: the scheduler of the 500 ms debounce (a `TestScheduler` in tests).
    ///   - pageSize: products per page (default 4; values below 1 count as 1).
    ///   - trace: where to record the pipeline's events, if anywhere (`trace(_:to:scheduler:)` on `scheduler`): the
    ///     text typed (`keys`), the text settled after the debounce (`debounced`) and each request with its
    ///     outcome (`request`, one subscription per request: a cancelled one shows its `cancel`).
    public init(
        catalog: any ProductCatalog, store: FeatureStore, scheduler: any Scheduler, pageSize: Int = 4,
        trace: TraceLog? = nil
    ) {
        self.store = store
        self.pageSize = max(pageSize, 1)
        state = machine.publisher.map(\.search).removeDuplicates().eraseToAnyPublisher()

        let settled =
            typedText
            .compactMap { $0 }
            .trace("keys", to: trace, scheduler: scheduler)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .removeDuplicates()
            .debounce(for: Self.debounceInterval, scheduler: scheduler)
            .merge(with: submitted)
            .removeDuplicates()
            .trace("debounced", to: trace, scheduler: scheduler)
            .sink { [weak self] text in self?.textSettled(text) }
        let responses =
            requestSignals
            .compactMap { [weak self] in self?.takePendingRequest() }
            .map { pending -> AnyPublisher<Outcome, Never> in
                guard case .load(let request) = pending else { return Empty().eraseToAnyPublisher() }
                return catalog.page(for: request.query)
                    .map { Outcome.loaded(request, $0) }
                    .catch { Just(Outcome.failed(request, $0)) }
                    .trace("request", to: trace, scheduler: scheduler)
            }
            .switchToLatest()
            .sink { [weak self] outcome in self?.apply(outcome) }
        subscriptions.withLock { $0 = [settled, responses] }
    }

    /// The favourite products (from the store): current list on subscription, then each change.
    public var favourites: AnyPublisher<[Product], Never> { store.favourites }

    /// The basket (from the store): current basket on subscription, then each change.
    public var basket: AnyPublisher<Basket, Never> { store.basket }

    // MARK: Inputs

    /// The text typed so far; searched once quiet for 500 ms (see the type's documentation).
    public func search(_ text: String) {
        typedText.send(text)
    }

    /// Searches the text typed so far now, without waiting for the rest of the debounce (Enter in a search
    /// field); does nothing when nothing was typed or the text was searched already.
    public func submit() {
        guard let text = typedText.value else { return }
        submitted.send(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Stops the search in flight, if any: a first page loading shows ``SearchState/failed(query:message:)``
    /// with ``cancelledMessage``; a next page loading stops with that message as its error. Returns whether
    /// something was stopped.
    @discardableResult
    public func cancel() -> Bool {
        var stopped = false
        start { machine in
            switch machine.search {
            case .loading(let query):
                machine.search = .failed(query: query, message: Self.cancelledMessage)
            case .results(var results) where results.isLoadingNextPage:
                results.isLoadingNextPage = false
                results.nextPageError = Self.cancelledMessage
                machine.search = .results(results)
            default:
                return nil
            }
            machine.generation += 1
            machine.pending = .cancel
            stopped = true
            return nil
        }
        return stopped
    }

    /// Loads the next page of the results shown; ignored while a page loads, after the last page, or when no
    /// results are shown.
    public func loadNextPage() {
        start { machine in
            guard case .results(var results) = machine.search, !results.isLastPage, !results.isLoadingNextPage
            else { return nil }
            results.isLoadingNextPage = true
            results.nextPageError = nil
            machine.search = .results(results)
            var next = results.query
            next.page += 1
            return next
        }
    }

    /// Orders the results by `sort` (`nil`: catalogue order) and searches again from page 1.
    public func sort(by sort: ProductSort?) {
        start { machine in
            guard machine.sort != sort else { return nil }
            machine.sort = sort
            return Self.restartQuery(&machine, pageSize: pageSize)
        }
    }

    /// Keeps only the given brands and models (empty: all) and searches again from page 1.
    public func filter(brands: Set<String>, models: Set<String>) {
        start { machine in
            guard machine.brands != brands || machine.models != models else { return nil }
            machine.brands = brands
            machine.models = models
            return Self.restartQuery(&machine, pageSize: pageSize)
        }
    }

    /// Searches again after ``SearchState/failed(query:message:)``; does nothing in other states.
    public func retry() {
        start { machine in
            guard case .failed = machine.search else { return nil }
            return Self.restartQuery(&machine, pageSize: pageSize)
        }
    }

    /// Adds `product` to the favourites (persisted).
    public func addFavourite(_ product: Product) throws(FeatureStoreError) {
        try store.addFavourite(product)
    }

    /// Removes a product from the favourites (persisted).
    public func removeFavourite(productID: String) throws(FeatureStoreError) {
        try store.removeFavourite(productID: productID)
    }

    /// Adds `quantity` units of `product` to the basket (persisted).
    public func addToBasket(_ product: Product, quantity: Int = 1) throws(FeatureStoreError) {
        try store.addToBasket(product, quantity: quantity)
    }

    /// Changes a product's quantity in the basket; 0 removes it (persisted).
    public func setQuantity(_ quantity: Int, forProductID productID: String) throws(FeatureStoreError) {
        try store.setQuantity(quantity, forProductID: productID)
    }

    /// Removes a product from the basket (persisted).
    public func removeFromBasket(productID: String) throws(FeatureStoreError) {
        try store.removeFromBasket(productID: productID)
    }

    /// Empties the basket and returns what it held (persisted).
    @discardableResult
    public func checkout() throws(FeatureStoreError) -> Basket {
        try store.checkout()
    }

    // MARK: Pipeline

    private func textSettled(_ text: String) {
        start { machine in
            machine.settledText = text
            if !text.isEmpty && text.count < Self.minimumSearchLength {
                machine.generation += 1
                machine.search = .hint(SearchState.shortTextHint)
                machine.pending = .cancel
                return nil
            }
            return Self.restartQuery(&machine, pageSize: pageSize)
        }
    }

    /// Searches the settled text from page 1 with the current sort and filters: the query to load, or `nil`
    /// when nothing was searched yet or a hint is shown.
    private static func restartQuery(_ machine: inout Machine, pageSize: Int) -> ProductQuery? {
        guard let text = machine.settledText, text.isEmpty || text.count >= minimumSearchLength else { return nil }
        let query = ProductQuery(
            search: text, brands: machine.brands, models: machine.models, sort: machine.sort, page: 1,
            limit: pageSize)
        machine.search = .loading(query)
        return query
    }

    /// Changes the machine with `decide`; when it returns a query (or stages a cancellation), starts it.
    private func start(_ decide: (inout Machine) -> ProductQuery?) {
        let signals = machine.update { machine -> Bool in
            if let query = decide(&machine) {
                machine.generation += 1
                machine.pending = .load(Request(generation: machine.generation, query: query))
            }
            return machine.pending != nil
        }
        if signals { requestSignals.send(()) }
    }

    private func takePendingRequest() -> PendingRequest? {
        machine.stage { machine in
            defer { machine.pending = nil }
            return machine.pending
        }
    }

    private func apply(_ outcome: Outcome) {
        machine.update { machine in
            switch outcome {
            case .loaded(let request, let page) where request.generation == machine.generation:
                machine.search = Self.state(after: page, of: request.query, replacing: machine.search)
            case .failed(let request, let error) where request.generation == machine.generation:
                if request.query.page == 1 {
                    machine.search = .failed(query: request.query, message: error.description)
                } else if case .results(var results) = machine.search {
                    results.isLoadingNextPage = false
                    results.nextPageError = error.description
                    machine.search = .results(results)
                }
            default:
                break  // a response to an older request: never shown
            }
        }
    }

    private static func state(after page: ProductPage, of query: ProductQuery, replacing current: SearchState)
        -> SearchState
    {
        guard query.page > 1, case .results(var results) = current else {
            if page.products.isEmpty { return .empty(query) }
            return .results(
                SearchResults(
                    query: query, products: page.products, totalCount: page.totalCount, isLastPage: page.isLastPage))
        }
        let known = Set(results.products.map(\.id))
        let new = page.products.filter { !known.contains($0.id) }
        results.products += new
        if !new.isEmpty { results.query = query }  // an empty page is not a page shown
        results.totalCount = page.totalCount ?? results.totalCount
        results.isLastPage = page.isLastPage || page.products.isEmpty
        results.isLoadingNextPage = false
        results.nextPageError = nil
        return .results(results)
    }
}
