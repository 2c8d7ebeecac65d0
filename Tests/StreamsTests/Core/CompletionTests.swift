import Foundation
import Streams
import Testing

/// `Subscribers.Completion` (Sources/Streams/Core/Completion.swift): equality, `mapError`, and Combine's encoding
/// (`{"success": true}`, or `{"success": false, "error": …}`).
@Suite struct CompletionTests {
    struct Failure: Error, Codable, Equatable { var code: Int }
    struct Described: Error, Equatable { var text: String }

    private func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func encodesAsCombineDoes() throws {
        #expect(try json(Subscribers.Completion<Failure>.finished) == #"{"success":true}"#)
        #expect(
            try json(Subscribers.Completion<Failure>.failure(Failure(code: 7)))
                == #"{"error":{"code":7},"success":false}"#)
        #expect(try json(Subscribers.Completion<Never>.finished) == #"{"success":true}"#)
    }

    @Test func decodesWhatItEncodesAndRefusesAFailureWithoutItsError() throws {
        let decoder = JSONDecoder()
        for completion in [Subscribers.Completion<Failure>.finished, .failure(Failure(code: 3))] {
            let data = try JSONEncoder().encode(completion)
            #expect(try decoder.decode(Subscribers.Completion<Failure>.self, from: data) == completion)
        }
        #expect(throws: DecodingError.self) {
            try decoder.decode(Subscribers.Completion<Failure>.self, from: Data(#"{"success":false}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try decoder.decode(Subscribers.Completion<Failure>.self, from: Data(#"{"error":{"code":1}}"#.utf8))
        }
    }

    @Test func mapErrorTransformsOnlyAFailure() {
        let failed = Subscribers.Completion<Failure>.failure(Failure(code: 2)).mapError {
            Described(text: "code \($0.code)")
        }
        #expect(failed == .failure(Described(text: "code 2")))
        #expect(Subscribers.Completion<Failure>.finished.mapError { _ in Described(text: "never") } == .finished)
    }
}
