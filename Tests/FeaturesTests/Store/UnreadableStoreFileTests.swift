import Foundation
import Testing

@testable import Features

#if canImport(Glibc)
    import Glibc
#endif

/// A store file that cannot be *read* (no permission, a directory in its place) is reported with what to do
/// and left where it is — never treated as corrupt and moved aside. Only unparseable content is moved aside.
@Suite struct UnreadableStoreFileTests {
    let temporary = TemporaryDirectory(prefix: "store-unreadable")
    var directory: URL { temporary.url }
    var fileURL: URL { directory.appendingPathComponent(FeatureStore.fileName) }

    private var movedAside: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
            $0.contains(".corrupt-")
        }
    }

    private func openingError() -> FeatureStoreError? {
        do {
            _ = try FeatureStore(directory: directory)
            return nil
        } catch {
            return error
        }
    }

    @Test func aFileWithoutReadPermissionIsReportedAndLeftInPlace() throws {
        let isRoot = geteuid() == 0
        if isRoot {
            // Root reads a mode-000 file anyway; a directory in place of the file fails for root too, so this
            // test always checks that an unreadable store is reported and kept.
            try FileManager.default.createDirectory(at: fileURL, withIntermediateDirectories: true)
            let error = openingError()
            #expect(
                error?.description
                    == "could not read the store file \(fileURL.path): it is a directory, not a file; move it away "
                    + "(the store then starts empty) and start again")
            #expect(movedAside.isEmpty)
            #expect(FileProblem.irregularKind(atPath: fileURL.path) == "a directory")
            return
        }
        let store = try FeatureStore(directory: directory)
        try store.incrementFetchCount()
        let bytes = try Data(contentsOf: fileURL)
        #expect(chmod(fileURL.path, 0) == 0)
        defer { chmod(fileURL.path, 0o600) }
        let error = openingError()
        #expect(
            error
                == .unreadableFile(
                    path: fileURL.path,
                    reason: "permission denied; fix its permissions (chmod 600 \(fileURL.path)) and start again"))
        #expect(
            error?.description
                == "could not read the store file \(fileURL.path): permission denied; fix its permissions "
                + "(chmod 600 \(fileURL.path)) and start again")
        #expect(movedAside.isEmpty)
        #expect(FileManager.default.fileExists(atPath: fileURL.path))
        // Once readable again, nothing was lost.
        #expect(chmod(fileURL.path, 0o600) == 0)
        #expect(try Data(contentsOf: fileURL) == bytes)
        #expect(try FeatureStore(directory: directory).snapshot.fetchCount == 1)
    }

    @Test func aChangeAfterTheFileBecameUnreadableFailsAndKeepsIt() throws {
        guard geteuid() != 0 else { return }  // root reads mode 000; covered by the directory case above
        let store = try FeatureStore(directory: directory)
        try store.incrementFetchCount()
        // Another writer replaces the file (so this store must read it again) and makes it unreadable.
        let other = try FeatureStore(directory: directory)
        try other.incrementFetchCount()
        #expect(chmod(fileURL.path, 0) == 0)
        defer { chmod(fileURL.path, 0o600) }
        #expect {
            try store.incrementFetchCount()
        } throws: { error in
            guard case .unreadableFile(let path, let reason) = error as? FeatureStoreError else { return false }
            return path == fileURL.path && reason.hasPrefix("permission denied")
        }
        #expect(movedAside.isEmpty)
        #expect(chmod(fileURL.path, 0o600) == 0)
        #expect(try FeatureStore(directory: directory).snapshot.fetchCount == 2)
    }

    @Test func unparseableContentIsStillMovedAside() throws {
        try Data("not json".utf8).write(to: fileURL)
        guard case .corruptFile(let path, let movedTo, let reason) = openingError() else {
            Issue.record("expected corruptFile")
            return
        }
        #expect(path == fileURL.path && reason.hasPrefix("not a valid store file: it is not valid JSON"))
        #expect(movedAside.count == 1 && movedTo.contains(".corrupt-"))
        #expect(!FileManager.default.fileExists(atPath: fileURL.path))
    }
}
