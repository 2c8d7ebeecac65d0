import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Checks a server address (`--server`, `:source`) before anything is sent to it, so a mistake is explained
/// in words at once instead of surfacing later as a URL-loading error code.
///
/// An address is `http` or `https`, a host — a name (`example.com`, `localhost`), an IPv4 address
/// (`127.0.0.1`) or an IPv6 address in brackets (`[::1]`) — an optional port from 1 to 65535 and an optional
/// path.
///
/// ```swift
/// try ServerAddress.url(from: "http://[::1]:8080")        // accepted
/// try ServerAddress.url(from: "http://127.0.0.1:99999")   // throws .invalidServer(…, reason: "the port 99999 …")
/// ```
enum ServerAddress {
    /// The longest host name DNS allows, in characters.
    static let maximumHostLength = 253
    /// The longest label (the part between dots) of a host name.
    static let maximumLabelLength = 63

    /// `text` as a URL, when it is a usable server address.
    ///
    /// - Throws: ``REPLOptionsError/invalidServer(_:reason:)`` saying what is wrong with it.
    static func url(from text: String) throws(REPLOptionsError) -> URL {
        func invalid(_ reason: String) -> REPLOptionsError { .invalidServer(text, reason: reason) }
        guard !text.isEmpty else { throw invalid("the address is empty") }
        guard !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 }) else {
            throw invalid("an address cannot contain spaces or control characters")
        }
        guard let schemeEnd = text.range(of: "://") else {
            throw invalid("it does not start with http:// or https://")
        }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw invalid("the scheme '\(scheme.prefix(20))' is not http or https")
        }
        let authority = Self.authority(of: text, after: schemeEnd.upperBound)
        if let reason = problem(withAuthority: authority) { throw invalid(reason) }
        guard let url = URL(string: text) else { throw invalid("it is not a well-formed URL") }
        guard url.host != nil else { throw invalid("it has no host") }
        return url
    }

    /// The part between `://` and the path, without any `user@`.
    private static func authority(of text: String, after start: String.Index) -> Substring {
        let rest = text[start...]
        let end = rest.firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex
        let authority = rest[..<end]
        if let at = authority.lastIndex(of: "@") { return authority[authority.index(after: at)...] }
        return authority
    }

    /// What is wrong with the host and port written as `authority`, if anything.
    private static func problem(withAuthority authority: Substring) -> String? {
        let host: Substring
        let port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return "the IPv6 address has no closing ']'" }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else {
                return "only ':PORT' may follow the bracketed IPv6 address"
            }
            port = after.isEmpty ? nil : after.dropFirst()
            if let reason = ipv6Problem(host) { return reason }
        } else {
            let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else {
                return "an IPv6 address must be written in brackets, as in http://[::1]:8080"
            }
            host = parts[0]
            port = parts.count == 2 ? parts[1] : nil
            if let reason = hostNameProblem(host) { return reason }
        }
        if let port {
            guard !port.isEmpty else { return "the ':' after the host must be followed by a port number" }
            guard port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber), let number = Int(port),
                (1...65_535).contains(number)
            else {
                return "the port \(port.prefix(12)) is not a number from 1 to 65535"
            }
        }
        return nil
    }

    /// What is wrong with an IPv6 address written between brackets (a `%25zone` suffix allowed), if anything.
    private static func ipv6Problem(_ address: Substring) -> String? {
        let withoutZone = address.range(of: "%25").map { address[..<$0.lowerBound] } ?? address
        var storage = in6_addr()
        let valid = String(withoutZone).withCString { inet_pton(AF_INET6, $0, &storage) } == 1
        return valid ? nil : "'\(address.prefix(45))' is not an IPv6 address"
    }

    /// What is wrong with a host name or IPv4 address, if anything.
    private static func hostNameProblem(_ host: Substring) -> String? {
        guard !host.isEmpty else { return "it has no host" }
        guard host.count <= maximumHostLength else {
            return "the host name is longer than \(maximumHostLength) characters"
        }
        let name = host.hasSuffix(".") ? host.dropLast() : host
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard !labels.contains(where: \.isEmpty) else {
            return "the host '\(host.prefix(60))' has an empty part between dots"
        }
        let allowed = { (character: Character) in
            character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == "_")
        }
        if let bad = name.first(where: { !allowed($0) && $0 != "." }) {
            return "the host '\(host.prefix(60))' contains '\(bad)', which a host name cannot hold"
                + (bad.isASCII ? "" : " (write an international name in its xn-- form)")
        }
        let badLabel = labels.first { $0.count > maximumLabelLength || $0.hasPrefix("-") || $0.hasSuffix("-") }
        if let label = badLabel {
            return label.count > maximumLabelLength
                ? "a part of the host name is longer than \(maximumLabelLength) characters"
                : "the host name part '\(label.prefix(60))' cannot start or end with '-'"
        }
        if labels.allSatisfy({ $0.allSatisfy(\.isNumber) }) {
            guard labels.count == 4, labels.allSatisfy({ $0.count <= 3 && Int($0).map { $0 <= 255 } == true }) else {
                return "'\(host.prefix(60))' is not an IPv4 address (four numbers from 0 to 255)"
            }
        }
        return nil
    }
}
