import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces a file's contents atomically: readers see the old file or the new one, never a mix.
///
/// The new contents go to a temporary file next to the file, named `.<name>.tmp-<pid>-<random>`, which is
/// renamed over it. A process killed while writing leaves that temporary file behind;
/// ``removeStaleTemporaryFiles(of:)`` removes such leftovers (and only them).
enum AtomicFile {
    /// Writes `data` to a new temporary file next to `url`, flushes it to disk, then renames it over `url`.
    /// On failure the temporary file is removed and `url` is unchanged.
    ///
    /// `url` must be the real file, not a symbolic link (the rename would replace the link itself): see
    /// ``StorePath/resolve(_:)``.
    static func replace(_ url: URL, with data: Data) throws(FeatureStoreError) {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(temporaryName(of: url.lastPathComponent)).path
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

    /// How old a leftover temporary file of a process that may still be running must be before it is
    /// removed: 10 minutes (a write takes far less).
    static let staleAge: TimeInterval = 600

    /// Removes the temporary files a killed writer left next to `url`: only names of exactly this type's
    /// pattern for `url` (`.<name>.tmp-<pid>-<number>`), only regular files, and only when their process no
    /// longer exists or they are older than ``staleAge``. Call it holding the store's lock, so no
    /// cooperating writer is between creating and renaming one. Failures are ignored (a leftover is harmless).
    ///
    /// - Returns: the names removed.
    @discardableResult
    static func removeStaleTemporaryFiles(of url: URL, now: Date = Date()) -> [String] {
        let directory = url.deletingLastPathComponent()
        let prefix = "." + url.lastPathComponent + ".tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix(prefix) {
            let parts = name.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
                let pid = Int32(parts[0])
            else { continue }
            let path = directory.appendingPathComponent(name).path
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
            let isRunning = pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
            guard !isRunning || now.timeIntervalSince(modified) > staleAge else { continue }
            if unlink(path) == 0 { removed.append(name) }
        }
        return removed
    }

    /// A fresh temporary name for the file named `name`: `.<name>.tmp-<pid>-<random>`.
    static func temporaryName(of name: String) -> String {
        ".\(name).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
    }
}
