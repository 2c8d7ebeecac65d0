import Testing

@testable import REPL

/// Which lines the history keeps.
@Suite struct EditHistoryTests {
    @Test func keepsLinesOldestFirst() {
        var history = EditHistory()
        history.add("milk")
        history.add(":sort price")
        #expect(history.entries == ["milk", ":sort price"])
    }

    @Test func ignoresBlankLines() {
        var history = EditHistory()
        history.add("")
        history.add("   ")
        history.add("\t")
        #expect(history.entries.isEmpty)
    }

    @Test func dropsConsecutiveDuplicatesOnly() {
        var history = EditHistory()
        for line in ["a", "a", "b", "a", "a"] { history.add(line) }
        #expect(history.entries == ["a", "b", "a"])
    }

    @Test func keepsTheNewestLimit() {
        var history = EditHistory(limit: 3)
        for line in ["1", "2", "3", "4", "5"] { history.add(line) }
        #expect(history.entries == ["3", "4", "5"])
        var none = EditHistory(limit: 0)
        none.add("x")
        #expect(none.entries.isEmpty)
    }

    @Test func initialEntriesFollowTheSameRules() {
        let history = EditHistory(entries: ["a", "a", " ", "b", "c", "d"], limit: 3)
        #expect(history.entries == ["b", "c", "d"])
        #expect(EditHistory(entries: ["x", "y"]) == EditHistory(entries: ["x", "", "y", "y"]))
    }
}
