import Foundation

/// Strict parsing of the text fields the data sets use for numbers and dates.
///
/// `Decimal(string:)` accepts a valid prefix ("1.2x" gives 1.2), so decimal text is checked first: an optional
/// minus sign, digits, and an optional fraction. Dates are ISO 8601 with optional fractional seconds.
enum FieldParsing {
    /// The decimal value of `text` ("51.00", "-0.5", "0.00002174"), or `nil` when it is not exactly a number.
    static func decimal(_ text: String) -> Decimal? {
        var digits = Substring(text)
        if digits.first == "-" { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = parts.first, !whole.isEmpty,
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            parts.count == 1 || !parts[1].isEmpty
        else { return nil }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// The date written as ISO 8601 (`2023-07-17T07:21:02.529Z`), or `nil`.
    static func date(_ text: String) -> Date? {
        try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }

    /// `date` as ISO 8601 with milliseconds (`2023-07-16T08:46:46.400Z`), the form the product data uses,
    /// rounded to the nearest millisecond so that parsing the text gives `date` back. (The format style
    /// truncates: a date parsed from `.400` is a hair below it in binary and would be written `.399`.)
    static func text(for date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let seconds = (milliseconds / 1000).rounded(.down)
        let fraction = String(Int(milliseconds - seconds * 1000))
        let whole = Date.ISO8601FormatStyle().format(Date(timeIntervalSince1970: seconds))  // …T08:46:46Z
        return whole.dropLast() + "." + String(repeating: "0", count: 3 - fraction.count) + fraction + "Z"
    }

    /// Decodes a decimal written as a string (as the data sets do) or as a JSON number.
    static func decodeDecimal<Key: CodingKey>(
        _ key: Key, in container: KeyedDecodingContainer<Key>
    ) throws -> Decimal {
        if let text = try? container.decode(String.self, forKey: key) {
            guard let value = decimal(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "\"\(text)\" is not a decimal number")
            }
            return value
        }
        return try container.decode(Decimal.self, forKey: key)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
