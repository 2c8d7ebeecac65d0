import Features
import Foundation
import Networking
import Streams

/// The view models of one data source: the search, the fetch counter, the price list and the users list,
/// sharing one client and one store. `:source` replaces the whole set.
final class ViewModelSet: Sendable {
    let source: DataSource
    let search: ProductSearchViewModel
    let counter: FetchCounterViewModel
    let prices: PriceListViewModel
    let users: UsersViewModel

    /// The view models of `source`; every request of theirs fails with a timeout after `requestTimeout`; the
    /// search records its pipeline into `trace` (if given).
    init(
        source: DataSource, clients: ClientFactory, store: FeatureStore, scheduler: any Scheduler,
        requestTimeout: Duration, trace: TraceLog? = nil
    ) throws {
        let (unlimited, baseURL) = try clients.connection(to: source)
        let client = TimeLimitedClient(unlimited, limit: requestTimeout, scheduler: scheduler)
        self.source = source
        let catalog: any ProductCatalog =
            if source == .local, let localCatalog = clients.localCatalog {
                try localCatalog()
            } else {
                NetworkProductCatalog(client: client, baseURL: baseURL)
            }
        search = ProductSearchViewModel(catalog: catalog, store: store, scheduler: scheduler, trace: trace)
        counter = FetchCounterViewModel(
            client: client, baseURL: baseURL, store: store, scheduler: scheduler, requestTimeout: requestTimeout)
        prices = PriceListViewModel(client: client, baseURL: baseURL, scheduler: scheduler)
        users = UsersViewModel(client: client, baseURL: baseURL)
    }
}
