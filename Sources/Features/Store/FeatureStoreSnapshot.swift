import Foundation

/// Everything the persistent store holds: the fetch count, the favourites and the basket.
///
/// Written as one small JSON file by ``FeatureStore``:
/// `{"version": 1, "fetchCount": 3, "favourites": [product…],`
/// `"basket": {"items": [{"product": …, "quantity": 2}]}}`.
///
/// ```swift
/// let snapshot = store.snapshot
/// print(snapshot.fetchCount, snapshot.basket.total)
/// ```
public struct FeatureStoreSnapshot: Codable, Equatable, Sendable {
    /// The file format's version this code writes.
    public static let currentVersion = 1

    /// The file format's version.
    public var version: Int
    /// How many fetches completed since the last reset.
    public var fetchCount: Int
    /// The favourite products, in the order they were added.
    public var favourites: [Product]
    /// The basket.
    public var basket: Basket

    /// An empty store: no fetches, no favourites, an empty basket.
    public static let empty = FeatureStoreSnapshot(
        version: currentVersion, fetchCount: 0, favourites: [], basket: Basket())

    /// Creates a snapshot.
    public init(version: Int, fetchCount: Int, favourites: [Product], basket: Basket) {
        self.version = version
        self.fetchCount = fetchCount
        self.favourites = favourites
        self.basket = basket
    }
}

/// The products a user means to buy, with quantities, in the order they were first added.
///
/// ```swift
/// var basket = Basket()
/// basket.add(product, quantity: 2)
/// basket.total   // 2 × product.price
/// ```
public struct Basket: Codable, Equatable, Sendable {
    /// The lines of the basket; every quantity is at least 1.
    public var items: [BasketItem]

    /// A basket with `items` (empty by default).
    public init(items: [BasketItem] = []) {
        self.items = items
    }

    /// The sum of every line's price times quantity.
    public var total: Decimal {
        items.reduce(Decimal(0)) { $0 + $1.subtotal }
    }

    /// How many units the basket holds in all (`Int.max` if the sum would exceed it).
    public var itemCount: Int {
        items.reduce(0) { count, item in
            let (sum, overflow) = count.addingReportingOverflow(item.quantity)
            return overflow ? Int.max : sum
        }
    }

    /// Whether the basket holds nothing.
    public var isEmpty: Bool { items.isEmpty }

    /// The quantity of the product with `productID` (0 when absent).
    public func quantity(ofProductID productID: String) -> Int {
        items.first { $0.product.id == productID }?.quantity ?? 0
    }

    /// Adds `quantity` units of `product` (to its line if it has one). A quantity below 1, or one that would
    /// take the line past `Int.max`, changes nothing.
    public mutating func add(_ product: Product, quantity: Int = 1) {
        guard quantity >= 1 else { return }
        if let index = items.firstIndex(where: { $0.product.id == product.id }) {
            let (sum, overflow) = items[index].quantity.addingReportingOverflow(quantity)
            if !overflow { items[index].quantity = sum }
        } else {
            items.append(BasketItem(product: product, quantity: quantity))
        }
    }

    /// Sets the quantity of the product with `productID`; 0 removes its line. Returns `false` when the
    /// product is not in the basket or the quantity is negative (nothing changes then).
    @discardableResult
    public mutating func setQuantity(_ quantity: Int, forProductID productID: String) -> Bool {
        guard quantity >= 0, let index = items.firstIndex(where: { $0.product.id == productID }) else {
            return false
        }
        if quantity == 0 {
            items.remove(at: index)
        } else {
            items[index].quantity = quantity
        }
        return true
    }
}

/// One line of a ``Basket``: a product and how many of it.
///
/// ```swift
/// let line = BasketItem(product: product, quantity: 3)
/// line.subtotal   // 3 × product.price
/// ```
public struct BasketItem: Codable, Equatable, Sendable {
    /// The product (as it was when added: its price is the one charged).
    public var product: Product
    /// How many units, at least 1.
    public var quantity: Int

    /// A line of `quantity` units of `product`.
    public init(product: Product, quantity: Int) {
        self.product = product
        self.quantity = quantity
    }

    /// The price times the quantity.
    public var subtotal: Decimal { product.price * Decimal(quantity) }
}
