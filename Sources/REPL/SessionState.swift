import Features
import Foundation

/// Everything a ``Session`` knows, as a value: the lines waiting, what was typed, what the screen shows and
/// which answers are awaited. Its methods decide what to print; the session runs them under its lock and
/// prints after releasing it.
///
/// It keeps no copy of the view models' state. Each view model's state stream is rendered as it arrives
/// (with the value before it, for what changed); a command that needs a view model's state reads it from
/// that stream (`currentValue`, in `StreamReading.swift`). The one state it holds, ``search``, is the
/// search results the screen shows: the base the next change is printed against, what Enter and a resize
/// show again, and what `:next` and a product id refer to.
struct SessionState {
    /// Lines received but not yet run (a command waits until earlier work has settled).
    var pending = LineQueue()
    /// Every text line run so far, commands included.
    var history: [String] = []
    /// The last search text sent to the search view model, trimmed (`nil`: none yet).
    var typedText: String?
    /// The sort and filters asked for (re-applied when the source changes).
    var sort: ProductSort?
    var brands: Set<String> = []
    var models: Set<String> = []
    /// The search state the screen shows: the last one received from the search view model's stream (`.idle`
    /// before the first, and again after `:source`).
    var search = SearchState.idle
    /// The terminal's width in columns, for the products table (``Renderer/defaultWidth`` when not a terminal,
    /// so piped output is the same everywhere).
    var width = Renderer.defaultWidth
    /// The results printed so far: their query (any page) and how many products were printed.
    var printedResults: (query: ProductQuery, count: Int)?
    /// Answers a command is waiting for (the command's output is printed when they arrive).
    var awaitingFetch = false
    var awaitingPrices = false
    var pricesFilter: String?
    var awaitingUsers = false
    /// Whether the input ended (or `:quit` ran), and whether the session has ended.
    var inputEnded = false
    var hasEnded = false
    /// Whether the prompt is showing (so it is printed once per wait).
    var isPromptShown = false
    /// Whether a turn of ``Session`` is scheduled.
    var isTurnScheduled = false
    /// Whether the session is quitting at once (`:quit` or Ctrl-D in interactive mode): nothing is waited for.
    var isQuitting = false
    /// Interactive: whether the results under the input line are hidden (the line was emptied).
    var isLiveHidden = false
    /// Interactive: the live lines last published (a change that shows the same lines publishes nothing).
    var shownLive: [String] = []
    /// Whether search results are printed into the scrollback (piped mode always; interactive mode after a line
    /// is submitted) rather than shown live under the line being typed (interactive mode while typing).
    var isPrintingSearch = true
    /// How many problems were reported (`.error` lines); piped mode exits 1 when there was any.
    var failureCount = 0
    /// The brands of every product shown so far (Tab completes `:brand` with them).
    var knownBrands: Set<String> = []

    /// Whether the search shows the answer to the last text typed (or nothing was typed), with nothing
    /// loading.
    var isSearchSettled: Bool {
        switch search {
        case .idle: return typedText == nil
        case .hint:
            return typedText.map { !$0.isEmpty && $0.count < ProductSearchViewModel.minimumSearchLength } ?? true
        case .loading: return false
        case .results(let results): return !results.isLoadingNextPage && answersTypedText(results.query)
        case .empty(let query), .failed(let query, _): return answersTypedText(query)
        }
    }

    /// Whether nothing is waiting: no line pending, the search settled, no awaited answer.
    var isIdle: Bool {
        pending.isEmpty && isSettled
    }

    /// Whether a command's answer is awaited (`:fetch`, `:prices`, `:refresh`, `:users`).
    var isAwaitingAnswer: Bool {
        !isQuitting && (awaitingFetch || awaitingPrices || awaitingUsers)
    }

    /// Whether no work is in flight (lines may be pending).
    var isSettled: Bool {
        isQuitting || (isSearchSettled && !awaitingFetch && !awaitingPrices && !awaitingUsers)
    }

    /// Whether `query` is the search of the last typed text (any sort, filter or page).
    func answersTypedText(_ query: ProductQuery) -> Bool {
        guard let typedText else { return true }
        return query.search.trimmingCharacters(in: .whitespacesAndNewlines) == typedText
    }

    // MARK: Rendering changes

    /// Records a new search state and returns the lines it prints: results as they arrive (only the rows not
    /// printed yet), an empty result, a failure, a hint; in interactive mode also the loading lines. A state
    /// for an older text (while a newer one is being debounced) prints nothing.
    mutating func searchChanged(to next: SearchState, interactive: Bool) -> [OutputLine] {
        let previous = search
        search = next
        switch next {
        case .idle:
            return []
        case .hint(let message):
            guard isSearchSettled else { return [] }
            printedResults = nil
            return [.output(message)]
        case .loading(let query):
            printedResults = nil
            return interactive && answersTypedText(query) ? [.output(Renderer.loading(query))] : []
        case .empty(let query):
            printedResults = nil
            return answersTypedText(query) ? [.output(Renderer.empty(query))] : []
        case .failed(let query, let message):
            printedResults = nil
            guard answersTypedText(query) else { return [] }
            if message == ProductSearchViewModel.cancelledMessage { return cancelled(Renderer.searchCancelled(query)) }
            return [.error(Renderer.searchFailed(query, message: message))]
        case .results(let results):
            guard answersTypedText(results.query) else { return [] }
            return resultsLines(results, previous: previous, interactive: interactive)
        }
    }

