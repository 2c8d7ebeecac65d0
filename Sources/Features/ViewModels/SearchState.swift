/// What the product search shows.
///
/// ```swift
/// switch state {
/// case .results(let results): print(results.products.map(\.name), results.isLastPage)
/// case .hint(let text): print(text)
/// default: break
/// }
/// ```
public enum SearchState: Equatable, Sendable {
    /// Nothing searched yet.
    case idle
    /// The text is too short to search (1 character); the message says so.
    case hint(String)
    /// The first page of `query` is loading.
    case loading(ProductQuery)
    /// Pages of results are shown.
    case results(SearchResults)
    /// `query` matches no product.
    case empty(ProductQuery)
    /// The first page of `query` could not be loaded; `message` says why.
    case failed(query: ProductQuery, message: String)

    /// The hint shown for a 1-character text.
    public static let shortTextHint = "Type at least 2 characters to search"
}

/// The pages of results loaded so far for one search.
///
/// ```swift
/// if !results.isLastPage && !results.isLoadingNextPage { viewModel.loadNextPage() }
/// ```
public struct SearchResults: Equatable, Sendable {
    /// The search (its `page` is the last page loaded).
    public var query: ProductQuery
    /// The products of every page loaded, in order.
    public var products: [Product]
    /// How many products match in all, when the server says.
    public var totalCount: Int?
    /// Whether the last page is loaded.
    public var isLastPage: Bool
    /// Whether the next page is loading.
    public var isLoadingNextPage: Bool
    /// Why loading the next page failed, if it did (``ProductSearchViewModel/loadNextPage()`` tries again).
    public var nextPageError: String?

    /// Creates results.
    public init(
        query: ProductQuery, products: [Product], totalCount: Int?, isLastPage: Bool,
        isLoadingNextPage: Bool = false, nextPageError: String? = nil
    ) {
        self.query = query
        self.products = products
        self.totalCount = totalCount
        self.isLastPage = isLastPage
        self.isLoadingNextPage = isLoadingNextPage
        self.nextPageError = nextPageError
    }

    /// How many pages are loaded.
    public var loadedPages: Int { query.page }
}
