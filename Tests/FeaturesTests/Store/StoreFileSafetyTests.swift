import Foundation
import Streams
import Testing

@testable import Features

#if canImport(Glibc)
    import Glibc
#endif

/// A clock that moves only when the store "sleeps": the lock wait runs on virtual time.
private final class VirtualClock: Sendable {
    private let time = Locked(Duration.zero)
    private let sleeps = Locked(0)
    /// Called after each sleep with the number of sleeps so far.
    let afterSleep: @Sendable (Int) -> Void

    init(afterSleep: @escaping @Sendable (Int) -> Void = { _ in }) { self.afterSleep = afterSleep }

    var now: Duration { time.withLock { $0 } }
    var sleepCount: Int { sleeps.withLock { $0 } }

    func waiting(timeout: Duration = .seconds(30), messages: Locked<[String]>) -> StoreLockWaiting {
        StoreLockWaiting(
            timeout: timeout, pollInterval: .milliseconds(50), now: { self.now },
            sleep: { duration in
                self.time.withLock { $0 += duration }
                self.afterSleep(self.sleeps.withLock { count in
                    count += 1
                    return count
                })
            },
            onWait: { message in messages.withLock { $0.append(message) } })
    }
}

/// An exclusive `flock` on a file, as another process holding the store's lock has it.
private final class HeldLock: Sendable {
    private let descriptor: Int32
    init(path: String) throws {
        descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0 && flock(descriptor, LOCK_EX | LOCK_NB) == 0)
    }
    func release() { flock(descriptor, LOCK_UN) }
    deinit { close(descriptor) }
}

/// The store against real files for what other processes and crashes leave: a held lock, a symbolic link, a
/// killed writer's temporary file, a huge file.
@Suite struct StoreFileSafetyTests {
    private let temporary = TemporaryDirectory(prefix: "store-safety")
    private var directory: URL { temporary.url }
    private var fileURL: URL { directory.appendingPathComponent(FeatureStore.fileName) }
    private var lockPath: String { directory.appendingPathComponent(FeatureStore.lockFileName).path }

