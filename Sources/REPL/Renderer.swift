import Features
import Foundation

/// Turns view-model outputs into the REPL's text lines: pure functions, no I/O, so every state's rendering
/// is tested on its own.
///
/// Products are shown as `  #ID  name  brand  model  price` in aligned columns; money with two decimals.
///
/// ```swift
/// Renderer.searchHeader(results)   // "results for \"focus\": 5 products"
/// Renderer.money(51)               // "51.00"
/// ```
public enum Renderer {
    /// How many price rows `:prices` shows before saying how many more there are.
    public static let maximumPriceRows = 20

    // MARK: Search

    /// What a search is: `"focus"` or `all products`, with its filters and sort.
    public static func describe(_ query: ProductQuery) -> String {
        let text = query.search.trimmingCharacters(in: .whitespacesAndNewlines)
        var subject = text.isEmpty ? "all products" : "\"\(text)\""
        var details: [String] = []
        if !query.brands.isEmpty { details.append("brand " + query.brands.sorted().joined(separator: ", ")) }
        if !query.models.isEmpty { details.append("model " + query.models.sorted().joined(separator: ", ")) }
        if let sort = query.sort { details.append("sorted by " + describe(sort)) }
        if !details.isEmpty { subject += " (" + details.joined(separator: "; ") + ")" }
        return subject
    }

    /// A sort in words: `price, lowest first`.
    public static func describe(_ sort: ProductSort?) -> String {
        switch sort {
        case .priceAscending: "price, lowest first"
        case .priceDescending: "price, highest first"
        case .newest: "date, newest first"
        case .oldest: "date, oldest first"
        case nil: "catalogue order"
        }
    }

    /// The interactive line shown while the first page loads.
    public static func loading(_ query: ProductQuery) -> String {
        "searching \(describe(query))…"
    }

    /// The line before the first page: `results for "focus": 5 products`. Without a total from the server it
    /// says what is known: `4+ products` while more pages may follow, the exact count once the last page is
    /// loaded. A long search text is cut with "…" so the line fits in `width` columns.
    public static func searchHeader(_ results: SearchResults, width: Int = defaultWidth) -> String {
        let count = ": " + productCount(results)
        let subject = TerminalText.escaped(describe(results.query))
        let room = max(width - DisplayWidth.of("results for ") - DisplayWidth.of(count), 12)
        return "results for " + cut(subject, room) + count
    }

    /// How many products the results hold, as far as is known: `5 products`, `1 product`, or `4+ products`
    /// (no total from the server, and more pages may follow).
    public static func productCount(_ results: SearchResults) -> String {
        if let total = results.totalCount { return products(total) }
        if results.isLastPage { return products(results.products.count) }
        return "\(results.products.count)+ products"
    }

    /// `1 product`, `3 products`.
    static func products(_ count: Int) -> String {
        "\(count) product" + (count == 1 ? "" : "s")
    }

    /// The terminal width assumed when the output is not a terminal, so piped output is the same everywhere.
    public static let defaultWidth = 80

    /// The header of the products table, aligned with ``productRow(_:width:)``:
    /// `  id     name                            brand          model              price`.
    public static func productTableHeader(width: Int = defaultWidth) -> String {
        let columns = TableColumns(width: width)
        return "  " + pad("id", columns.id) + "  " + pad("name", columns.name) + "  " + pad("brand", columns.brand)
            + "  " + pad("model", columns.model) + "  " + leftPad("price", columns.price)
    }

    /// One product, in the columns of ``productTableHeader(width:)`` for a terminal `width` columns wide:
    /// `  #12    Bentley Focus                   Lamborghini    CTS               51.00`. The name (and the brand
    /// and model) are cut with "…" to fit their column, the price is right-aligned so the decimal points line
    /// up. Widths are terminal columns (a CJK character or an emoji takes two), and control characters are
    /// shown escaped (``TerminalText``) before measuring.
    public static func productRow(_ product: Product, width: Int = defaultWidth) -> String {
        let columns = TableColumns(width: width)
        return "  " + pad(TerminalText.escaped("#" + product.id), columns.id) + "  " + fit(product.name, columns.name)
            + "  " + fit(product.brand, columns.brand) + "  " + fit(product.model, columns.model) + "  "
            + leftPad(money(product.price), columns.price)
    }

