import Foundation

/// The real public data sets embedded in the package as resources (see `Resources/SOURCES.md`).
///
/// The local client answers endpoints from them, and tests decode them, so the package works with no server.
///
/// ```swift
/// let data = try BundledData.products.data()
/// ```
public enum BundledData: String, CaseIterable, Sendable {
    /// 74 products (`products.json`, faker-generated; `id` and `price` are strings).
    case products
    /// 2,191 crypto currencies with prices as decimal strings (`crypto.json`).
    case crypto
    /// 10 users from JSONPlaceholder (`users.json`).
    case users

    /// The raw JSON bytes of the data set.
    ///
    /// - Throws: `NetworkError.transport` if the resource is missing from the bundle or unreadable.
    public func data() throws(NetworkError) -> Data {
        guard let url = Bundle.module.url(forResource: rawValue, withExtension: "json", subdirectory: "Resources")
        else {
            throw .transport(BundledDataMissing(name: rawValue))
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw .transport(BundledDataMissing(name: rawValue))
        }
    }
}

/// The error inside `NetworkError.transport` when a bundled resource cannot be read.
public struct BundledDataMissing: Error, Sendable, CustomStringConvertible {
    /// The resource's name, without extension.
    public let name: String
    /// Explains which resource is missing.
    public var description: String {
        "the bundled data file \(name).json is missing or unreadable; reinstall or rebuild streams-repl"
    }
}

/// The error inside `NetworkError.transport` when a bundled resource is there but does not hold what it
/// should (the package's resources are damaged).
public struct BundledDataInvalid: Error, Sendable, CustomStringConvertible {
    /// The resource's name, without extension.
    public let name: String
    /// What is wrong with it, in words (`the field "price" is missing in item 4`).
    public let problem: String

    /// An error saying that the bundled `name.json` is not valid because of `problem`.
    public init(name: String, problem: String) {
        self.name = name
        self.problem = problem
    }

    /// Names the file and what is wrong with it, and what to do.
    public var description: String {
        "the bundled data file \(name).json is damaged (\(problem)); reinstall or rebuild streams-repl"
    }
}
