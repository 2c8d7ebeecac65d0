import Features
import Foundation
import Streams

extension Session {
    /// Runs `command` (the session has settled): prints its answer now, or marks the answer awaited.
    func execute(_ command: Command) {
        if command.changesTheResults { printSearchFromNow() }
        switch command {
        case .help(let topic):
            emit(help(topic).map { .output($0) })
        case .quit:
            quitCommand()
        case .next:
            nextPage()
        case .retry:
            retry()
        case .sort(let sort):
            withState { $0.sort = sort }
            emit([.output("sorting by \(Renderer.describe(sort))")])
            currentViewModels.search.sort(by: sort)
        case .brand(let brands):
            let models = withState { state in
                state.brands = brands
                return state.models
            }
            emit([.output(brands.isEmpty ? "every brand" : "brand " + brands.sorted().joined(separator: ", "))])
            currentViewModels.search.filter(brands: brands, models: models)
        case .model(let models):
            let brands = withState { state in
                state.models = models
                return state.brands
            }
            emit([.output(models.isEmpty ? "every model" : "model " + models.sorted().joined(separator: ", "))])
            currentViewModels.search.filter(brands: brands, models: models)
        case .clear:
            clear()
        case .favourite(let action):
            favourite(action)
        case .favourites:
            emit(Renderer.favourites(featureStore.snapshot.favourites).map { .output($0) })
        case .cart(let action):
            cart(action)
        case .fetch:
            awaitAnswer(to: ":fetch", \.awaitingFetch)
            currentViewModels.counter.fetch()
        case .count:
            let count = currentViewModels.counter.state.currentValue?.count ?? featureStore.snapshot.fetchCount
            emit([.output(Renderer.count(count))])
        case .reset:
            currentViewModels.counter.reset()
            let count = featureStore.snapshot.fetchCount
            emit([count == 0 ? .output("count reset to 0") : .error("could not reset the count (still \(count))")])
        case .refresh:
            showPrices(filter: withState { $0.pricesFilter }, reload: true)
        case .prices(let filter):
            showPrices(filter: filter, reload: false)
        case .users:
            showUsers()
        case .source(let source):
            switchSource(to: source)
        case .history:
            let history = withState { $0.history.dropLast() }
            emit(
                history.isEmpty
                    ? [.output("no history yet")]
                    : history.enumerated().map { .output(String($0.offset + 1).leftPadding(4) + "  " + $0.element) })
        case .trace(let on):
            setTracing(on)
        }
    }

    private func help(_ topic: String?) -> [String] {
        guard let topic, let help = CommandHelp.named(topic) else { return CommandHelp.listing }
        return help.explanation
    }

    // MARK: Search

    private func nextPage() {
        guard case .results(let results) = withState({ $0.search }) else {
            emit([.error("no results to page through (type a search first)")])
            return
        }
        guard !results.isLastPage else {
            emit([.error(Renderer.noMoreResults(results))])
            return
        }
        currentViewModels.search.loadNextPage()
    }

    private func retry() {
        guard case .failed = withState({ $0.search }) else {
            emit([.error("nothing to retry: the last search did not fail")])
            return
        }
        currentViewModels.search.retry()
    }

    private func clear() {
        withState { state in
            state.typedText = ""
            state.sort = nil
            state.brands = []
            state.models = []
        }
        emit([.output("cleared the search, sort and filters")])
        let search = currentViewModels.search
        search.search("")
        search.sort(by: nil)
        search.filter(brands: [], models: [])
    }

    // MARK: Favourites and basket

    /// The product with `id` among the results shown, the favourites or the basket.
    private func product(_ id: String) -> Product? {
        let id = id.hasPrefix("#") ? String(id.dropFirst()) : id
        if case .results(let results) = withState({ $0.search }),
            let product = results.products.first(where: {
                $0.id == id
            })
        {
            return product
        }
        let snapshot = featureStore.snapshot
        return snapshot.favourites.first { $0.id == id }
            ?? snapshot.basket.items.first { $0.product.id == id }?.product
    }

    private func unknownProduct(_ id: String) -> OutputLine {
        let id = id.hasPrefix("#") ? String(id.dropFirst()) : id
        return .error(
            "no product with id \(id) in the results, the favourites or the basket (search for it first, or check "
                + "the id)")
    }

    /// The line for a store error while changing `what`: a refused change (a quantity out of range, say) as
    /// it is, a file problem as "could not save the basket: …".
    private func storeFailure(_ error: any Error, saving what: String) -> OutputLine {
        switch error as? FeatureStoreError {
        case .invalidQuantity, .quantityTooLarge, .notInBasket: .error("\(error)")
        default: .error("could not save \(what): \(error)")
        }
    }

