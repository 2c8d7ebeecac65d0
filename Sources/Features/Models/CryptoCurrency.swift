import Foundation

/// A crypto currency and its price (`crypto.json`, or the remote `/crypto` endpoint).
///
/// The data writes the price as a decimal string ("0.19788058"); this type exposes a `Decimal`, so no
/// digit is lost. A price that is not exactly a decimal number fails decoding with the field in the path.
///
/// ```swift
/// let prices = try JSONDecoder().decode([CryptoCurrency].self, from: BundledData.crypto.data())
/// ```
public struct CryptoCurrency: Codable, Equatable, Hashable, Sendable {
    /// The currency's ticker, e.g. "BTC".
    public var currency: String
    /// The price.
    public var price: Decimal

    /// Creates a currency with its price.
    ///
    /// ```swift
    /// let coin = CryptoCurrency(currency: "BTC", price: 21_143)
    /// ```
    public init(currency: String, price: Decimal) {
        self.currency = currency
        self.price = price
    }

    private enum CodingKeys: String, CodingKey { case currency, price }

    /// Decodes `currency` and a `price` written as a decimal string (or a number).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        currency = try container.decode(String.self, forKey: .currency)
        price = try FieldParsing.decodeDecimal(.price, in: container)
    }

    /// Encodes the data's shape: the price as a decimal string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(currency, forKey: .currency)
        try container.encode(price.description, forKey: .price)
    }
}
