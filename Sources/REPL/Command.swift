import Features
import Foundation

/// Where the REPL's view models get their data.
///
/// ```swift
/// let source: DataSource = options.server.map { .remote($0) } ?? .local
/// ```
public enum DataSource: Equatable, Sendable, CustomStringConvertible {
    /// The data bundled with the package, answered in process (no server).
    case local
    /// A server at this address.
    case remote(URL)

    /// `local`, or the server's address.
    public var description: String {
        switch self {
        case .local: "local"
        case .remote(let url): url.absoluteString
        }
    }
}

/// A REPL command (a line starting with `:`), parsed; see ``CommandHelp/all`` for what each does.
///
/// ```swift
/// try CommandParser.parse(":cart add 12 2")   // .command(.cart(.add(productID: "12", quantity: 2)))
/// ```
public enum Command: Equatable, Sendable {
    /// What `:fav` does.
    public enum FavouriteAction: Equatable, Sendable {
        /// Adds the product to the favourites.
        case add(productID: String)
        /// Removes the product from the favourites.
        case remove(productID: String)
    }

    /// What `:cart` does.
    public enum CartAction: Equatable, Sendable {
        /// Lists the basket with its total.
        case show
        /// Adds `quantity` units of the product.
        case add(productID: String, quantity: Int)
        /// Removes the product's line.
        case remove(productID: String)
        /// Sets the product's quantity (0 removes it).
        case setQuantity(productID: String, quantity: Int)
        /// Empties the basket, showing what was bought.
        case checkout
    }

    /// `:help [command]`: the commands, or one command's usage.
    case help(topic: String?)
    /// `:quit`: finish pending work and exit.
    case quit
    /// `:next`: the next page of results.
    case next
    /// `:retry`: search again after a failed search.
    case retry
    /// `:sort price|price-desc|newest|oldest|none`.
    case sort(ProductSort?)
    /// `:brand [NAME, …]`: keep only these brands (none: every brand).
    case brand(Set<String>)
    /// `:model [NAME, …]`: keep only these models (none: every model).
    case model(Set<String>)
    /// `:clear`: forget the search text, sort and filters (shows the whole catalogue).
    case clear
    /// `:fav [add|remove] ID`.
    case favourite(FavouriteAction)
    /// `:favs`: list the favourites.
    case favourites
    /// `:cart [show|add|remove|quantity|checkout]`.
    case cart(CartAction)
    /// `:fetch`: one `GET /status`, counted.
    case fetch
    /// `:count`: the fetch count.
    case count
    /// `:reset`: set the fetch count to 0.
    case reset
    /// `:refresh`: reload the price list and show it.
    case refresh
    /// `:prices [FILTER]`: show the price list (currencies containing FILTER).
    case prices(filter: String?)
    /// `:users`: load and show the users.
    case users
    /// `:source local|URL`: switch the data source.
    case source(DataSource)
    /// `:history`: the lines typed so far.
    case history
    /// `:trace on|off`: show the search pipeline's events as a marble timeline, or stop.
    case trace(Bool)
}

extension Command {
    /// Whether the command changes the search results shown (`:next`, `:retry`, `:sort`, `:brand`, `:model`,
    /// `:clear`, `:source`): in interactive mode its results are then printed into the scrollback.
    var changesTheResults: Bool {
        switch self {
        case .next, .retry, .sort, .brand, .model, .clear, .source: true
        default: false
        }
    }
}
