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

    init(source: DataSource, clients: ClientFactory, store: FeatureStore, scheduler: any Scheduler) throws {
        let (client, baseURL) = try clients.connection(to: source)
        self.source = source
        search = ProductSearchViewModel(
            catalog: NetworkProductCatalog(client: client, baseURL: baseURL), store: store, scheduler: scheduler)
        counter = FetchCounterViewModel(client: client, baseURL: baseURL, store: store, scheduler: scheduler)
        prices = PriceListViewModel(client: client, baseURL: baseURL, scheduler: scheduler)
        users = UsersViewModel(client: client, baseURL: baseURL)
    }
}