    private func favourite(_ action: Command.FavouriteAction) {
        let search = currentViewModels.search
        do {
            switch action {
            case .add(let id):
                guard let product = product(id) else { return emit([unknownProduct(id)]) }
                if featureStore.snapshot.favourites.contains(where: { $0.id == product.id }) {
                    return emit([.output("#\(product.id) \(product.name) is already a favourite")])
                }
                try search.addFavourite(product)
                let count = featureStore.snapshot.favourites.count
                emit([.output("added #\(product.id) \(product.name) to the favourites (\(count) in all)")])
            case .remove(let id):
                let id = id.hasPrefix("#") ? String(id.dropFirst()) : id
                guard let product = featureStore.snapshot.favourites.first(where: { $0.id == id }) else {
                    return emit([.error("product \(id) is not a favourite (:favs lists them)")])
                }
                try search.removeFavourite(productID: product.id)
                emit([.output("removed #\(product.id) \(product.name) from the favourites")])
            }
        } catch {
            emit([storeFailure(error, saving: "the favourites")])
        }
    }

    private func cart(_ action: Command.CartAction) {
        let search = currentViewModels.search
        do {
            switch action {
            case .show:
                emit(Renderer.basket(featureStore.snapshot.basket).map { .output($0) })
            case .add(let id, let quantity):
                guard let product = product(id) else { return emit([unknownProduct(id)]) }
                try search.addToBasket(product, quantity: quantity)
                emit([.output("added \(quantity) × #\(product.id) \(product.name); \(basketTotal())")])
            case .remove(let id):
                guard let item = basketItem(id) else { return emit([notInBasket(id)]) }
                try search.removeFromBasket(productID: item.product.id)
                emit([.output("removed #\(item.product.id) \(item.product.name); \(basketTotal())")])
            case .setQuantity(let id, let quantity):
                guard let item = basketItem(id) else { return emit([notInBasket(id)]) }
                try search.setQuantity(quantity, forProductID: item.product.id)
                emit([.output("#\(item.product.id) \(item.product.name): quantity \(quantity); \(basketTotal())")])
            case .checkout:
                guard !featureStore.snapshot.basket.isEmpty else {
                    return emit([.error("the basket is empty: nothing to check out")])
                }
                let bought = try search.checkout()
                emit(Renderer.basket(bought, title: "checked out:").map { .output($0) })
            }
        } catch {
            emit([storeFailure(error, saving: "the basket")])
        }
    }

    private func basketItem(_ id: String) -> BasketItem? {
        let id = id.hasPrefix("#") ? String(id.dropFirst()) : id
        return featureStore.snapshot.basket.items.first { $0.product.id == id }
    }

    private func notInBasket(_ id: String) -> OutputLine {
        .error(
            "product \(id.hasPrefix("#") ? String(id.dropFirst()) : id) is not in the basket (:cart lists what is "
                + "in it)")
    }

    private func basketTotal() -> String {
        "basket " + Renderer.basketTotal(featureStore.snapshot.basket)
    }

    // MARK: Prices and users

    private func showPrices(filter: String?, reload: Bool) {
        let set = currentViewModels
        withState { $0.pricesFilter = filter }
        // Loaded already (subscribed): the list as it is now, read from the stream (which replays it).
        if !reload, isSubscribedToPrices, let current = set.prices.state.currentValue, !current.isRefreshing {
            emit(withState { $0.pricesLines(current) })
            return
        }
        awaitAnswer(to: reload ? ":refresh" : ":prices", \.awaitingPrices)
        if !subscribeToPrices(of: set), reload { set.prices.refresh() }
    }

    private func showUsers() {
        let set = currentViewModels
        awaitAnswer(to: ":users", \.awaitingUsers)
        if !subscribeToUsers(of: set) { set.users.reload() }
    }

    // MARK: Source

    private func switchSource(to source: DataSource) {
        let set: ViewModelSet
        do {
            set = try ViewModelSet(
                source: source, clients: clientFactory, store: featureStore, scheduler: sessionScheduler,
                requestTimeout: requestTimeout, trace: searchTrace)
        } catch {
            emit([.error("could not use \(source): \(error) (still using \(currentViewModels.source))")])
            return
        }
        let (text, sort, brands, models) = withState { state in
            state.search = .idle
            state.printedResults = nil
            return (state.typedText, state.sort, state.brands, state.models)
        }
        replaceViewModels(with: set)
        emit([.output("source: \(source)")])
        set.search.sort(by: sort)
        set.search.filter(brands: brands, models: models)
        if let text { set.search.search(text) }
    }
}
