import Foundation

/// A product of the catalogue (`products.json`, or the remote `/products` endpoint).
///
/// The data writes `id` and `price` as strings and `createdAt` as ISO 8601 with milliseconds; this type
/// exposes a `Decimal` price and a `Date`. Decoding rejects a price that is not exactly a decimal number and
/// a date that is not ISO 8601, with the field in the error's coding path. Encoding writes the same shape
/// back (strings for `id` and `price`), so a route can serve products it decoded.
///
/// ```swift
/// let products = try JSONDecoder().decode([Product].self, from: BundledData.products.data())
/// products[0].price   // 51
/// ```
public struct Product: Codable, Equatable, Hashable, Sendable, Identifiable {
    /// The product's identifier ("1" … "74" in the bundled data).
    public var id: String
    /// The product's name, e.g. "Bentley Focus".
    public var name: String
    /// The brand, e.g. "Lamborghini".
    public var brand: String
    /// The model, e.g. "CTS".
    public var model: String
    /// The unit price.
    public var price: Decimal
    /// A free-text description.
    public var description: String
    /// The address of the product's picture.
    public var image: String
    /// When the product was added to the catalogue.
    public var createdAt: Date

    /// Creates a product.
    ///
    /// ```swift
    /// let car = Product(id: "1", name: "Focus", brand: "Ford", model: "ST", price: 51,
    ///                   description: "", image: "", createdAt: Date(timeIntervalSince1970: 0))
    /// ```
    public init(
        id: String, name: String, brand: String, model: String, price: Decimal, description: String,
        image: String, createdAt: Date
    ) {
        self.id = id
        self.name = name
        self.brand = brand
        self.model = model
        self.price = price
        self.description = description
        self.image = image
        self.createdAt = createdAt
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, brand, model, price, description, image, createdAt
    }

    /// Decodes a product: `id` as a string (or an integer), `price` as a decimal string (or a number),
    /// `createdAt` as ISO 8601. A malformed field throws `DecodingError.dataCorrupted` naming it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let text = try? container.decode(String.self, forKey: .id) {
            id = text
        } else {
            id = String(try container.decode(Int.self, forKey: .id))
        }
        name = try container.decode(String.self, forKey: .name)
        brand = try container.decode(String.self, forKey: .brand)
        model = try container.decode(String.self, forKey: .model)
        price = try FieldParsing.decodeDecimal(.price, in: container)
        description = try container.decode(String.self, forKey: .description)
        image = try container.decode(String.self, forKey: .image)
        let dateText = try container.decode(String.self, forKey: .createdAt)
        guard let date = FieldParsing.date(dateText) else {
            throw DecodingError.dataCorruptedError(
                forKey: .createdAt, in: container, debugDescription: "\"\(dateText)\" is not an ISO 8601 date")
        }
        createdAt = date
    }

    /// Encodes the data's shape: `id` and `price` as strings, `createdAt` as ISO 8601 with milliseconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(brand, forKey: .brand)
        try container.encode(model, forKey: .model)
        try container.encode(price.description, forKey: .price)
        try container.encode(description, forKey: .description)
        try container.encode(image, forKey: .image)
        try container.encode(FieldParsing.text(for: createdAt), forKey: .createdAt)
    }
}
