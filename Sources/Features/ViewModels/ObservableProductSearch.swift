#if canImport(Observation)
    import Observation
    import Streams

    /// The product search as an `@Observable` model, for code that observes state (SwiftUI views,
    /// `withObservationTracking`, `Observations`) instead of subscribing to streams. It bridges both ways:
    ///
    /// - Observation → stream: ``query`` is an observable property; every change is read by
    ///   `Observed(on: scheduler) { query }` and sent to ``ProductSearchViewModel/search(_:)``, whose debounce
    ///   decides when to search (assign it from a text field).
    /// - Stream → Observation: ``state``, ``favourites`` and ``basket`` are the view model's publishers,
    ///   assigned on `scheduler` as they change, so observers track them like any `@Observable` property.
    /// - Actions forward to the view model: ``submit()``, ``cancel()``, ``loadNextPage()``, ``sort(by:)``,
    ///   ``retry()``.
    ///
    /// - Threading: confined to `scheduler`, the model's serial context (`MainActorScheduler.shared` for a UI, a
    ///   serial queue, a `TestScheduler` in tests): set ``query`` and read the properties there only. The state
    ///   is assigned there (through `receive(on:)`), one change after another.
    /// - Lifetime: the subscriptions hold the model weakly and end when it is released.
    ///
    /// ```swift
    /// let model = ObservableProductSearch(viewModel: search, scheduler: MainActorScheduler.shared)
    /// model.query = "focus"   // searched after the 500 ms debounce
    /// // later, in a view: if case .results(let results) = model.state { … }
    /// ```
    @available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *)
    @Observable
    public final class ObservableProductSearch: @unchecked Sendable {
        // @unchecked Sendable: confined to `scheduler` (see Threading above); the subscriptions are set once, in
        // init, before the model is shared.

        /// The text typed so far; each change is searched through the view model's debounce.
        public var query = ""
        /// The search's state, as the view model publishes it.
        public private(set) var state = SearchState.idle
        /// The favourite products.
        public private(set) var favourites: [Product] = []
        /// The basket.
        public private(set) var basket = Basket()

        @ObservationIgnored private let viewModel: ProductSearchViewModel
        @ObservationIgnored private var subscriptions: [AnyCancellable] = []

        /// A model over `viewModel`, confined to `scheduler`.
        ///
        /// - Parameters:
        ///   - viewModel: the search it reads and drives.
        ///   - scheduler: the model's serial context, where ``query`` is read after a change and the state is
        ///     assigned.
        public init(viewModel: ProductSearchViewModel, scheduler: some Scheduler) {
            self.viewModel = viewModel
            subscriptions = [
                Observed(on: scheduler) { [weak self] in self?.query }
                    .dropFirst()  // the initial "" is not typed text
                    .compactMap { $0 }
                    .sink { [weak viewModel] in viewModel?.search($0) },
                viewModel.state.receive(on: scheduler).sink { [weak self] in self?.state = $0 },
                viewModel.favourites.receive(on: scheduler).sink { [weak self] in self?.favourites = $0 },
                viewModel.basket.receive(on: scheduler).sink { [weak self] in self?.basket = $0 },
            ]
        }

        /// Searches ``query`` now, without waiting for the debounce (Enter), also when it was set in this turn.
        public func submit() {
            viewModel.search(query)  // the change may not have been read yet; a repeat is not searched twice
            viewModel.submit()
        }

        /// Stops the search in flight (see ``ProductSearchViewModel/cancel()``).
        public func cancel() { viewModel.cancel() }

        /// Loads the next page of the results shown.
        public func loadNextPage() { viewModel.loadNextPage() }

        /// Orders the results by `sort` and searches again from page 1.
        public func sort(by sort: ProductSort?) { viewModel.sort(by: sort) }

        /// Searches again after a failure.
        public func retry() { viewModel.retry() }
    }
#endif
