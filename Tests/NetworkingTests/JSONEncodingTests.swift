import Foundation
import Networking
import Testing

@Suite struct JSONEncodingTests {
    @Test func encodesParametersAsAJSONObjectWithSortedKeys() throws {
        let data = try JSONEncoding.encode(["name": "Ada", "admin": true, "age": 36, "tags": ["a", "b"], "x": 1.5])
        #expect(
            String(decoding: data, as: UTF8.self) == #"{"admin":true,"age":36,"name":"Ada","tags":["a","b"],"x":1.5}"#)
    }

    @Test func encodesAnEncodableValue() throws {
        struct Body: Encodable, Sendable {
            let id: Int
            let title: String
        }
        let data = try JSONEncoding.encode(value: Body(id: 1, title: "hi"))
        #expect(String(decoding: data, as: UTF8.self) == #"{"id":1,"title":"hi"}"#)
    }

    @Test func reportsAValueThatCannotBeEncodedAsATransportErrorWithContext() {
        #expect {
            try JSONEncoding.encode(["x": .double(.nan)])
        } throws: { error in
            guard case .transport(let underlying) = error as? NetworkError else { return false }
            return underlying is RequestBodyEncodingError
        }
    }
}
