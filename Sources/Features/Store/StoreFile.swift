import Foundation
import Networking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads, checks and encodes the store file; moves a corrupt one aside.
enum StoreFile {
    private struct VersionProbe: Decodable {
        var version: Int
    }

    /// The file's contents and the stamp of the version read, or `nil` when there is no file.
    ///
    /// - Parameters:
    ///   - url: the store file as the user knows it (named in errors, moved aside when corrupt).
    ///   - target: the file to read: `url`'s path, or the target of the link `url` is (``StorePath``).
    ///   - maximumSize: the largest file read; its size is checked before reading, and at most that many
    ///     bytes are ever read.
    /// - Throws: `.corruptFile` after moving an undecodable file aside; `.unreadableFile` for a file that
    ///   cannot be read (no permission, not a regular file, an I/O error: left in place); `.unsupportedVersion`
    ///   for a newer format (left in place); `.fileTooLarge` (left in place, not read).
    static func read(_ url: URL, target: String, maximumSize: Int64, clock: () -> Date) throws(FeatureStoreError)
        -> (snapshot: FeatureStoreSnapshot, stamp: FileStamp)?
    {
        var info = stat()
        guard stat(target, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw unreadable(url, code: errno)
        }
        if let kind = FileProblem.irregularKind(atPath: target) {  // never read a directory, a FIFO, /dev/zero
            throw .unreadableFile(
                path: url.path,
                reason: "it is \(kind), not a file; move it away (the store then starts empty) and start again")
        }
        if Int64(info.st_size) > maximumSize {
            throw .fileTooLarge(path: url.path, size: Int64(info.st_size), limit: maximumSize)
        }
        let (data, stamp) = try readBytes(url, target: target, maximumSize: maximumSize, clock: clock)
        let decoder = JSONDecoder()
        if let probe = try? decoder.decode(VersionProbe.self, from: data),
            probe.version > FeatureStoreSnapshot.currentVersion
        {
            throw .unsupportedVersion(path: url.path, version: probe.version)
        }
        let snapshot: FeatureStoreSnapshot
        do {
            snapshot = try ResponseDecoding.decode(FeatureStoreSnapshot.self, from: data, decoder: decoder)
        } catch {
            throw try moveAside(url, reason: "not a valid store file: \(decodingReason(error))", clock: clock)
        }
        if let problem = problem(in: snapshot) {
            throw try moveAside(url, reason: problem, clock: clock)
        }
        return (snapshot, stamp)
    }

    /// The bytes of the regular file at `target` and its stamp, read from one descriptor; never more than
    /// `maximumSize` bytes (a file that grows past it while being read is `.fileTooLarge`).
    private static func readBytes(_ url: URL, target: String, maximumSize: Int64, clock: () -> Date)
        throws(FeatureStoreError) -> (Data, FileStamp)
    {
        let descriptor = open(target, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw unreadable(url, code: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw .unreadableFile(
                path: url.path,
                reason: "it is not a regular file; move it away (the store then starts empty) and start again")
        }
        let expected = Int64(info.st_size)
        guard expected <= maximumSize else {
            throw .fileTooLarge(path: url.path, size: expected, limit: maximumSize)
        }
        var bytes = [UInt8](repeating: 0, count: Int(expected) + 1)  // one more, to see a file that grew
        var count = 0
        while true {
            if count == bytes.count {
                guard Int64(count) <= maximumSize else {
                    throw .fileTooLarge(path: url.path, size: Int64(count), limit: maximumSize)
                }
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, Int(maximumSize) + 1 - count)))
            }
            let got = bytes.withUnsafeMutableBytes { buffer in
                readSome(descriptor, buffer.baseAddress.map { $0 + count }, buffer.count - count)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw unreadable(url, code: errno)
            }
            if got == 0 { break }
            count += got
        }
        return (Data(bytes[..<count]), FileStamp(info))
    }

    /// The file's bytes: pretty-printed JSON with sorted keys.
    static func encode(_ snapshot: FeatureStoreSnapshot) throws(FeatureStoreError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            return try encoder.encode(snapshot)
        } catch {
            throw .writeFailed(path: "", reason: "the store could not be encoded (\(FileProblem.reason(error)))")
        }
    }

    /// Where and why the file's JSON does not decode, in the file's terms (not a network response's): the
    /// decoder's words already name the field and the item (`the field "price" is missing in item 2 of
    /// favourites`).
    private static func decodingReason(_ error: NetworkError) -> String {
        guard case .decoding(_, let description) = error else { return error.description }
        return description
    }

    /// The error for a store file the system refuses to read (`code` is `errno`): what to do depends on why.
    private static func unreadable(_ url: URL, code: Int32) -> FeatureStoreError {
        let reason = FileProblem.systemReason(code)
        switch code {
        case EACCES, EPERM:
            return .unreadableFile(
                path: url.path,
                reason: "\(reason); fix its permissions (chmod 600 \(url.path)) and start again")
        default:
            return .unreadableFile(path: url.path, reason: "\(reason); check the file and the disk, and start again")
        }
    }

    /// What is impossible in a decoded snapshot, if anything.
    private static func problem(in snapshot: FeatureStoreSnapshot) -> String? {
        if snapshot.version < 1 { return "version \(snapshot.version) is not a version" }
        if snapshot.fetchCount < 0 { return "fetchCount \(snapshot.fetchCount) is negative" }
        if let item = snapshot.basket.items.first(where: { $0.quantity < 1 }) {
            return "product \(item.product.id) has quantity \(item.quantity)"
        }
        return nil
    }

    /// Renames the file to `<name>.corrupt-<timestamp>` and returns the error to throw.
    private static func moveAside(_ url: URL, reason: String, clock: () -> Date) throws(FeatureStoreError)
        -> FeatureStoreError
    {
        let stamp = Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(clock())
            .replacingOccurrences(of: ":", with: "")
        var target = url.appendingPathExtension("corrupt-\(stamp)")
        var attempt = 1
        while FileManager.default.fileExists(atPath: target.path) {
            attempt += 1
            target = url.appendingPathExtension("corrupt-\(stamp)-\(attempt)")
        }
        do {
            try FileManager.default.moveItem(at: url, to: target)
        } catch {
            throw .writeFailed(
                path: url.path,
                reason: "it is unreadable (\(reason)) and cannot be moved aside: \(FileProblem.reason(error))")
        }
        return .corruptFile(path: url.path, movedTo: target.path, reason: reason)
    }
}

/// `read(2)`, under a name the store's own `read` does not hide.
private func readSome(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
