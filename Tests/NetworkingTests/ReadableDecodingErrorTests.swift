import Foundation
import Testing

@testable import Networking

/// Decoding failures read as sentences naming the field and the item in plain words — never a `CodingKeys`
/// dump, a Swift type name, an `NSCocoaErrorDomain` code, or "malformed response".
@Suite struct ReadableDecodingErrorTests {
    private struct Item: Decodable {
        var name: String
        var price: Double
        var tags: [String]
        var address: Address?
    }

    private struct Address: Decodable {
        var geo: Geo
    }

    private struct Geo: Decodable {
        var lat: Double
    }

    private func message(_ json: String) -> String {
        do {
            _ = try ResponseDecoding.decode([Item].self, from: Data(json.utf8), decoder: JSONDecoder())
            return "decoded"
        } catch {
            return error.description
        }
    }

    private func expectPlain(_ text: String) {
        for jargon in ["CodingKeys", "malformed", "NSCocoaErrorDomain", "Array<", "Swift.", "Dictionary<", "Item"] {
            #expect(!text.contains(jargon), "\(text)")
        }
    }

    @Test(arguments: [
        (
            #"[{"name":"a","price":1,"tags":[]},{"name":"b","tags":[]}]"#,
            #"the answer could not be read: the field "price" is missing in item 2"#
        ),
        (
            #"[{"name":"a","price":"x","tags":[]}]"#,
            #"the answer could not be read: the field "price" is not a number in item 1"#
        ),
        (
            #"[{"name":null,"price":1,"tags":[]}]"#,
            #"the answer could not be read: the field "name" is null, not text in item 1"#
        ),
        (
            #"[{"name":"a","price":1,"tags":"x"}]"#,
            #"the answer could not be read: the field "tags" is not a list in item 1"#
        ),
        (
            #"[{"name":"a","price":1,"tags":[],"address":{"geo":{"lat":"n"}}}]"#,
            #"the answer could not be read: the field "lat" is not a number in address.geo of item 1"#
        ),
        (#"{"name":"a"}"#, "the answer could not be read: the answer is not a list"),
    ])
    func decodingFailuresNameTheFieldAndTheItem(json: String, expected: String) {
        let text = message(json)
        #expect(text == expected)
        expectPlain(text)
    }

    @Test func brokenJSONAndAnEmptyBodyAreSentences() {
        let broken = message("[{")
        #expect(broken.hasPrefix("the answer could not be read: it is not valid JSON"))
        expectPlain(broken)
        #expect(message("") == "the answer could not be read: it is empty")
    }

    @Test func aBundledFileThatCannotBeReadIsNamedAsTheBundledFile() {
        let missing = NetworkError.transport(BundledDataMissing(name: "products")).description
        #expect(
            missing == "the bundled data file products.json is missing or unreadable; reinstall or rebuild streams-repl"
        )
        let invalid = NetworkError.transport(
            BundledDataInvalid(name: "products", problem: #"the field "price" is missing in item 4"#)
        ).description
        #expect(
            invalid
                == #"the bundled data file products.json is damaged (the field "price" is missing in item 4); "#
                + "reinstall or rebuild streams-repl")
        #expect(!invalid.contains("malformed") && !invalid.contains("transport error"))
    }
}
