import Networking
import Streams

/// A ``ProductCatalog`` served from products in memory: each page is computed from the model values, with no
/// request and no JSON in between. The local side of the one-line swap; the remote side is
/// ``NetworkProductCatalog``, which asks a server the same queries and gets the same pages (the server's
/// route uses the same ``ProductQuery/page(of:)``).
///
/// - Timing: publishes the page when subscribed, then finishes; with a latency, that much later on the
///   scheduler (cancelling before then publishes nothing).
/// - Errors: none per page. Reading the bundled catalogue can fail, once, in ``bundled()``.
/// - Threading: publishes on the subscribing thread, or on the scheduler when there is a latency.
///
/// ```swift
/// let catalog = try LocalProductCatalog.bundled()
/// let c = catalog.page(for: ProductQuery(search: "focus")).sink(receiveCompletion: { _ in }) { print($0) }
/// ```
public struct LocalProductCatalog: ProductCatalog {
    /// Every product, in catalogue order.
    public let products: [Product]
    private let delivery: (latency: Duration, scheduler: any Scheduler)?

    /// A catalog of `products`, answering at once.
    public init(products: [Product]) {
        self.products = products
        self.delivery = nil
    }

    /// A catalog of `products` whose pages arrive `latency` after the subscription, on `scheduler` (a
    /// `TestScheduler` in tests: a loading state you can see, on virtual time).
    public init(products: [Product], latency: Duration, scheduler: any Scheduler) {
        self.products = products
        self.delivery = (latency, scheduler)
    }

    /// The catalogue bundled with the app (the products the local client serves), answering at once; throws
    /// a `NetworkError` that says which file could not be read, and why.
    public static func bundled() throws(NetworkError) -> LocalProductCatalog {
        LocalProductCatalog(products: try ProductSearchRoute.bundled().catalogue)
    }

    /// Publishes `query`'s page of the products (computed when subscribed) and finishes.
    public func page(for query: ProductQuery) -> AnyPublisher<ProductPage, NetworkError> {
        let products = self.products
        let page = Deferred { Just(query.page(of: products)) }.setFailureType(to: NetworkError.self)
        guard let delivery else { return page.eraseToAnyPublisher() }
        return page.delay(for: delivery.latency, scheduler: delivery.scheduler).eraseToAnyPublisher()
    }
}
