import Foundation

/// Decodes a response body into a `Decodable` type, reporting failures as `NetworkError.decoding`.
///
/// - `EmptyResponse` decodes from any body without reading it.
/// - An empty body for any other type is `.decoding(path: "", description: "it is empty")`.
/// - A `DecodingError` becomes `.decoding(path:description:)`, where `path` is the coding path in the JSON,
///   e.g. `[3].price` or `address.geo.lat`, and `description` says what is wrong in plain words, naming the
///   field and where it is (items counted from 1): `the field "price" is missing in item 4`, `the field "lat"
///   is not a number in address.geo`, `it is not valid JSON` — never a `CodingKeys(…)` dump or a type name.
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
            throw .decoding(path: "", description: "it is empty")
        }
        do {
            return try decoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            throw describe(error)
        } catch {
            throw .decoding(path: "", description: "it could not be read (\(NetworkError.explanation(of: error)))")
        }
    }

    /// The `.decoding` error for a `DecodingError`.
    static func describe(_ error: DecodingError) -> NetworkError {
        switch error {
        case .keyNotFound(let key, let context):
            return .decoding(
                path: path(context.codingPath + [key]),
                description: "the field \"\(key.stringValue)\" is missing" + location(context.codingPath))
        case .valueNotFound(let type, let context):
            return .decoding(
                path: path(context.codingPath),
                description: subject(context.codingPath) + " is null, not " + kind(type) + place(context.codingPath))
        case .typeMismatch(let type, let context):
            return .decoding(
                path: path(context.codingPath),
                description: subject(context.codingPath) + " is not " + kind(type) + place(context.codingPath))
        case .dataCorrupted(let context):
            guard !context.codingPath.isEmpty else {
                return .decoding(path: "", description: "it is not valid JSON" + jsonProblem(context))
            }
            return .decoding(
                path: path(context.codingPath),
                description: subject(context.codingPath) + " is invalid" + place(context.codingPath) + ": "
                    + context.debugDescription.trimmingCharacters(in: CharacterSet(charactersIn: ". ")))
        @unknown default:
            return .decoding(path: "", description: "it does not have the expected form")
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

    /// What the last key of `codingPath` names: `the field "price"`, `item 4`, or `the answer` (the top).
    private static func subject(_ codingPath: [any CodingKey]) -> String {
        guard let last = codingPath.last else { return "the answer" }
        if let index = last.intValue { return "item \(index + 1)" }
        return "the field \"\(last.stringValue)\""
    }

    /// Where the value named by ``subject(_:)`` is: the ``location(_:)`` of its container.
    private static func place(_ codingPath: [any CodingKey]) -> String {
        location(Array(codingPath.dropLast()))
    }

    /// ` in item 4`, ` in item 3 of favourites`, ` in address.geo of item 2`; "" at the top.
    static func location(_ codingPath: [any CodingKey]) -> String {
        var groups: [String] = []
        var names: [String] = []
        for key in codingPath {
            if let index = key.intValue {
                if !names.isEmpty { groups.append(names.joined(separator: ".")) }
                names = []
                groups.append("item \(index + 1)")
            } else {
                names.append(key.stringValue)
            }
        }
        if !names.isEmpty { groups.append(names.joined(separator: ".")) }
        return groups.isEmpty ? "" : " in " + groups.reversed().joined(separator: " of ")
    }

    /// The kind of JSON value `type` is decoded from, in words: `text`, `a number`, `a list`…
    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is Substring.Type, is Character.Type: return "text"
        case is Bool.Type: return "true or false"
        case is any BinaryInteger.Type: return "a whole number"
        case is any BinaryFloatingPoint.Type, is Decimal.Type: return "a number"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array<") || name.hasPrefix("[") || name.hasPrefix("Set<") { return "a list" }
            return "an object"
        }
    }

    /// The JSON parser's words for where the text goes wrong, when it has some: `: unexpected end of file`.
    private static func jsonProblem(_ context: DecodingError.Context) -> String {
        guard let underlying = context.underlyingError as NSError?,
            let detail = underlying.userInfo[NSDebugDescriptionErrorKey] as? String, !detail.isEmpty,
            !detail.contains("Domain")
        else { return "" }
        let trimmed = detail.trimmingCharacters(in: CharacterSet(charactersIn: ". "))
        return " (" + trimmed.prefix(1).lowercased() + trimmed.dropFirst() + ")"
    }
}
