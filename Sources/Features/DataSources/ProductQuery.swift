import Foundation
import Networking

/// How a product search orders its results.
///
/// On the wire: `sortBy=price&order=asc|desc`, `sortBy=createdAt&order=desc|asc` (see ``ProductQuery``).
///
/// ```swift
/// let cheapestFirst = ProductQuery(search: "car", sort: .priceAscending)
/// ```
public enum ProductSort: String, Sendable, CaseIterable, Hashable {
    /// Cheapest first.
    case priceAscending
    /// Most expensive first.
    case priceDescending
    /// Most recently created first.
    case newest
    /// Least recently created first.
    case oldest

    /// The `sortBy` parameter: `price` or `createdAt`.
    public var sortBy: String {
        switch self {
        case .priceAscending, .priceDescending: "price"
        case .newest, .oldest: "createdAt"
        }
    }

    /// The `order` parameter: `asc` or `desc`.
    public var order: String {
        switch self {
        case .priceAscending, .oldest: "asc"
        case .priceDescending, .newest: "desc"
        }
    }

    /// The sort named by `sortBy` (`price`, `createdAt`) and `order` (`asc`, the default, or `desc`),
    /// or `nil` when either is not one of those.
    public init?(sortBy: String, order: String?) {
        let descending: Bool
        switch order?.lowercased() {
        case nil, "asc": descending = false
        case "desc": descending = true
        default: return nil
        }
        switch sortBy.lowercased() {
        case "price": self = descending ? .priceDescending : .priceAscending
        case "createdat": self = descending ? .newest : .oldest
        default: return nil
        }
    }
}

/// One page of a product search: the text, the filters, the order and the page. Pure logic, no I/O.
///
/// - Matching: the search text, trimmed, must occur in the name, brand or model, ignoring case and
///   diacritics; an empty text matches every product. Descriptions are not searched (they are lorem ipsum,
///   where any two letters match).
/// - Filters: when `brands` is not empty a product's brand must be one of them; the same for `models`; both
///   apply together. Names compare ignoring case.
/// - Order: `sort`, with ties (and `nil`) in catalogue order.
/// - Pages: numbered from 1, `limit` products each.
///
/// ```swift
/// let query = ProductQuery(search: "focus", brands: ["Ford"], sort: .priceAscending, page: 1, limit: 4)
/// let page = query.page(of: catalogue)   // the 4 cheapest matches and the total count
/// ```
public struct ProductQuery: Equatable, Hashable, Sendable {
    /// The search text (trimmed when matching).
    public var search: String
    /// The brands to keep (empty: every brand).
    public var brands: Set<String>
    /// The models to keep (empty: every model).
    public var models: Set<String>
    /// The order, or `nil` for catalogue order.
    public var sort: ProductSort?
    /// The page number, from 1.
    public var page: Int
    /// How many products a page holds.
    public var limit: Int

    /// A query; by default the first page of 4 of the whole catalogue.
    public init(
        search: String = "", brands: Set<String> = [], models: Set<String> = [], sort: ProductSort? = nil,
        page: Int = 1, limit: Int = 4
    ) {
        self.search = search
        self.brands = brands
        self.models = models
        self.sort = sort
        self.page = page
        self.limit = limit
    }

    /// Whether `product` matches the search text and the filters.
    public func matches(_ product: Product) -> Bool {
        let text = search.trimmingCharacters(in: .whitespacesAndNewlines)
        let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
        let textMatches =
            text.isEmpty
            || [product.name, product.brand, product.model].contains { $0.range(of: text, options: options) != nil }
        return textMatches && Self.keeps(product.brand, in: brands) && Self.keeps(product.model, in: models)
    }

    /// The products that match, in this query's order (every page, not just `page`).
    public func matchingProducts(in catalogue: [Product]) -> [Product] {
        let found = catalogue.enumerated().filter { self.matches($0.element) }
        guard let sort else { return found.map(\.element) }
        return found.sorted { lhs, rhs in
            let (a, b) = (lhs.element, rhs.element)
            switch sort {
            case .priceAscending where a.price != b.price: return a.price < b.price
            case .priceDescending where a.price != b.price: return a.price > b.price
            case .newest where a.createdAt != b.createdAt: return a.createdAt > b.createdAt
            case .oldest where a.createdAt != b.createdAt: return a.createdAt < b.createdAt
            default: return lhs.offset < rhs.offset
            }
        }.map(\.element)
    }

    /// This query's page of `catalogue`, with the total number of matches. A page past the end is empty.
    /// A `page` or `limit` below 1 counts as 1.
    public func page(of catalogue: [Product]) -> ProductPage {
        let matches = matchingProducts(in: catalogue)
        let page = max(page, 1)
        let limit = max(limit, 1)
        let (offset, overflow) = (page - 1).multipliedReportingOverflow(by: limit)
        let start = overflow ? matches.count : min(offset, matches.count)
        let end = start + min(limit, matches.count - start)
        return ProductPage(products: Array(matches[start..<end]), page: page, limit: limit, totalCount: matches.count)
    }

    /// The query-string parameters of the search endpoint:
    /// - `page`, `limit`: always;
    /// - `search`: the trimmed text, when not empty;
    /// - `sortBy` (`price` | `createdAt`) and `order` (`asc` | `desc`): when `sort` is set;
    /// - `brand`, `model`: the filter's names, sorted and joined with commas, when not empty.
    public var queryParameters: [String: ParameterValue] {
        var parameters: [String: ParameterValue] = ["page": .int(page), "limit": .int(limit)]
        let text = search.trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.isEmpty { parameters["search"] = .string(text) }
        if let sort {
            parameters["sortBy"] = .string(sort.sortBy)
            parameters["order"] = .string(sort.order)
        }
        if !brands.isEmpty { parameters["brand"] = .string(brands.sorted().joined(separator: ",")) }
        if !models.isEmpty { parameters["model"] = .string(models.sorted().joined(separator: ",")) }
        return parameters
    }

    private static func keeps(_ name: String, in names: Set<String>) -> Bool {
        names.isEmpty || names.contains { $0.caseInsensitiveCompare(name) == .orderedSame }
    }
}

/// One page of search results and how it relates to the whole result.
///
/// The last page is detected from the total when it is known (`page * limit >= totalCount`), otherwise
/// from a short page (`products.count < limit`).
///
/// ```swift
/// let page = ProductQuery(page: 19, limit: 4).page(of: catalogue)   // 74 products
/// page.isLastPage   // true
/// ```
public struct ProductPage: Equatable, Sendable {
    /// The products of this page, in order.
    public var products: [Product]
    /// The page number, from 1.
    public var page: Int
    /// The page size asked for.
    public var limit: Int
    /// How many products match in all pages, when the server says (`X-Total-Count`).
    public var totalCount: Int?

    /// Creates a page.
    public init(products: [Product], page: Int, limit: Int, totalCount: Int?) {
        self.products = products
        self.page = page
        self.limit = limit
        self.totalCount = totalCount
    }

    /// Whether no page follows this one.
    public var isLastPage: Bool {
        if let totalCount {
            let (shown, overflow) = page.multipliedReportingOverflow(by: limit)
            return overflow || shown >= totalCount
        }
        return products.count < limit
    }
}
