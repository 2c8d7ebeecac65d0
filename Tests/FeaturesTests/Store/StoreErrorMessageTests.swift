import Foundation
import Testing

@testable import Features

#if canImport(Glibc)
    import Glibc
#endif

/// The store's errors against real files: each one sentence naming the store file, saying why in words (never
/// `NSCocoaErrorDomain error 256`, a permission message for a FIFO, a "malformed response" or a
/// `CodingKeys(…)` dump) and, for a file moved aside, how to put it back.
@Suite struct StoreErrorMessageTests {
    let temporary = TemporaryDirectory(prefix: "store-messages")
    var directory: URL { temporary.url }
    var fileURL: URL { directory.appendingPathComponent(FeatureStore.fileName) }

    private func openingError() -> FeatureStoreError? {
        do {
            _ = try FeatureStore(directory: directory)
            return nil
        } catch {
            return error
        }
    }

    private func reason(_ error: FeatureStoreError?) -> String? {
        guard case .corruptFile(_, _, let reason) = error else { return nil }
        return reason
    }

    private func expectReadable(_ error: FeatureStoreError?) {
        let text = error.map(\.description) ?? ""
        #expect(!text.isEmpty)
        for jargon in ["NSCocoaErrorDomain", "Error Domain", "permission", "CodingKeys", "malformed response", "\n"] {
            #expect(!text.contains(jargon), "\(text)")
        }
    }

    private func unreadableReason(_ error: FeatureStoreError?) -> String? {
        guard case .unreadableFile(let path, let reason) = error, path == fileURL.path else { return nil }
        return reason
    }

    @Test func aDirectoryInPlaceOfTheFileIsNamedAsSuchAndLeftInPlace() throws {
        try FileManager.default.createDirectory(at: fileURL, withIntermediateDirectories: true)
        let error = openingError()
        #expect(
            error?.description
                == "could not read the store file \(fileURL.path): it is a directory, not a file; move it away (the "
                + "store then starts empty) and start again")
        expectReadable(error)
        #expect(FileProblem.irregularKind(atPath: fileURL.path) == "a directory")
    }

    @Test func aFIFOIsNamedAsSuchAndNeverRead() throws {
        #expect(mkfifo(fileURL.path, 0o644) == 0)
        let error = openingError()
        #expect(unreadableReason(error)?.hasPrefix("it is a named pipe (FIFO), not a file") == true)
        expectReadable(error)
        #expect(FileProblem.irregularKind(atPath: fileURL.path) == "a named pipe (FIFO)")
    }

    @Test func aLinkToADeviceIsNamedAsSuchAndNeverRead() throws {
        try FileManager.default.createSymbolicLink(atPath: fileURL.path, withDestinationPath: "/dev/zero")
        let error = openingError()
        #expect(unreadableReason(error)?.hasPrefix("it is a device, not a file") == true)
        expectReadable(error)
    }

    @Test func aMissingKeyIsNamedByItsPathNotAsACodingKeyOrAResponse() throws {
        try Data(#"{"version":1}"#.utf8).write(to: fileURL)
        let error = openingError()
        #expect(reason(error) == #"not a valid store file: the field "fetchCount" is missing"#)
        expectReadable(error)
    }

    @Test func aBadFieldInAnItemIsNamedInWords() throws {
        let text = #"{"version":1,"fetchCount":0,"favourites":[],"basket":{"items":[{"quantity":1}]}}"#
        try Data(text.utf8).write(to: fileURL)
        let error = openingError()
        #expect(reason(error) == #"not a valid store file: the field "product" is missing in item 1 of basket.items"#)
        expectReadable(error)
    }

    @Test func brokenJSONIsNotAMalformedResponse() throws {
        try Data(#"{"version":1,"#.utf8).write(to: fileURL)
        let error = openingError()
        #expect(reason(error)?.hasPrefix("not a valid store file: it is not valid JSON") == true)
        expectReadable(error)
    }

    @Test func aCorruptFileSaysWhereItWentAndHowToRestoreIt() throws {
        try Data("garbage".utf8).write(to: fileURL)
        let error = openingError()
        guard case .corruptFile(let path, let movedTo, _) = error else {
            Issue.record("expected corruptFile, got \(String(describing: error))")
            return
        }
        let text = error?.description ?? ""
        #expect(text.contains("it was moved to \(movedTo)"))
        #expect(text.contains("starts again empty"))
        #expect(text.hasSuffix("to restore it, repair that file and move it back to \(path)"))
        expectReadable(error)
    }

    @Test func aDataDirectoryThatIsAFileIsNamedAsSuch() throws {
        let file = directory.appendingPathComponent("not-a-directory")
        try Data().write(to: file)
        #expect {
            try FeatureStore(directory: file)
        } throws: { error in
            (error as? FeatureStoreError) == .writeFailed(path: file.path, reason: "it exists and is not a directory")
        }
        let inside = file.appendingPathComponent("store")
        #expect {
            try FeatureStore(directory: inside)
        } throws: { error in
            (error as? FeatureStoreError)
                == .writeFailed(path: inside.path, reason: "\(file.path) is a file, not a directory")
        }
    }

    @Test func aFailedWriteNamesTheStoreNotItsTemporaryFile() throws {
        let missing = directory.appendingPathComponent("gone", isDirectory: true)
        let store = missing.appendingPathComponent(FeatureStore.fileName)
        #expect {
            try AtomicFile.replace(store, with: Data("{}".utf8))
        } throws: { error in
            guard case .writeFailed(let path, let reason) = error as? FeatureStoreError else { return false }
            return path == store.path && !reason.contains(".tmp-")
                && reason == "cannot create a temporary file in \(missing.path) (No such file or directory)"
        }
    }
}
