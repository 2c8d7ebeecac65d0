import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Words for what is wrong with a file, for the reasons in ``FeatureStoreError``: never Foundation's
/// `The operation could not be completed. (NSCocoaErrorDomain error 256.)`, and never a permission message
/// for a file that simply is not a regular file.
enum FileProblem {
    /// What is at `path` (following symbolic links) when it exists but is not a regular file: `a directory`,
    /// `a named pipe (FIFO)`, `a device`, `a socket`; `nil` for a regular file or nothing at all.
    static func irregularKind(atPath path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a named pipe (FIFO)"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    /// Why reading or creating a file failed, in words: the system's reason (`Permission denied`, `No space
    /// left on device`…) under Foundation's wrapper, else the error's own description.
    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            return systemReason(Int32(underlying.code))
        }
        if nsError.domain == NSPOSIXErrorDomain { return systemReason(Int32(nsError.code)) }
        let text = nsError.localizedDescription
        return text.hasPrefix("The operation could not be completed. ")
            ? String(text.dropFirst("The operation could not be completed. ".count)) : text
    }

    /// Why the directory at `path` could not be created: something that is not a directory in the way, or the
    /// system's reason.
    static func directoryReason(_ error: any Error, path: String) -> String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            return "it exists and is not a directory"
        }
        var ancestor = (path as NSString).deletingLastPathComponent
        while !ancestor.isEmpty, ancestor != "/" {
            if FileManager.default.fileExists(atPath: ancestor, isDirectory: &isDirectory), !isDirectory.boolValue {
                return "\(ancestor) is a file, not a directory"
            }
            ancestor = (ancestor as NSString).deletingLastPathComponent
        }
        return reason(error)
    }

    /// The text of the current `errno`.
    static func lastSystemReason() -> String {
        systemReason(errno)
    }

    /// The system's text for `code` (`strerror`), starting with a small letter to sit inside a sentence:
    /// `permission denied`, `no space left on device`.
    static func systemReason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        guard let first = text.first, first.isUppercase, !text.dropFirst().prefix(1).contains(where: \.isUppercase)
        else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
