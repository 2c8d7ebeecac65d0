import Foundation

/// Why the persistent store could not load or save, with the file concerned.
///
/// ```swift
/// do { store = try FeatureStore(directory: directory) }
/// catch .corruptFile(let path, let movedTo, let reason) { print("\(path): \(reason); kept as \(movedTo)") }
/// ```
public enum FeatureStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be read or decoded. It was renamed to `movedTo` (`…corrupt-<timestamp>`) so its
    /// bytes are kept, and the store starts from its last good state (empty at launch).
    case corruptFile(path: String, movedTo: String, reason: String)
    /// The file was written by a newer version of the app; it is left untouched.
    case unsupportedVersion(path: String, version: Int)
    /// The store file exists but cannot be read (no permission, a directory or another non-file in its place,
    /// an I/O error). It is **not** moved aside (nothing is wrong with its content as far as anyone knows);
    /// `reason` says why in words, and the description what to do.
    case unreadableFile(path: String, reason: String)
    /// The directory, the lock file or the new file could not be created or written.
    case writeFailed(path: String, reason: String)
    /// A quantity outside `allowed` was asked for (``FeatureStore/maximumQuantity`` is the most; 0 only
    /// when setting a quantity, where it removes the product); nothing changed.
    case invalidQuantity(Int, allowed: ClosedRange<Int>)
    /// Adding `adding` units to the `current` ones would take the product's basket line past
    /// ``FeatureStore/maximumQuantity``; nothing changed.
    case quantityTooLarge(productID: String, current: Int, adding: Int)
    /// The product is not in the basket.
    case notInBasket(productID: String)
    /// Another process (another streams-repl) held the store's lock file at `path` for all of `waited`, the
    /// longest a store waits (``StoreLockWaiting/timeout``); nothing was read or changed.
    case storeLocked(path: String, waited: Duration)
    /// The store file is `size` bytes, more than ``FeatureStore/maximumFileSize-property`` (`limit`); it was not read
    /// and is left in place.
    case fileTooLarge(path: String, size: Int64, limit: Int64)
    /// The store file is a symbolic link to `target`, which does not exist; nothing was read or written.
    case danglingLink(path: String, target: String)

    /// One sentence: what failed, why, and what to do about it (for a corrupt file: where it went, that the
    /// store starts empty without it, and how to put it back).
    public var description: String {
        switch self {
        case .corruptFile(let path, let movedTo, let reason):
            "the store file \(path) is unreadable (\(reason)); it was moved to \(movedTo), so the store starts "
                + "again empty without it — to restore it, repair that file and move it back to \(path)"
        case .unsupportedVersion(let path, let version):
            "the store file \(path) has version \(version), newer than this app understands; use a newer version "
                + "of the app, or move the file away to start with an empty store"
        case .unreadableFile(let path, let reason):
            "could not read the store file \(path): \(reason)"
        case .writeFailed(let path, let reason): "could not write \(path): \(reason)"
        case .invalidQuantity(let quantity, let allowed):
            "quantity must be a whole number from \(allowed.lowerBound) to \(allowed.upperBound)"
                + (allowed.lowerBound == 0 ? " (0 removes the product)" : "") + ", got \(quantity)"
        case .quantityTooLarge(let productID, let current, let adding):
            "cannot add \(adding) more of product \(productID): the basket already holds \(current), and a "
                + "product's quantity can be at most \(FeatureStore.maximumQuantity) (set it instead, or check "
                + "out first)"
        case .notInBasket(let productID): "product \(productID) is not in the basket"
        case .storeLocked(let path, let waited):
            "the store is locked by another streams-repl (lock file \(path)) and was still locked after "
                + "\(StoreLockWaiting.seconds(waited)) s, so nothing was changed; close the other streams-repl "
                + "(or wait for it) and try again"
        case .fileTooLarge(let path, let size, let limit):
            "the store file \(path) is \(size) bytes, more than the limit of \(limit) bytes, so it was not read "
                + "(it is left as it is); move it away to start with an empty store"
        case .danglingLink(let path, let target):
            "the store file \(path) is a symbolic link to \(target), which does not exist; create that file "
                + "(or fix or remove the link) and try again"
        }
    }
}
