import Foundation

/// Encodes request bodies as JSON: parameters as a JSON object, or any `Encodable` value.
///
/// A body that cannot be encoded (a non-finite double, a throwing `encode(to:)`) fails with
/// `NetworkError.transport(RequestBodyEncodingError)`: the request is never sent.
///
/// ```swift
/// let body = try JSONEncoding.encode(["name": "Ada", "admin": true])   // {"admin":true,"name":"Ada"}
/// ```
public enum JSONEncoding {
    /// A JSON encoder with sorted keys, so bodies are deterministic.
    public static func defaultEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    /// The parameters as one JSON object: strings, numbers, booleans and arrays as their JSON counterparts.
    public static func encode(
        _ parameters: [String: ParameterValue], encoder: JSONEncoder = defaultEncoder()
    ) throws(NetworkError) -> Data {
        try encode(value: parameters, encoder: encoder)
    }

    /// Any `Encodable` value, encoded by `encoder`.
    public static func encode(
        value: any Encodable, encoder: JSONEncoder = defaultEncoder()
    ) throws(NetworkError) -> Data {
        do {
            return try encoder.encode(value)
        } catch {
            throw .transport(RequestBodyEncodingError(description: String(describing: error)))
        }
    }
}

/// The error inside `NetworkError.transport` when a request body cannot be encoded; the request is not sent.
public struct RequestBodyEncodingError: Error, Sendable, CustomStringConvertible {
    /// What the encoder reported.
    public let description: String
}

extension ParameterValue: Encodable {
    /// Encodes the value as its JSON counterpart: a string, a number, a boolean or an array.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .int(let number): try container.encode(number)
        case .double(let number): try container.encode(number)
        case .bool(let flag): try container.encode(flag)
        case .array(let elements): try container.encode(elements)
        }
    }
}
