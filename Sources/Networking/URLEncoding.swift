import Foundation

/// Encodes parameters as `application/x-www-form-urlencoded` text, for a query string or a form body.
///
/// The rules, so the output is deterministic and every server reads it the same way:
/// - Keys are sorted (by their Unicode scalars), so the same parameters always give the same text.
/// - Keys and values are percent-escaped per RFC 3986: only the unreserved characters `A–Z a–z 0–9 - . _ ~`
///   stay as they are; everything else is UTF-8 percent-encoded with uppercase hex. A space is `%20` (never
///   `+`), and `+ & = ? / #` in values are escaped.
/// - An array repeats its key, without brackets: `["tag": ["a", "b"]]` → `tag=a&tag=b`; nested arrays are
///   flattened and an empty array adds nothing.
/// - Booleans are `true` / `false`; integers in decimal; doubles as Swift prints them (`2.5`).
///
/// ```swift
/// URLEncoding.encode(["q": "red car", "page": 2, "brand": ["Audi", "BMW"]])
/// // "brand=Audi&brand=BMW&page=2&q=red%20car"
/// ```
public enum URLEncoding {
    /// The encoded `key=value` pairs joined by `&` (no leading `?`), following the rules above.
    public static func encode(_ parameters: [String: ParameterValue]) -> String {
        var pairs: [String] = []
        for key in parameters.keys.sorted() {
            guard let value = parameters[key] else { continue }
            let escapedKey = escape(key)
            for text in texts(of: value) {
                pairs.append(escapedKey + "=" + escape(text))
            }
        }
        return pairs.joined(separator: "&")
    }

    /// `text` with every character except `A–Z a–z 0–9 - . _ ~` percent-encoded (RFC 3986 §2.3).
    ///
    /// ```swift
    /// URLEncoding.escape("a b&c")   // "a%20b%26c"
    /// ```
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                escaped += "%" + hexDigit(byte >> 4) + hexDigit(byte & 0x0F)
            }
        }
        return escaped
    }

    private static func texts(of value: ParameterValue) -> [String] {
        switch value {
        case .string(let text): [text]
        case .int(let number): [String(number)]
        case .double(let number): [String(number)]
        case .bool(let flag): [flag ? "true" : "false"]
        case .array(let elements): elements.flatMap(texts(of:))
        }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> String {
        String(UnicodeScalar(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10))
    }
}
