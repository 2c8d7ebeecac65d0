import Foundation
import Networking

/// Reads, checks and encodes the store file; moves a corrupt one aside.
enum StoreFile {
    private struct VersionProbe: Decodable {
        var version: Int
    }

    /// The file's contents, or `nil` when there is no file.
    ///
    /// - Throws: `.corruptFile` after moving an unreadable or undecodable file aside; `.unsupportedVersion`
    ///   for a newer format (the file is left in place).
    static func read(_ url: URL, clock: () -> Date) throws(FeatureStoreError) -> FeatureStoreSnapshot? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        if let kind = FileProblem.irregularKind(atPath: url.path) {  // never read a directory, a FIFO, /dev/zero
            throw try moveAside(url, reason: "cannot be read: it is \(kind), not a regular file", clock: clock)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw try moveAside(url, reason: "cannot be read: \(FileProblem.reason(error))", clock: clock)
        }
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
        return snapshot
    }

    /// The file's bytes: pretty-printed JSON with sorted keys.
    static func encode(_ snapshot: FeatureStoreSnapshot) throws(FeatureStoreError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            return try encoder.encode(snapshot)
        } catch {
            throw .writeFailed(path: "", reason: "cannot encode the store: \(error)")
        }
    }

    /// Where and why the file's JSON does not decode, in the file's terms (not a network response's).
    private static func decodingReason(_ error: NetworkError) -> String {
        guard case .decoding(let path, let description) = error else { return error.description }
        return path.isEmpty ? description : "at \(path), \(description)"
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
