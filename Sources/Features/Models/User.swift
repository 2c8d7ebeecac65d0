import Foundation

/// A user of the JSONPlaceholder data set (`users.json`, or the remote `/users` endpoint).
///
/// ```swift
/// let users = try JSONDecoder().decode([User].self, from: BundledData.users.data())
/// users[0].address.geo.latitude   // -37.3159
/// ```
public struct User: Codable, Equatable, Hashable, Sendable, Identifiable {
    /// The user's identifier (1 … 10 in the bundled data).
    public var id: Int
    /// The full name, e.g. "Leanne Graham".
    public var name: String
    /// The login name, e.g. "Bret".
    public var username: String
    /// The e-mail address.
    public var email: String
    /// The postal address.
    public var address: Address
    /// The phone number, as written.
    public var phone: String
    /// The web site's host name.
    public var website: String
    /// The employer.
    public var company: Company

    /// Creates a user.
    ///
    /// ```swift
    /// let user = User(id: 1, name: "Ada", username: "ada", email: "ada@example.com", address: address,
    ///                 phone: "", website: "", company: company)
    /// ```
    public init(
        id: Int, name: String, username: String, email: String, address: Address, phone: String,
        website: String, company: Company
    ) {
        self.id = id
        self.name = name
        self.username = username
        self.email = email
        self.address = address
        self.phone = phone
        self.website = website
        self.company = company
    }
}

/// A user's postal address.
///
/// ```swift
/// let address = Address(street: "Kulas Light", suite: "Apt. 556", city: "Gwenborough",
///                       zipcode: "92998-3874", geo: Geo(latitude: -37.3159, longitude: 81.1496))
/// ```
public struct Address: Codable, Equatable, Hashable, Sendable {
    /// The street.
    public var street: String
    /// The apartment or suite.
    public var suite: String
    /// The city.
    public var city: String
    /// The postal code, as written.
    public var zipcode: String
    /// The coordinates.
    public var geo: Geo

    /// Creates an address.
    public init(street: String, suite: String, city: String, zipcode: String, geo: Geo) {
        self.street = street
        self.suite = suite
        self.city = city
        self.zipcode = zipcode
        self.geo = geo
    }
}

/// Coordinates in degrees. The data writes them as strings (`"lat": "-37.3159"`); a string that is not a
/// number fails decoding with the field in the path.
///
/// ```swift
/// let geo = Geo(latitude: -37.3159, longitude: 81.1496)
/// ```
public struct Geo: Codable, Equatable, Hashable, Sendable {
    /// The latitude in degrees.
    public var latitude: Double
    /// The longitude in degrees.
    public var longitude: Double

    /// Creates coordinates.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    private enum CodingKeys: String, CodingKey {
        case latitude = "lat"
        case longitude = "lng"
    }

    /// Decodes `lat` and `lng` written as strings (or numbers).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        latitude = try Self.decodeDegrees(.latitude, in: container)
        longitude = try Self.decodeDegrees(.longitude, in: container)
    }

    /// Encodes the data's shape: `lat` and `lng` as strings.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(String(latitude), forKey: .latitude)
        try container.encode(String(longitude), forKey: .longitude)
    }

    private static func decodeDegrees(_ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>) throws
        -> Double
    {
        if let text = try? container.decode(String.self, forKey: key) {
            guard let value = Double(text), value.isFinite else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "\"\(text)\" is not a number of degrees")
            }
            return value
        }
        return try container.decode(Double.self, forKey: key)
    }
}

/// A user's employer.
///
/// ```swift
/// let company = Company(name: "Romaguera-Crona", catchPhrase: "Multi-layered", bs: "harness e-markets")
/// ```
public struct Company: Codable, Equatable, Hashable, Sendable {
    /// The company's name.
    public var name: String
    /// Its slogan.
    public var catchPhrase: String
    /// What it does, in buzzwords (the data's `bs` field).
    public var bs: String

    /// Creates a company.
    public init(name: String, catchPhrase: String, bs: String) {
        self.name = name
        self.catchPhrase = catchPhrase
        self.bs = bs
    }
}
