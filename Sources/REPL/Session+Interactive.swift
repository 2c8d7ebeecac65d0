import Features
import Streams

extension Session {
    /// Interactive: the line being typed has changed to `text` (called on every edit, before Enter).
    ///
    /// A line that is not a command feeds the search view model's query (its debounce decides when to search)
    /// and its results are published as ``OutputLine/live(_:)``; an emptied line hides them; a command being
    /// typed leaves them as they are. May be called from any thread: the work runs on the session's scheduler.
    public func typing(_ text: String) {
        sessionScheduler.schedule { [weak self] in self?.typed(text) }
    }

    private func typed(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.hasPrefix(":") else { return }
        if trimmed.isEmpty {
            searchTrace.removeAll()  // the line was emptied: the next search starts a new timeline
        } else {
            currentViewModels.search.search(text)  // its debounce decides when to search
        }
        let trace = traceLines()
        let live = withState { state -> [String]? in
            if trimmed.isEmpty {
                state.isLiveHidden = true
            } else {
                state.isLiveHidden = false
                state.isPrintingSearch = false
                state.typedText = trimmed
            }
            return state.liveChange(trace: trace)
        }
        if let live { emit([.live(live)]) }
    }

    /// Interactive: the terminal is now `width` columns wide; the live results table is fitted to it (at least
    /// 40 columns are assumed). May be called from any thread.
    public func resize(width: Int) {
        sessionScheduler.schedule { [weak self] in
            guard let self else { return }
            let trace = traceLines()
            let live = withState { state -> [String]? in
                state.width = max(width, 40)
                return state.liveChange(trace: trace)
            }
            if let live { emit([.live(live)]) }
        }
    }

    /// Interactive: from now on the search's results are printed into the scrollback (a line was submitted:
    /// a search, or a command that changes the results); the live lines are cleared, and the results shown
    /// live so far are printed at once. Does nothing in piped mode or when printing already.
    func printSearchFromNow() {
        guard interactive else { return }
        let printed = withState { state -> (lines: [OutputLine], settled: Bool)? in
            guard !state.isPrintingSearch else { return nil }
            state.isPrintingSearch = true
            state.printedResults = nil
            state.shownLive = []
            return (state.searchChanged(to: state.search, interactive: true), state.isSearchSettled)
        }
        guard let printed else { return }
        emit([.live([])] + printed.lines)
        if printed.settled, !printed.lines.isEmpty { emitTraceAndStartAnew() }
    }

    /// Cancels what is in flight — a search or page loading, a `:fetch`, `:prices`/`:refresh` or `:users` —
    /// through each view model's cancel (which cancels its request); each prints that it was cancelled.
    /// Returns whether anything was in flight (Ctrl-C then does nothing else). May be called from any thread.
    @discardableResult
    public func interrupt() -> Bool {
        let (search, fetch, prices, users) = withState { state in
            (state.isSearchInFlight, state.awaitingFetch, state.awaitingPrices, state.awaitingUsers)
        }
        let set = currentViewModels
        var stopped = false
        if search { stopped = set.search.cancel() || stopped }
        if fetch { stopped = set.counter.cancel() || stopped }
        if prices {
            set.prices.cancel()
            stopped = true
        }
        if users {
            set.users.cancel()
            stopped = true
        }
        return stopped
    }

    /// Ends the session at once (Ctrl-D, or the terminal closing): no more lines are read, requests in flight
    /// are cancelled, and ``output`` finishes without waiting for them. May be called from any thread.
    public func quit() {
        sessionScheduler.schedule { [weak self] in self?.quitNow() }
    }

    /// `:quit`: in interactive mode the session ends at once, as ``quit()``; piped, it stops reading and ends
    /// once earlier work has settled (a script's last answers are printed).
    func quitCommand() {
        guard interactive else { return stopReading() }
        quitNow()
    }

    private func quitNow() {
        withState { $0.isQuitting = true }
        stopReading()
        interrupt()
        requestTurn()
    }

    /// The full lines the line typed so far (`text`, up to the cursor) may be completed to with Tab: command
    /// names, sort keys, sources, help topics, cart and favourite actions, product ids of the results shown,
    /// brands seen. May be called from any thread.
    public func completions(for text: String) -> [String] {
        let context = withState { state -> CommandCompletion.Context in
            var ids: [String] = []
            if case .results(let results) = state.search { ids = results.products.map(\.id) }
            return CommandCompletion.Context(productIDs: ids, brands: state.knownBrands.sorted())
        }
        return CommandCompletion.candidates(for: text, context: context)
    }
}

extension SessionState {
    /// Whether a search request is in flight for the text typed (a first page or a next page loading).
    var isSearchInFlight: Bool {
        switch search {
        case .loading: true
        case .results(let results): results.isLoadingNextPage
        default: false
        }
    }

    /// The live lines to publish now (``LiveResults``, then `trace`), or `nil` when they are the ones shown
    /// already.
    mutating func liveChange(trace: [String]) -> [String]? {
        let lines = isLiveHidden ? [] : LiveResults.lines(for: self) + trace
        guard lines != shownLive else { return nil }
        shownLive = lines
        return lines
    }

    /// Adds the brands of the products of `search` to ``knownBrands``.
    mutating func rememberBrands(of search: SearchState) {
        guard case .results(let results) = search else { return }
        for product in results.products { knownBrands.insert(product.brand) }
    }
}
