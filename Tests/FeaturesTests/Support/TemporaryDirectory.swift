import Foundation

/// A new empty directory under the system's temporary directory, removed with everything in it when this
/// object goes away (a suite instance holds one per test) or when ``remove()`` is called.
final class TemporaryDirectory: @unchecked Sendable {
    /// The directory.
    let url: URL

    init(prefix: String = "features-tests") {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Removes the directory now (idempotent).
    func remove() { try? FileManager.default.removeItem(at: url) }

    deinit { remove() }
}
