import Foundation
import Networking
import Testing

@Suite struct ResponseDecodingTests {
    func decodingError<T: Decodable>(_ type: T.Type, _ json: String) -> (path: String, description: String)? {
        do {
            _ = try ResponseDecoding.decode(T.self, from: Data(json.utf8), decoder: JSONDecoder())
            return nil
        } catch {
            guard case .decoding(let path, let description) = error else { return nil }
            return (path, description)
        }
    }

    @Test func decodesEachBundledDataSet() throws {
        let products = try ResponseDecoding.decode(
            [Product].self, from: BundledData.products.data(), decoder: JSONDecoder())
        let crypto = try ResponseDecoding.decode([Crypto].self, from: BundledData.crypto.data(), decoder: JSONDecoder())
        let users = try ResponseDecoding.decode([User].self, from: BundledData.users.data(), decoder: JSONDecoder())
        #expect(products.count == 74)
        #expect(products.first == Product(id: "1", name: "Bentley Focus", price: "51.00", brand: "Lamborghini"))
        #expect(crypto.count == 2191)
        #expect(crypto.first == Crypto(currency: "0XBTC", price: "0.19788058"))
        #expect(users.count == 10)
        #expect(users.first?.username == "Bret")
        #expect(users.first?.address.geo.lat == "-37.3159")
    }

    @Test func reportsTheCodingPathOfATypeMismatch() {
        let error = decodingError([Crypto].self, #"[{"currency":"A","price":"1"},{"currency":"B","price":2}]"#)
        #expect(error?.path == "[1].price")
    }

    @Test func reportsTheCodingPathOfAMissingKeyIncludingTheKey() {
        let error = decodingError(
            [User].self, #"[{"id":1,"name":"n","username":"u","address":{"city":"c","geo":{"lat":"1"}}}]"#)
        #expect(error?.path == "[0].address.geo.lng")
    }

    @Test func reportsMalformedJSONWithAnEmptyPathAndADescription() {
        let error = decodingError([Crypto].self, #"[{"currency": "#)
        #expect(error?.path == "")
        #expect(error?.description.isEmpty == false)
    }

    @Test func reportsAnEmptyBodyForANonEmptyType() {
        let error = decodingError([Crypto].self, "")
        #expect(error?.description == "it is empty")
    }

    @Test func emptyResponseDecodesFromAnyBody() throws {
        #expect(
            try ResponseDecoding.decode(EmptyResponse.self, from: Data(), decoder: JSONDecoder()) == EmptyResponse())
        #expect(
            try ResponseDecoding.decode(EmptyResponse.self, from: Data("not json".utf8), decoder: JSONDecoder())
                == EmptyResponse())
    }

    @Test func usesTheInjectedDecoder() throws {
        struct Stamp: Decodable, Equatable { let createdAt: Date }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let json = #"{"createdAt":"1970-01-01T00:00:10Z"}"#
        let stamp = try ResponseDecoding.decode(Stamp.self, from: Data(json.utf8), decoder: decoder)
        #expect(stamp.createdAt == Date(timeIntervalSince1970: 10))
        #expect(decodingError(Stamp.self, json)?.path == "createdAt")
    }
}
