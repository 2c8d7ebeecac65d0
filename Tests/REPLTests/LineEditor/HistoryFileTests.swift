import Foundation
import Testing

@testable import REPL

/// The history file on disk: real files in a temporary directory, removed after each test.
@Suite struct HistoryFileTests {
    /// A fresh directory (not created yet) for one test; removed by `cleanUp`.
    private let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("HistoryFileTests-\(UUID().uuidString)")

    private func cleanUp() {
        try? FileManager.default.removeItem(at: directory)
    }

    @Test func saveThenLoadRoundTrips() throws {
        defer { cleanUp() }
        let file = HistoryFile(url: directory.appendingPathComponent("history"))
        let entries = ["milk", ":sort price", "日本 🚗 e\u{301}"]
        try file.save(entries)
        #expect(file.load() == entries)
        let text = try String(contentsOf: file.url, encoding: .utf8)
        #expect(text == "milk\n:sort price\n日本 🚗 e\u{301}\n")
    }

    @Test func createsAMissingDirectoryAndAFileOnlyTheOwnerCanRead() throws {
        defer { cleanUp() }
        let url = directory.appendingPathComponent("nested/deeper/history")
        try HistoryFile(url: url).save(["a"])
        #expect(HistoryFile(url: url).load() == ["a"])
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func saveReplacesTheFileAndLeavesNoTemporaryFile() throws {
        defer { cleanUp() }
        let file = HistoryFile(url: directory.appendingPathComponent("history"))
        try file.save(["one", "two", "three"])
        try file.save(["four"])
        #expect(file.load() == ["four"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["history"])
    }

    @Test func newlinesInsideAnEntryAreStoredAsSpaces() throws {
        defer { cleanUp() }
        let file = HistoryFile(url: directory.appendingPathComponent("history"))
        try file.save(["a\nb", "c\r\nd"])
        #expect(file.load() == ["a b", "c d"])
    }

    @Test func keepsTheNewestLimit() throws {
        defer { cleanUp() }
        let url = directory.appendingPathComponent("history")
        try HistoryFile(url: url, limit: 2).save(["1", "2", "3"])
        #expect(HistoryFile(url: url).load() == ["2", "3"])
        try HistoryFile(url: url).save(["1", "2", "3", "4"])
        #expect(HistoryFile(url: url, limit: 3).load() == ["2", "3", "4"])
    }

    @Test func missingFileLoadsAsEmpty() {
        defer { cleanUp() }
        #expect(HistoryFile(url: directory.appendingPathComponent("missing/history")).load() == [])
    }

    @Test func binaryGarbageLoadsWithoutCrashing() throws {
        defer { cleanUp() }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("history")
        var garbage = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }
        garbage += Array("\nmilk\n\n  \n".utf8) + [0xFF, 0xFE, 0x0A]
        try Data(garbage).write(to: url)
        let entries = HistoryFile(url: url).load()
        #expect(entries.contains("milk"))
        #expect(entries.allSatisfy { !$0.allSatisfy(\.isWhitespace) })
        #expect(entries.last == "\u{FFFD}\u{FFFD}")
    }

    @Test func aDirectoryInPlaceOfTheFileLoadsAsEmptyAndFailsToSaveWithASentence() throws {
        defer { cleanUp() }
        let url = directory.appendingPathComponent("history")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let file = HistoryFile(url: url)
        #expect(file.load() == [])
        let error = #expect(throws: HistoryFile.SaveError.self) { try file.save(["a"]) }
        #expect(error?.description.hasPrefix("could not save the history to \(url.path): ") == true)
        #expect(error?.reason.isEmpty == false)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["history"])
    }

    @Test func aFileInPlaceOfTheDirectoryFailsToSave() throws {
        defer { cleanUp() }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let blocker = directory.appendingPathComponent("blocker")
        try Data("x".utf8).write(to: blocker)
        let url = blocker.appendingPathComponent("history")
        let error = #expect(throws: HistoryFile.SaveError.self) { try HistoryFile(url: url).save(["a"]) }
        #expect(error?.description.hasPrefix("could not save the history to \(url.path): ") == true)
        #expect(error.map { !$0.description.contains("\n") } == true)
    }
}
