import Foundation
import Streams

/// The persistent state of the features: the fetch count, the favourites and the basket, in one small
/// JSON file (`features-store.json`) in a directory the caller chooses.
///
/// - Loading: the file is read in `init`; a missing file is an empty store. A file whose content does not
///   decode is **never silently zeroed**: it is renamed to `features-store.json.corrupt-<timestamp>` and
///   `init` throws ``FeatureStoreError/corruptFile(path:movedTo:reason:)`` (creating the store again then
///   starts empty, with the bad bytes kept aside). A file that cannot be *read* at all (no permission, a
///   directory in its place) is left where it is: `init` throws ``FeatureStoreError/unreadableFile(path:reason:)``.
/// - Saving: every change is a read-modify-write of the file, written atomically (a temporary file, flushed,
///   then renamed over the old one). A lock makes the changes of this process take turns, and an exclusive
///   `flock` on `features-store.lock` makes processes (or several stores on one directory) take turns, and
///   each change starts from the file as it is on disk: no increment is ever lost. The file is read again
///   only when another writer changed it (its inode, size or times differ from the version this store last
///   wrote or read), so a change costs one encode and one write of the store, proportional to its size, not a
///   re-read. If the file turns out corrupt at that point, it is moved aside, the change throws and the next
///   change starts from the last good state this store knew.
/// - Limits: the file may be at most ``maximumFileSize-type.property`` bytes (256 MiB): a larger one is not read (its size
///   is checked first) and a change that would make it larger is refused. When another process holds the
///   lock, a load or change waits as ``StoreLockWaiting`` says (by default up to 30 s, saying so once), then
///   throws ``FeatureStoreError/storeLocked(path:waited:)``.
/// - Links: when the store file is a symbolic link, changes are written through it (atomically, next to its
///   target) and the link stays; a link to nothing is refused (``FeatureStoreError/danglingLink(path:target:)``).
/// - Leftovers: temporary files a killed process left in the directory are removed when a store opens.
/// - Publishing: ``snapshots`` (and ``fetchCount``, ``favourites``, ``basket``) publish the current value on
///   subscription and every change after it is saved, so every consumer sees every change. Values are
///   published on the thread that made the change, after the locks are released; a consumer may change the
///   store from inside its subscriber.
///
/// ```swift
/// let store = try FeatureStore(directory: URL(fileURLWithPath: "/tmp/streams"))
/// let c = store.fetchCount.sink { print("count:", $0) }   // count: 0
/// try store.incrementFetchCount()                           // count: 1
/// ```
public final class FeatureStore: @unchecked Sendable {
    /// The store file's name.
    public static let fileName = "features-store.json"
    /// The lock file's name (next to the store file).
    public static let lockFileName = "features-store.lock"

    /// The largest quantity of one product in the basket: 999 (a typo such as 1000000 is refused, and no sum or
    /// total can overflow).
    public static let maximumQuantity = 999

    /// The largest store file read or written by default: 256 MiB (about 280,000 favourites).
    public static let maximumFileSize: Int64 = 256 << 20

    /// Where the store file is.
    public let fileURL: URL
    /// The largest store file this store reads or writes, in bytes.
    public let maximumFileSize: Int64
    private let fileLock: FileLock
    private let lockWaiting: StoreLockWaiting
    private let changeLock = Lock()
    private let relay: StateRelay<FeatureStoreSnapshot>
    private let clock: @Sendable () -> Date
    /// The version of the file this store last read or wrote, and its contents (guarded by `changeLock`).
    private var known: (stamp: FileStamp, snapshot: FeatureStoreSnapshot)?
    /// How many times this store has read the file (guarded by `changeLock`).
    private var readCount = 0
    /// How many times this store has read the file (for tests: a change reads it only after another writer).
    var fileReads: Int {
        changeLock.lock()
        defer { changeLock.unlock() }
        return readCount
    }