    private func files(in url: URL? = nil) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: (url ?? directory).path)) ?? []).sorted()
    }

    private func product() throws -> Product { try #require(Fixtures.products.first) }

    // MARK: Lock

    @Test func aHeldLockIsWaitedForWithOneMessageThenGivenUpAfterTheBound() throws {
        let messages = Locked<[String]>([])
        let clock = VirtualClock()
        let store = try FeatureStore(directory: directory, lockWaiting: clock.waiting(messages: messages))
        try store.incrementFetchCount()
        let held = try HeldLock(path: lockPath)
        #expect(throws: FeatureStoreError.storeLocked(path: lockPath, waited: .seconds(30))) {
            try store.incrementFetchCount()
        }
        #expect(clock.now == .seconds(30))
        #expect(clock.sleepCount == 600)  // every 50 ms: never blocked inside flock
        #expect(messages.withLock { $0 } == [
            "the store is locked by another streams-repl (lock file \(lockPath)); waiting up to 30 s for it…"
        ])
        #expect(store.snapshot.fetchCount == 1)
        held.release()
        #expect(try store.incrementFetchCount() == 2)
        let error = FeatureStoreError.storeLocked(path: lockPath, waited: .seconds(30))
        #expect(error.description.contains("locked by another streams-repl"))
        #expect(error.description.contains("30 s"))
    }

    @Test func aLockReleasedDuringTheWaitIsTaken() throws {
        let holder = Locked<HeldLock?>(nil)
        let clock = VirtualClock { sleeps in
            if sleeps == 3 { holder.withLock { $0 }?.release() }
        }
        let messages = Locked<[String]>([])
        let store = try FeatureStore(directory: directory, lockWaiting: clock.waiting(messages: messages))
        let held = try HeldLock(path: lockPath)
        holder.withLock { $0 = held }
        #expect(try store.incrementFetchCount() == 1)
        #expect(clock.now == .milliseconds(150))
        #expect(messages.withLock { $0.count } == 1)
    }

    @Test func openingWaitsToo_andACancelledWaitStopsAtOnce() throws {
        let held = try HeldLock(path: lockPath)
        let messages = Locked<[String]>([])
        let clock = VirtualClock()
        #expect(throws: FeatureStoreError.storeLocked(path: lockPath, waited: .seconds(2))) {
            try FeatureStore(directory: directory, lockWaiting: clock.waiting(timeout: .seconds(2), messages: messages))
        }
        let cancelled = StoreLockWaiting(isCancelled: { true }, onWait: { _ in })
        #expect(throws: FeatureStoreError.self) { try FeatureStore(directory: directory, lockWaiting: cancelled) }
        held.release()
        #expect(try FeatureStore(directory: directory).snapshot == .empty)
    }

    /// A short bounded real wait: the default clock and sleep.
    @Test func theRealClockWaitIsBounded() throws {
        let held = try HeldLock(path: lockPath)
        defer { held.release() }
        let start = ContinuousClock.now
        #expect(throws: FeatureStoreError.self) {
            try FeatureStore(directory: directory, lockWaiting: StoreLockWaiting(timeout: .milliseconds(120)))
        }
        let waited = ContinuousClock.now - start
        #expect(waited >= .milliseconds(120) && waited < .seconds(5))
    }

    // MARK: Symbolic links

    @Test func aChangeIsWrittenThroughASymbolicLinkAndTheLinkStays() throws {
        let elsewhere = directory.appendingPathComponent("elsewhere", isDirectory: true)
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let target = elsewhere.appendingPathComponent("real-store.json")
        let seed = FeatureStoreSnapshot(version: 1, fetchCount: 4, favourites: [], basket: Basket())
        try JSONEncoder().encode(seed).write(to: target)
        try FileManager.default.createSymbolicLink(atPath: fileURL.path, withDestinationPath: "elsewhere/real-store.json")

        let store = try FeatureStore(directory: directory)
        #expect(store.snapshot.fetchCount == 4)
        try store.incrementFetchCount()
        try store.addFavourite(try product())

        let kind = try FileManager.default.attributesOfItem(atPath: fileURL.path)[.type] as? FileAttributeType
        #expect(kind == .typeSymbolicLink)
        let written = try JSONDecoder().decode(FeatureStoreSnapshot.self, from: Data(contentsOf: target))
        #expect(written.fetchCount == 5)
        #expect(written.favourites.count == 1)
        #expect(try FeatureStore(directory: directory).snapshot == written)
        #expect(files(in: elsewhere) == ["real-store.json"])  // no temporary file left next to the target
    }

    @Test func aDanglingLinkIsRefusedNotTreatedAsNoStore() throws {
        try FileManager.default.createSymbolicLink(atPath: fileURL.path, withDestinationPath: "missing/store.json")
        #expect(throws: FeatureStoreError.danglingLink(path: fileURL.path, target: "missing/store.json")) {
            try FeatureStore(directory: directory)
        }
        let kind = try FileManager.default.attributesOfItem(atPath: fileURL.path)[.type] as? FileAttributeType
        #expect(kind == .typeSymbolicLink)  // left as it was
        #expect(FeatureStoreError.danglingLink(path: "/s", target: "/t").description.contains("does not exist"))
    }

    // MARK: Temporary files

    @Test func staleTemporaryFilesOfKilledWritersAreRemovedAtStartAndOnlyThose() throws {
        let dead = ".\(FeatureStore.fileName).tmp-999999999-12345"  // no such process (above any pid_max)
        let live = ".\(FeatureStore.fileName).tmp-\(getpid())-777"  // a running process, written just now
        let foreign = [".\(FeatureStore.fileName).tmp-abc", "notes.txt", ".other.json.tmp-999999999-1"]
        for name in [dead, live] + foreign {
            try Data("x".utf8).write(to: directory.appendingPathComponent(name))
        }
        let store = try FeatureStore(directory: directory)
        #expect(!files().contains(dead))
        #expect(files().contains(live))
        for name in foreign { #expect(files().contains(name)) }
        try store.incrementFetchCount()

        // An old one of a running process is removed too.
        let old = directory.appendingPathComponent(live)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -(AtomicFile.staleAge + 60))], ofItemAtPath: old.path)
        _ = try FeatureStore(directory: directory)
        #expect(!files().contains(live))
    }

    // MARK: Size and re-reading

    @Test func aHugeFileIsRefusedByItsSizeWithoutBeingRead() throws {
        // Sparse: 300 MB that take no room; reading it would take 300 MB of memory.
        let descriptor = open(fileURL.path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0)
        let size: Int64 = 300_000_000
        try #require(ftruncate(descriptor, off_t(size)) == 0)
        close(descriptor)
        #expect(throws: FeatureStoreError.fileTooLarge(path: fileURL.path, size: size, limit: FeatureStore.maximumFileSize)) {
            try FeatureStore(directory: directory)
        }
        #expect(files().filter { $0.contains("corrupt") }.isEmpty)  // left in place, not moved aside
    }

    @Test func aChangeThatWouldPassTheLimitIsRefused() throws {
        let store = try FeatureStore(directory: directory, maximumFileSize: 400)
        try store.incrementFetchCount()
        #expect(throws: FeatureStoreError.self) { try store.addFavourite(try product()) }
        #expect(store.snapshot.favourites.isEmpty)
        #expect(try FeatureStore(directory: directory).snapshot.fetchCount == 1)
    }

    @Test func anUnchangedFileIsNotReadAgainButAnotherWritersChangeIs() throws {
        try Data(#"{"version":1,"fetchCount":5,"favourites":[],"basket":{"items":[]}}"#.utf8).write(to: fileURL)
        let store = try FeatureStore(directory: directory)
        #expect(store.fileReads == 1)
        for _ in 0..<5 { try store.incrementFetchCount() }
        #expect(store.fileReads == 1)  // each change wrote the file; none read it back
        // Another store's write (a new inode) is seen: read once, then not again.
        let other = try FeatureStore(directory: directory)
        try other.incrementFetchCount()
        #expect(try store.incrementFetchCount() == 12)
        #expect(try store.incrementFetchCount() == 13)
        #expect(store.fileReads == 2)
        #expect(try FeatureStore(directory: directory).snapshot.fetchCount == 13)
    }
}
