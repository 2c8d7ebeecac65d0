import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the REPL keeps its history between runs: a UTF-8 text file, one entry per line, oldest first.
///
/// - ``load()`` never fails: a missing, unreadable or garbled file gives what can be read of it (invalid
///   UTF-8 is repaired, blank lines skipped), at worst `[]`.
/// - ``save(_:)`` keeps the newest ``limit`` entries, writes a line break inside an entry as a space, and
///   replaces the file atomically (a temporary file in the same directory, renamed over it), so a crash
///   never leaves half a history. It creates the directory if missing; the file is readable by its owner
///   only (mode 0600). Its error describes itself in one sentence.
///
/// ```swift
/// let file = HistoryFile(url: home.appendingPathComponent(".streams-repl/history"))
/// var history = EditHistory(entries: file.load())
/// history.add(":sort price")
/// try file.save(history.entries)
/// ```
public struct HistoryFile: Sendable {
    /// Why ``HistoryFile/save(_:)`` failed; its description is one sentence:
    /// "could not save the history to PATH: REASON".
    public struct SaveError: Error, Equatable, CustomStringConvertible, LocalizedError {
        /// The file that could not be written.
        public var path: String
        /// Why, as the system says it (e.g. "Permission denied").
        public var reason: String

        /// "could not save the history to PATH: REASON".
        public var description: String { "could not save the history to \(path): \(reason)" }
        /// The same sentence as ``description``.
        public var errorDescription: String? { description }
    }

    /// The history file.
    public let url: URL
    /// The most entries loaded and saved.
    public let limit: Int

    /// The history file at `url`, keeping the newest `limit` entries.
    public init(url: URL, limit: Int = 1000) {
        self.url = url
        self.limit = max(limit, 0)
    }

    /// The entries in the file, oldest first: the newest ``limit`` non-blank lines. `[]` when the file is
    /// missing or cannot be read.
    public func load() -> [String] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline)
            .map(String.init)
            .filter { !$0.allSatisfy(\.isWhitespace) }
        return Array(lines.suffix(limit))
    }

    /// Replaces the file with the newest ``limit`` of `entries`, one a line.
    ///
    /// - Throws: ``SaveError`` when the directory cannot be created or the file cannot be written.
    public func save(_ entries: [String]) throws {
        let lines = entries.suffix(limit).map { entry in
            String(entry.map { $0.isNewline ? " " : $0 })
        }
        let contents = lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
        let path = url.path
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw SaveError(path: path, reason: Self.reason(error))
        }
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SaveError(path: path, reason: Self.systemReason()) }
        var failure: String?
        let bytes = Array(contents.utf8)
        var written = 0
        while written < bytes.count, failure == nil {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                written += count
            } else if count < 0, errno == EINTR {
                continue
            } else {
                failure = Self.systemReason()
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = Self.systemReason() }
        if close(descriptor) != 0, failure == nil { failure = Self.systemReason() }
        if failure == nil, rename(temporary, path) != 0 { failure = Self.systemReason() }
        if let failure {
            unlink(temporary)
            throw SaveError(path: path, reason: failure)
        }
    }

    /// The system's description of the current `errno`.
    private static func systemReason() -> String {
        String(cString: strerror(errno))
    }

    /// A short reason for a Foundation error: the underlying POSIX error's description when there is one.
    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain, let code = Int32(exactly: underlying.code)
        {
            return String(cString: strerror(code))
        }
        return nsError.localizedDescription
    }
}
