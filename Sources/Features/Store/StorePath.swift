#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the store file really is: the path itself, or, when it is a symbolic link, the file the link
/// (finally) points to — so a change is written *through* the link, atomically next to its target, and the
/// link stays a link.
enum StorePath {
    /// The path to read and replace for the store file at `path`.
    ///
    /// - Returns: `path` when it is not a symbolic link (or nothing is there); the link's canonical target
    ///   otherwise.
    /// - Throws: ``FeatureStoreError/danglingLink(path:target:)`` for a link to nothing (never treated as "no
    ///   store": writing would replace the link); `.writeFailed` for a link that cannot be followed (a loop,
    ///   a directory without search permission).
    static func resolve(_ path: String) throws(FeatureStoreError) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return path }
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let code = errno
        if code == ENOENT { throw .danglingLink(path: path, target: linkText(path) ?? "?") }
        throw .writeFailed(
            path: path, reason: "it is a symbolic link that cannot be followed (\(FileProblem.systemReason(code)))")
    }

    /// What the link at `path` says, as written in it.
    private static func linkText(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
