import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces a file's contents atomically: readers see the old file or the new one, never a mix.
enum AtomicFile {
    /// Writes `data` to a new temporary file next to `url`, flushes it to disk, then renames it over `url`.
    /// On failure the temporary file is removed and `url` is unchanged.
    static func replace(_ url: URL, with data: Data) throws(FeatureStoreError) {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
            .path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {  // name the store, not the temporary file nobody asked for
            throw .writeFailed(
                path: url.path,
                reason: "cannot create a temporary file in \(url.deletingLastPathComponent().path) "
                    + "(\(FileLock.lastErrorDescription()))")
        }
        var failure: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = FileLock.lastErrorDescription()
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = FileLock.lastErrorDescription() }
        close(descriptor)
        if failure == nil, rename(temporary, url.path) != 0 { failure = FileLock.lastErrorDescription() }
        if let failure {
            unlink(temporary)
            throw .writeFailed(path: url.path, reason: failure)
        }
    }
}