    /// Opens the store in `directory` (created if missing), removes temporary files a killed process left
    /// there, and loads its file.
    ///
    /// - Parameters:
    ///   - directory: where the store file (``fileName``) and its lock file live.
    ///   - clock: the time used in the name of a corrupt file moved aside (default: now).
    ///   - lockWaiting: how to wait when another process holds the lock (default: up to 30 s, silently).
    ///   - maximumFileSize: the largest file read or written (default ``maximumFileSize-type.property``).
    /// - Throws: ``FeatureStoreError/corruptFile(path:movedTo:reason:)`` when the file's content does not
    ///   decode (it has been moved aside), ``FeatureStoreError/unreadableFile(path:reason:)`` when it cannot be
    ///   read at all (left in place), ``FeatureStoreError/unsupportedVersion(path:version:)``,
    ///   ``FeatureStoreError/fileTooLarge(path:size:limit:)``, ``FeatureStoreError/danglingLink(path:target:)``,
    ///   ``FeatureStoreError/storeLocked(path:waited:)``, or ``FeatureStoreError/writeFailed(path:reason:)``
    ///   when the directory or lock file cannot be created.
    public init(
        directory: URL, clock: @escaping @Sendable () -> Date = { Date() },
        lockWaiting: StoreLockWaiting = StoreLockWaiting(), maximumFileSize: Int64 = FeatureStore.maximumFileSize
    ) throws(FeatureStoreError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .writeFailed(path: directory.path, reason: FileProblem.directoryReason(error, path: directory.path))
        }
        let fileURL = directory.appendingPathComponent(Self.fileName)
        let fileLock = try FileLock(path: directory.appendingPathComponent(Self.lockFileName).path)
        let loaded = try fileLock.withLock(waiting: lockWaiting) {
            () throws(FeatureStoreError) -> (snapshot: FeatureStoreSnapshot, stamp: FileStamp)? in
            AtomicFile.removeStaleTemporaryFiles(of: fileURL)
            let target = try StorePath.resolve(fileURL.path)
            if target != fileURL.path { AtomicFile.removeStaleTemporaryFiles(of: URL(fileURLWithPath: target)) }
            return try StoreFile.read(fileURL, target: target, maximumSize: maximumFileSize, clock: clock)
        }
        self.fileURL = fileURL
        self.fileLock = fileLock
        self.lockWaiting = lockWaiting
        self.maximumFileSize = maximumFileSize
        self.clock = clock
        known = loaded.map { ($0.stamp, $0.snapshot) }
        readCount = 1
        relay = StateRelay(loaded?.snapshot ?? .empty)
    }

    /// The current contents.
    public var snapshot: FeatureStoreSnapshot { relay.value }

    /// The contents: the current value on subscription, then each saved change.
    public var snapshots: AnyPublisher<FeatureStoreSnapshot, Never> { relay.publisher }

    /// The fetch count: the current value on subscription, then each change.
    public var fetchCount: AnyPublisher<Int, Never> {
        relay.publisher.map(\.fetchCount).removeDuplicates().eraseToAnyPublisher()
    }

    /// The favourites: the current list on subscription, then each change.
    public var favourites: AnyPublisher<[Product], Never> {
        relay.publisher.map(\.favourites).removeDuplicates().eraseToAnyPublisher()
    }

    /// The basket: the current basket on subscription, then each change.
    public var basket: AnyPublisher<Basket, Never> {
        relay.publisher.map(\.basket).removeDuplicates().eraseToAnyPublisher()
    }

    /// Adds 1 to the fetch count, saves, and returns the new count.
    ///
    /// - Throws: ``FeatureStoreError/writeFailed(path:reason:)`` when the count is already `Int.max` (a file
    ///   written elsewhere may hold it); the count is kept.
    @discardableResult
    public func incrementFetchCount() throws(FeatureStoreError) -> Int {
        try change { snapshot throws(FeatureStoreError) in
            guard snapshot.fetchCount < Int.max else {
                throw .writeFailed(
                    path: fileURL.path, reason: "the fetch count \(snapshot.fetchCount) is at its maximum")
            }
            snapshot.fetchCount += 1
            return snapshot.fetchCount
        }
    }

    /// Sets the fetch count to 0 and saves.
    public func resetFetchCount() throws(FeatureStoreError) {
        try change { snapshot throws(FeatureStoreError) in snapshot.fetchCount = 0 }
    }

    /// Adds `product` to the favourites (at the end; nothing changes if it is there already) and saves.
    public func addFavourite(_ product: Product) throws(FeatureStoreError) {
        try change { snapshot throws(FeatureStoreError) in
            if !snapshot.favourites.contains(where: { $0.id == product.id }) {
                snapshot.favourites.append(product)
            }
        }
    }

    /// Removes the product with `productID` from the favourites (if there) and saves.
    public func removeFavourite(productID: String) throws(FeatureStoreError) {
        try change { snapshot throws(FeatureStoreError) in snapshot.favourites.removeAll { $0.id == productID } }
    }

    /// Adds `quantity` units of `product` to the basket and saves.
    ///
    /// - Throws: ``FeatureStoreError/invalidQuantity(_:allowed:)`` when `quantity` is not from 1 to
    ///   ``maximumQuantity``, ``FeatureStoreError/quantityTooLarge(productID:current:adding:)`` when the line
    ///   would exceed ``maximumQuantity`` (never an overflow, whatever the file holds).
    public func addToBasket(_ product: Product, quantity: Int = 1) throws(FeatureStoreError) {
        guard (1...Self.maximumQuantity).contains(quantity) else {
            throw .invalidQuantity(quantity, allowed: 1...Self.maximumQuantity)
        }
        try change { snapshot throws(FeatureStoreError) in
            let current = snapshot.basket.quantity(ofProductID: product.id)
            let (sum, overflow) = current.addingReportingOverflow(quantity)
            guard !overflow, sum <= Self.maximumQuantity else {
                throw .quantityTooLarge(productID: product.id, current: current, adding: quantity)
            }
            snapshot.basket.add(product, quantity: quantity)
        }
    }

    /// Sets the quantity of a product in the basket (0 removes it) and saves.
    ///
    /// - Throws: ``FeatureStoreError/invalidQuantity(_:allowed:)`` outside 0…``maximumQuantity``,
    ///   ``FeatureStoreError/notInBasket(productID:)``.
    public func setQuantity(_ quantity: Int, forProductID productID: String) throws(FeatureStoreError) {
        guard (0...Self.maximumQuantity).contains(quantity) else {
            throw .invalidQuantity(quantity, allowed: 0...Self.maximumQuantity)
        }
        try change { snapshot throws(FeatureStoreError) in
            guard snapshot.basket.setQuantity(quantity, forProductID: productID) else {
                throw .notInBasket(productID: productID)
            }
        }
    }

    /// Removes the product with `productID` from the basket (if there) and saves.
    public func removeFromBasket(productID: String) throws(FeatureStoreError) {
        try change { snapshot throws(FeatureStoreError) in
            snapshot.basket.setQuantity(0, forProductID: productID)
        }
    }

    /// Empties the basket, saves, and returns what it held (the order placed).
    @discardableResult
    public func checkout() throws(FeatureStoreError) -> Basket {
        try change { snapshot throws(FeatureStoreError) in
            defer { snapshot.basket = Basket() }
            return snapshot.basket
        }
    }

    /// Applies `body` to the contents as they are on disk, saves them, and publishes the result.
    /// Nothing is saved or published when `body` throws.
    @discardableResult
    private func change<Result>(
        _ body: (inout FeatureStoreSnapshot) throws(FeatureStoreError) -> Result
    ) throws(FeatureStoreError) -> Result {
        let result = try saveChange(body)
        relay.publish()
        return result
    }

    private func saveChange<Result>(
        _ body: (inout FeatureStoreSnapshot) throws(FeatureStoreError) -> Result
    ) throws(FeatureStoreError) -> Result {
        changeLock.lock()
        defer { changeLock.unlock() }
        return try fileLock.withLock(waiting: lockWaiting) { () throws(FeatureStoreError) -> Result in
            let target = try StorePath.resolve(fileURL.path)
            var snapshot: FeatureStoreSnapshot
            if let known, FileStamp.of(path: target) == known.stamp {
                snapshot = known.snapshot  // the file is the version this store holds: no need to read it
            } else {
                readCount += 1
                snapshot =
                    try StoreFile.read(fileURL, target: target, maximumSize: maximumFileSize, clock: clock)?.snapshot
                    ?? relay.value
            }
            let result = try body(&snapshot)
            let data = try StoreFile.encode(snapshot)
            guard Int64(data.count) <= maximumFileSize else {
                throw .fileTooLarge(path: fileURL.path, size: Int64(data.count), limit: maximumFileSize)
            }
            known = nil  // until the new version is written and stamped
            try AtomicFile.replace(URL(fileURLWithPath: target), with: data)
            known = FileStamp.of(path: target).map { ($0, snapshot) }
            relay.stage { $0 = snapshot }
            return result
        }
    }
}
