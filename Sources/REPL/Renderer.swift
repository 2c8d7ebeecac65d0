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

    /// The line before the first page: `results for "focus": 5 products`.
    public static func searchHeader(_ results: SearchResults) -> String {
        let count = results.totalCount.map { "\($0) product" + ($0 == 1 ? "" : "s") } ?? "products"
        return "results for \(describe(results.query)): \(count)"
    }

    /// One product: `  #12  Bentley Focus  Lamborghini  CTS  51.00`.
    public static func productRow(_ product: Product) -> String {
        "  " + ("#" + product.id).padding(4) + "  " + product.name.padding(24) + "  " + product.brand.padding(13)
            + "  " + product.model.padding(14) + "  " + money(product.price).leftPadding(9)
    }

    /// The line after a page: where the results stand and whether `:next` has more.
    public static func pageFooter(_ results: SearchResults) -> String {
        let page = results.query.page
        let shown = results.products.count
        guard let total = results.totalCount else {
            return results.isLastPage ? "page \(page) (last page)" : "page \(page) (:next for more)"
        }
        let limit = max(results.query.limit, 1)
        let pages = max((total + limit - 1) / limit, 1)
        let position = "page \(page) of \(pages), \(shown) of \(total) shown"
        return results.isLastPage ? position + " (last page)" : position + " (:next for more)"
    }

    /// The interactive line shown while the next page loads.
    public static func loadingNextPage(_ results: SearchResults) -> String {
        "loading page \(results.query.page + 1)…"
    }

    /// The line for a search without matches.
    public static func empty(_ query: ProductQuery) -> String {
        "no products match \(describe(query))"
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
        return ["favourites: \(products.count)"] + products.map(productRow)
    }

    /// The basket under `title`: one line per product with quantity and subtotal, then the total.
    public static func basket(_ basket: Basket, title: String = "basket:") -> [String] {
        guard !basket.isEmpty else { return ["the basket is empty"] }
        return [title]
            + basket.items.map { item in
                "  " + ("#" + item.product.id).padding(4) + "  " + item.product.name.padding(24) + "  "
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
            "  " + row.currency.padding(10) + "  " + "\(row.price)".leftPadding(16) + "  " + row.direction.rawValue
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
                "  " + String(user.id).leftPadding(3) + "  " + user.name.padding(24) + "  "
                    + ("@" + user.username).padding(18) + "  " + user.email.padding(26) + "  " + user.address.city
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
}