    /// The line after a page: where the results stand and whether `:next` has more.
    public static func pageFooter(_ results: SearchResults) -> String {
        let page = results.query.page
        let shown = results.products.count
        guard let total = results.totalCount else {
            return results.isLastPage
                ? "page \(page), \(shown) of \(shown) shown (last page)"
                : "page \(page), \(shown) shown (:next for more)"
        }
        let limit = max(results.query.limit, 1)
        let pages = max((total + limit - 1) / limit, 1)
        let position = "page \(page) of \(pages), \(shown) of \(total) shown"
        return results.isLastPage ? position + " (last page)" : position + " (:next for more)"
    }

    /// The line for `:next` when no more products come: `no more results for "focus" (8 products)`.
    public static func noMoreResults(_ results: SearchResults) -> String {
        "no more results for \(describe(results.query)) (\(products(results.totalCount ?? results.products.count)))"
    }

    /// The interactive line shown while the next page loads.
    public static func loadingNextPage(_ results: SearchResults) -> String {
        "loading page \(results.query.page + 1)…"
    }

    /// The line for a search without matches.
    public static func empty(_ query: ProductQuery) -> String {
        "no products match \(describe(query))"
    }

    /// The line for a search cancelled with Ctrl-C: `search for "focus" cancelled (:retry to search again)`.
    public static func searchCancelled(_ query: ProductQuery) -> String {
        "search for \(describe(query)) cancelled (:retry to search again)"
    }

    /// The stderr line for a failed search.
    public static func searchFailed(_ query: ProductQuery, message: String) -> String {
        "search for \(describe(query)) failed: \(message) (:retry to try again)"
    }

    /// The stderr line for a page that failed to load.
    public static func nextPageFailed(_ results: SearchResults, message: String) -> String {
        "page \(results.query.page + 1) of \(describe(results.query)) failed: \(message) (:next to try again)"
    }

    // MARK: Favourites and basket

    /// The favourites, one product per line.
    public static func favourites(_ products: [Product]) -> [String] {
        guard !products.isEmpty else { return ["no favourites yet (:fav ID adds a product of the results)"] }
        return ["favourites: \(products.count)", productTableHeader()] + products.map { productRow($0) }
    }

    /// The basket under `title`: one line per product with quantity and subtotal, then the total.
    public static func basket(_ basket: Basket, title: String = "basket:") -> [String] {
        guard !basket.isEmpty else { return ["the basket is empty"] }
        return [title]
            + basket.items.map { item in
                "  " + pad(TerminalText.escaped("#" + item.product.id), 5) + "  "
                    + pad(TerminalText.escaped(item.product.name), 24) + "  "
                    + "\(item.quantity) × \(money(item.product.price))".leftPadding(14) + "  "
                    + money(item.subtotal).leftPadding(10)
            } + [basketTotal(basket)]
    }

    /// `total 153.00 (3 items)`.
    public static func basketTotal(_ basket: Basket) -> String {
        "total \(money(basket.total)) (\(basket.itemCount) item" + (basket.itemCount == 1 ? ")" : "s)")
    }

    // MARK: Counter

    /// The line after a fetch: `HTTP 200, count 3`.
    public static func fetched(_ state: FetchCounterState) -> String {
        "HTTP \(state.lastStatusCode.map(String.init) ?? "?"), count \(state.count)"
    }

    /// The interactive line while a fetch is in flight.
    public static let fetching = "fetching the status…"

    /// The stderr line for a failed fetch.
    public static func fetchFailed(_ message: String) -> String {
        "fetch failed: \(message) (:fetch to try again)"
    }

    /// `count 3`.
    public static func count(_ count: Int) -> String {
        "count \(count)"
    }

    // MARK: Prices

    /// The interactive line while the prices load.
    public static let loadingPrices = "loading prices…"