    private mutating func resultsLines(
        _ results: SearchResults, previous: SearchState, interactive: Bool
    ) -> [OutputLine] {
        var lines: [OutputLine] = []
        var printed = 0
        if let earlier = printedResults, Self.sameSearch(earlier.query, results.query),
            earlier.count <= results.products.count
        {
            printed = earlier.count
        } else {
            lines.append(.output(Renderer.searchHeader(results, width: width)))
            lines.append(.output(Renderer.productTableHeader(width: width)))
        }
        let newRows = results.products.dropFirst(printed)
        lines += newRows.map { .output(Renderer.productRow($0, width: width)) }
        if !newRows.isEmpty || printed == 0 {
            lines.append(.output(Renderer.pageFooter(results)))
        } else if case .results(let earlier) = previous, earlier.isLoadingNextPage, !results.isLoadingNextPage,
            results.nextPageError == nil
        {
            // The next page brought nothing new (an empty page after a full last page, when the server sends
            // no total): say so, rather than print nothing.
            lines.append(.output(results.isLastPage ? Renderer.noMoreResults(results) : Renderer.pageFooter(results)))
        }
        printedResults = (results.query, results.products.count)
        if results.isLoadingNextPage, interactive {
            lines.append(.output(Renderer.loadingNextPage(results)))
        }
        if let message = results.nextPageError {
            var previousError: String?
            if case .results(let earlier) = previous { previousError = earlier.nextPageError }
            if previousError != message { lines.append(.error(Renderer.nextPageFailed(results, message: message))) }
        }
        return lines
    }

    /// Whether two queries are the same search (text, filters, sort, page size), whatever their page.
    static func sameSearch(_ a: ProductQuery, _ b: ProductQuery) -> Bool {
        var a = a
        a.page = b.page
        return a == b
    }

    /// A counter state arrived after `previous` (`nil`: the first); returns the fetch's result line once an
    /// awaited fetch completes.
    mutating func counterChanged(
        from previous: FetchCounterState?, to next: FetchCounterState, interactive: Bool
    ) -> [OutputLine] {
        let wasLoading = previous?.isLoading ?? false
        guard awaitingFetch else { return [] }
        if next.isLoading { return interactive && !wasLoading ? [.output(Renderer.fetching)] : [] }
        awaitingFetch = false
        if next.lastError == FetchCounterViewModel.cancelledMessage { return cancelled("the fetch was cancelled") }
        if let error = next.lastError { return [.error(Renderer.fetchFailed(error))] }
        return [.output(Renderer.fetched(next))]
    }

    /// A price-list state arrived; returns the list once an awaited refresh completes.
    mutating func pricesChanged(to next: PriceListState, interactive: Bool) -> [OutputLine] {
        guard awaitingPrices else { return [] }
        if next.isRefreshing { return interactive ? [.output(Renderer.loadingPrices)] : [] }
        awaitingPrices = false
        return pricesLines(next)
    }

    /// The price list as `:prices` prints it (the rows kept, then the error of a failed refresh).
    func pricesLines(_ state: PriceListState) -> [OutputLine] {
        var lines: [OutputLine] = []
        if state.error == PriceListViewModel.cancelledMessage { return cancelled("the price refresh was cancelled") }
        if !state.rows.isEmpty || state.error == nil {
            lines += Renderer.prices(state, filter: pricesFilter).map { .output($0) }
        }
        if let error = state.error { lines.append(.error(Renderer.pricesFailed(error))) }
        return lines
    }

    /// The line saying a request was cancelled (Ctrl-C): what the person asked for, so not a failure; nothing
    /// while quitting.
    func cancelled(_ message: String) -> [OutputLine] {
        isQuitting ? [] : [.output(message)]
    }

    /// A users state arrived; returns the list (or the failure) once an awaited load completes.
    mutating func usersChanged(to next: UsersState, interactive: Bool) -> [OutputLine] {
        guard awaitingUsers else { return [] }
        switch next {
        case .loading:
            return interactive ? [.output(Renderer.loadingUsers)] : []
        case .loaded(let users):
            awaitingUsers = false
            return Renderer.users(users).map { .output($0) }
        case .failed(let message):
            awaitingUsers = false
            if message == UsersViewModel.cancelledMessage { return cancelled("loading the users was cancelled") }
            return [.error(Renderer.usersFailed(message))]
        }
    }
}
