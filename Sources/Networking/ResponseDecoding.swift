import Foundation

/// Decodes a response body into a `Decodable` type, reporting failures as `NetworkError.decoding`.
///
/// - `EmptyResponse` decodes from any body without reading it.
/// - An empty body for any other type is `.decoding(path: "", description: "empty body …")`.
/// - A `DecodingError` becomes `.decoding(path:description:)`, where `path` is the coding path in the JSON,
///   e.g. `[3].price` or `address.geo.lat`, and `description` the decoder's explanation (`the key is missing`
///   for a missing key, whose name ends the path; never a `CodingKeys(…)` dump).
///
/// ```swift
/// let users = try ResponseDecoding.decode([User].self, from: response.body, decoder: JSONDecoder())
/// ```
public enum ResponseDecoding {
    /// `data` decoded as `T` by `decoder`.
    public static func decode<T: Decodable>(
        _ type: T.Type, from data: Data, decoder: JSONDecoder
    ) throws(NetworkError) -> T {
        if let empty = EmptyResponse() as? T { return empty }
        guard !data.isEmpty else {
            throw .decoding(path: "", description: "empty body, expected \(T.self)")
        }
        do {
            return try decoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            throw describe(error)
        } catch {
            throw .decoding(path: "", description: String(describing: error))
        }
    }

    /// The `.decoding` error for a `DecodingError`.
    static func describe(_ error: DecodingError) -> NetworkError {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return .decoding(path: path(context.codingPath), description: explanation(context))
        case .keyNotFound(let key, let context):
            return .decoding(
                path: path(context.codingPath + [key]), description: "the key is missing")
        @unknown default:
            return .decoding(path: "", description: String(describing: error))
        }
    }

    /// A coding path as a readable key path: `[3].price`, `address.geo.lat`.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text
    }

    /// The decoder's explanation, with the underlying error's words (never its `userInfo` dump).
    private static func explanation(_ context: DecodingError.Context) -> String {
        guard let underlying = context.underlyingError else { return context.debugDescription }
        return context.debugDescription + " (" + NetworkError.explanation(of: underlying) + ")"
    }
}
