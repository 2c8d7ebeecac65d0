import Foundation
import Networking

/// Decodes response bodies into the feature models, turning every decoding failure into
/// `NetworkError.decoding` with the coding path (e.g. `[3].price`) and a readable reason.
///
/// A small stand-in for the networking layer's decoding helpers; the feature code calls only this.
enum ResponseDecoding {
    /// The body of `response` decoded as `T`.
    static func decode<T: Decodable>(_ type: T.Type, from response: NetworkResponse) throws(NetworkError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: response.body)
        } catch let error as DecodingError {
            throw networkError(for: error)
        } catch {
            throw .decoding(path: "", description: "\(error)")
        }
    }

    /// `NetworkError.decoding` with the path and reason of `error`.
    static func networkError(for error: DecodingError) -> NetworkError {
        switch error {
        case .typeMismatch(let type, let context):
            return .decoding(
                path: path(context.codingPath), description: "expected \(type): \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            return .decoding(
                path: path(context.codingPath), description: "missing \(type): \(context.debugDescription)")
        case .keyNotFound(let key, let context):
            return .decoding(path: path(context.codingPath + [key]), description: "missing key \"\(key.stringValue)\"")
        case .dataCorrupted(let context):
            return .decoding(path: path(context.codingPath), description: reason(context))
        @unknown default:
            return .decoding(path: "", description: "\(error)")
        }
    }

    /// `[3].price` for the keys 3 and "price".
    static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }

    private static func reason(_ context: DecodingError.Context) -> String {
        guard let underlying = context.underlyingError else { return context.debugDescription }
        return "\(context.debugDescription) (\(underlying.localizedDescription))"
    }
}
