import Foundation
import Networking
import Testing

@testable import Features

@Suite struct ModelDecodingTests {
    private func rawRecords(_ data: BundledData) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: try data.data())
        return try #require(object as? [[String: Any]])
    }

    private func decode<T: Decodable>(_ type: T.Type, _ json: String) -> Result<T, NetworkError> {
        Result { () throws(NetworkError) in
            try ResponseDecoding.decode(T.self, from: Data(json.utf8), decoder: JSONDecoder())
        }
    }

    private func decodingPath<T>(_ result: Result<T, NetworkError>) -> String? {
        if case .failure(.decoding(let path, _)) = result { return path }
        return nil
    }

    @Test func everyBundledProductDecodesWithItsExactPriceIdAndDate() throws {
        let products: [Product] = try Fixtures.decodeBundled(.products)
        let raw = try rawRecords(.products)
        #expect(products.count == 74)
        #expect(products.count == raw.count)
        let dates = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        for (product, record) in zip(products, raw) {
            #expect(product.id == record["id"] as? String)
            #expect(product.name == record["name"] as? String)
            #expect(product.brand == record["brand"] as? String)
            #expect(product.model == record["model"] as? String)
            #expect(product.price == Decimal(string: try #require(record["price"] as? String)))
            #expect(product.createdAt == (try dates.parse(try #require(record["createdAt"] as? String))))
        }
        #expect(products.map(\.id) == (1...74).map(String.init))
    }

    @Test func theFirstProductReadsAsTheDataSays() throws {
        let first = try #require(Fixtures.products.first)
        #expect(first.name == "Bentley Focus")
        #expect(first.brand == "Lamborghini")
        #expect(first.model == "CTS")
        #expect(first.price == Decimal(51))
        #expect(first.createdAt == Date(timeIntervalSince1970: 1_689_578_462.529))
    }

    @Test func everyBundledCryptoCurrencyDecodesWithItsExactPrice() throws {
        let currencies: [CryptoCurrency] = try Fixtures.decodeBundled(.crypto)
        let raw = try rawRecords(.crypto)
        #expect(currencies.count == 2191)
        #expect(currencies.count == raw.count)
        for (currency, record) in zip(currencies, raw) {
            #expect(currency.currency == record["currency"] as? String)
            #expect(currency.price == Decimal(string: try #require(record["price"] as? String)))
        }
        #expect(currencies.first == CryptoCurrency(currency: "0XBTC", price: Decimal(string: "0.19788058")!))
    }

    @Test func everyBundledUserDecodesWithAddressGeoAndCompany() throws {
        let users: [User] = try Fixtures.decodeBundled(.users)
        let raw = try rawRecords(.users)
        #expect(users.count == 10)
        #expect(users.map(\.id) == Array(1...10))
        for (user, record) in zip(users, raw) {
            let address = try #require(record["address"] as? [String: Any])
            let geo = try #require(address["geo"] as? [String: Any])
            let company = try #require(record["company"] as? [String: Any])
            #expect(user.email == record["email"] as? String)
            #expect(user.address.city == address["city"] as? String)
            #expect(user.address.geo.latitude == Double(try #require(geo["lat"] as? String)))
            #expect(user.address.geo.longitude == Double(try #require(geo["lng"] as? String)))
            #expect(user.company.catchPhrase == company["catchPhrase"] as? String)
        }
        #expect(users[0].address.geo == Geo(latitude: -37.3159, longitude: 81.1496))
    }

    @Test func everyBundledProductAndCurrencyEncodesAndDecodesBackUnchanged() throws {
        let products = try JSONDecoder().decode([Product].self, from: JSONEncoder().encode(Fixtures.products))
        #expect(products == Fixtures.products)
        let raw = try rawRecords(.products)
        let written = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(Fixtures.products)) as? [[String: Any]])
        #expect(written.map { $0["createdAt"] as? String } == raw.map { $0["createdAt"] as? String })
        let crypto = try JSONDecoder().decode([CryptoCurrency].self, from: JSONEncoder().encode(Fixtures.crypto))
        #expect(crypto == Fixtures.crypto)
        let users = try JSONDecoder().decode([User].self, from: JSONEncoder().encode(Fixtures.users))
        #expect(users == Fixtures.users)
    }

    @Test func aProductEncodesToTheDataShapeAndDecodesBack() throws {
        let product = try #require(Fixtures.products.first)
        let data = try JSONEncoder().encode(product)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["price"] as? String == "51")
        #expect(object["id"] as? String == "1")
        #expect(object["createdAt"] as? String == "2023-07-17T07:21:02.529Z")
        #expect(try JSONDecoder().decode(Product.self, from: data) == product)
    }

    private func productJSON(price: String = "\"51.00\"", createdAt: String = "\"2023-07-17T07:21:02.529Z\"")
        -> String
    {
        """
        [{"id":"1","name":"Focus","brand":"Ford","model":"ST","price":\(price),"description":"","image":"",
        "createdAt":\(createdAt)}]
        """
    }

    @Test(arguments: ["\"abc\"", "\"1.2x\"", "\"12.3.4\"", "\"\"", "\".5\"", "\"5.\"", "\"1e3\""])
    func aProductPriceThatIsNotADecimalFailsNamingTheField(price: String) {
        let result = decode([Product].self, productJSON(price: price))
        #expect(decodingPath(result) == "[0].price")
        if case .failure(let error) = result {
            #expect(error.description.contains("is not a decimal number"))
        }
    }

    @Test func aNumericPriceAndANegativeTextPriceDecode() throws {
        #expect(try decode([Product].self, productJSON(price: "12.5")).get()[0].price == Decimal(string: "12.5"))
        #expect(try decode([Product].self, productJSON(price: "\"-3.25\"")).get()[0].price == Decimal(string: "-3.25"))
    }

    @Test(arguments: ["\"yesterday\"", "\"2023-13-45T99:00:00Z\"", "\"2023-07-17\"", "12"])
    func aProductDateThatIsNotISO8601FailsNamingTheField(date: String) {
        #expect(decodingPath(decode([Product].self, productJSON(createdAt: date))) == "[0].createdAt")
    }

    @Test func aMissingFieldFailsNamingIt() {
        let result = decode([Product].self, #"[{"id":"1","brand":"Ford"}]"#)
        #expect(decodingPath(result) == "[0].name")
    }

    @Test func malformedJSONFailsAsADecodingError() {
        #expect(decodingPath(decode([Product].self, "[{")) == "")
    }

    @Test func aCryptoPriceThatIsNotADecimalFailsNamingTheField() {
        let result = decode([CryptoCurrency].self, #"[{"currency":"A","price":"1"},{"currency":"B","price":"n/a"}]"#)
        #expect(decodingPath(result) == "[1].price")
    }

    @Test func aUserLatitudeThatIsNotANumberFailsNamingTheField() throws {
        var user = try JSONSerialization.jsonObject(with: try BundledData.users.data()) as? [[String: Any]] ?? []
        var address = try #require(user[0]["address"] as? [String: Any])
        address["geo"] = ["lat": "north", "lng": "1"]
        user[0]["address"] = address
        let json = String(decoding: try JSONSerialization.data(withJSONObject: [user[0]]), as: UTF8.self)
        #expect(decodingPath(decode([User].self, json)) == "[0].address.geo.lat")
    }
}