    /// The price rows whose currency contains `filter` (ignoring case), at most ``maximumPriceRows`` of them,
    /// with each row's direction since the previous refresh.
    public static func prices(_ state: PriceListState, filter: String?) -> [String] {
        let rows = state.rows.filter { row in
            guard let filter, !filter.isEmpty else { return true }
            return row.currency.range(of: filter, options: .caseInsensitive) != nil
        }
        guard !rows.isEmpty else {
            return [filter.map { "no currency matches \"\($0)\"" } ?? "no prices"]
        }
        let shown = rows.prefix(maximumPriceRows)
        let header =
            "prices: \(rows.count) currenc" + (rows.count == 1 ? "y" : "ies")
            + (filter.map { " matching \"\($0)\"" } ?? "")
        var lines = [header]
        lines += shown.map { row in
            "  " + pad(TerminalText.escaped(row.currency), 10) + "  " + "\(row.price)".leftPadding(16) + "  "
                + row.direction.rawValue
        }
        if rows.count > shown.count {
            lines.append("… \(rows.count - shown.count) more (:prices FILTER narrows the list)")
        }
        return lines
    }

    /// The stderr line for a failed refresh (the rows shown are the previous ones).
    public static func pricesFailed(_ message: String) -> String {
        "prices could not be refreshed: \(message) (:refresh to try again)"
    }

    // MARK: Users

    /// The interactive line while the users load.
    public static let loadingUsers = "loading users…"

    /// One line per user: id, name, user name, e-mail, city.
    public static func users(_ users: [User]) -> [String] {
        guard !users.isEmpty else { return ["no users"] }
        return ["users: \(users.count)"]
            + users.map { user in
                "  " + String(user.id).leftPadding(3) + "  " + pad(TerminalText.escaped(user.name), 24) + "  "
                    + pad(TerminalText.escaped("@" + user.username), 18) + "  "
                    + pad(TerminalText.escaped(user.email), 26) + "  " + TerminalText.escaped(user.address.city)
            }
    }

    /// The stderr line for a failed users load.
    public static func usersFailed(_ message: String) -> String {
        "users could not be loaded: \(message) (:users to try again)"
    }

    // MARK: Values

    /// `value` rounded to two decimals: `51.00`, `0.50`.
    public static func money(_ value: Decimal) -> String {
        var value = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 2, .plain)
        let parts = "\(rounded)".split(separator: ".", omittingEmptySubsequences: false)
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        return "\(parts[0]).\(fraction.padding(2).replacingOccurrences(of: " ", with: "0"))"
    }

    // MARK: Columns

    /// The columns of the products table for a terminal `width` columns wide: fixed id, brand, model and
    /// price columns; the name takes the rest (at least 10), leaving the last column free (a line filling the
    /// whole width makes some terminals wrap).
    private struct TableColumns {
        let id = 5
        let brand = 13
        let model = 12
        let price = 10
        let name: Int

        init(width: Int) {
            // The name takes the room left, between 10 and 40 columns (wider only spreads the table out).
            name = min(max(width - 1 - (2 + id + 2 + 2 + brand + 2 + model + 2 + price), 10), 40)
        }
    }

    /// `text` escaped for the terminal, cut with "…" to `width` terminal columns and padded to exactly `width`.
    static func fit(_ text: String, _ width: Int) -> String {
        pad(cut(TerminalText.escaped(text), width), width)
    }

    /// Escaped `text` cut with "…" to at most `width` terminal columns, never in the middle of an escape
    /// (`\u{1B}` is kept whole or dropped whole).
    static func cut(_ text: String, _ width: Int) -> String {
        let cut = DisplayWidth.truncated(text, toWidth: width)
        guard cut != text, cut.hasSuffix("…") else { return cut }
        var kept = cut.dropLast()
        if let slash = kept.lastIndex(of: "\\"),
            kept[slash...].dropFirst().allSatisfy({ "u{0123456789ABCDEF".contains($0) })
        {
            kept = kept[..<slash]  // the start of an escape, cut before its "}"
        }
        return kept + "…"
    }

    /// `text` padded on the right with spaces to `width` terminal columns (unchanged when wider).
    static func pad(_ text: String, _ width: Int) -> String {
        let used = DisplayWidth.of(text)
        return used >= width ? text : text + String(repeating: " ", count: width - used)
    }

    /// `text` padded on the left with spaces to `width` terminal columns (unchanged when wider).
    static func leftPad(_ text: String, _ width: Int) -> String {
        let used = DisplayWidth.of(text)
        return used >= width ? text : String(repeating: " ", count: width - used) + text
    }
}
