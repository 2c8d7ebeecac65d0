import Features

/// The lines an interactive session shows under the line being typed: the results of what is typed, replaced
/// in place as the search view model's state changes.
///
/// - Nothing searched yet, or the line emptied: no lines (after `:clear`, the whole catalogue is shown).
/// - Text still being debounced, or its first page loading: `searching "foc"…` (over the previous results, if
///   any, so the screen does not jump while typing).
/// - A 1-character text: the hint. Results: the header, the table fitted to the terminal's width and the footer
///   (and the next page's state);
///   no match or a failure: one line saying so.
///
/// ```swift
/// LiveResults.lines(for: state)   // ["results for \"focus\": 5 products", "  id  name …", …]
/// ```
enum LiveResults {
    /// The live lines for `state`.
    static func lines(for state: SessionState) -> [String] {
        guard !state.isLiveHidden, let typed = state.typedText else { return [] }
        switch state.search {
        case .results(let results) where state.answersTypedText(results.query):
            return resultLines(results, width: state.width)
        case .empty(let query) where state.answersTypedText(query):
            return [Renderer.empty(query)]
        case .failed(let query, let message) where state.answersTypedText(query):
            if message == ProductSearchViewModel.cancelledMessage { return [Renderer.searchCancelled(query)] }
            return [Renderer.searchFailed(query, message: message)]
        case .hint(let message) where !typed.isEmpty && typed.count < ProductSearchViewModel.minimumSearchLength:
            return [message]
        case .results(let results):
            return [searching(typed)] + resultLines(results, width: state.width)
        default:
            return [searching(typed)]
        }
    }

    /// The line shown while `text` is debounced or loading.
    static func searching(_ text: String) -> String {
        "searching \"\(text)\"…"
    }

    private static func resultLines(_ results: SearchResults, width: Int) -> [String] {
        var lines = [Renderer.searchHeader(results, width: width), Renderer.productTableHeader(width: width)]
        lines += results.products.map { Renderer.productRow($0, width: width) }
        lines.append(Renderer.pageFooter(results))
        if results.isLoadingNextPage { lines.append(Renderer.loadingNextPage(results)) }
        if let message = results.nextPageError { lines.append(Renderer.nextPageFailed(results, message: message)) }
        return lines
    }
}
