import Testing

@testable import REPL

/// The prompt and the line, soft-wrapped at the terminal width, and the cursor's row and column.
@Suite struct EditorLayoutTests {
    private func layout(_ text: String, cursor: Int? = nil, prompt: String = "> ", width: Int = 10) -> EditorLayout {
        var editor = LineEditor()
        editor.setText(text)
        if let cursor { editor.cursor = cursor }
        return editor.layout(prompt: prompt, width: width)
    }

    @Test func emptyLineIsThePrompt() {
        #expect(layout("") == EditorLayout(rows: ["> "], cursorRow: 0, cursorColumn: 2))
        #expect(layout("", prompt: "") == EditorLayout(rows: [""], cursorRow: 0, cursorColumn: 0))
    }

    @Test func shortLineFitsOnOneRow() {
        #expect(layout("milk") == EditorLayout(rows: ["> milk"], cursorRow: 0, cursorColumn: 6))
        #expect(layout("milk", cursor: 1) == EditorLayout(rows: ["> milk"], cursorRow: 0, cursorColumn: 3))
    }

    @Test func wrapsAtWidthTenWithATwoColumnPrompt() {
        #expect(layout("abcdefghijk") == EditorLayout(rows: ["> abcdefgh", "ijk"], cursorRow: 1, cursorColumn: 3))
        #expect(layout("abcdefghijk", cursor: 7).cursorRow == 0)
        #expect(layout("abcdefghijk", cursor: 7).cursorColumn == 9)
        #expect(
            layout("abcdefghijk", cursor: 8)
                == EditorLayout(rows: ["> abcdefgh", "ijk"], cursorRow: 1, cursorColumn: 0))
        let long = String(repeating: "x", count: 25)
        #expect(layout(long).rows == ["> xxxxxxxx", "xxxxxxxxxx", "xxxxxxx"])
        #expect(layout(long).cursorRow == 2 && layout(long).cursorColumn == 7)
    }

    @Test func cursorAtTheEndOfAFullRowIsOnTheNextRow() {
        #expect(layout("abcdefgh") == EditorLayout(rows: ["> abcdefgh", ""], cursorRow: 1, cursorColumn: 0))
        // Not at the end: no empty row.
        #expect(layout("abcdefgh", cursor: 3) == EditorLayout(rows: ["> abcdefgh"], cursorRow: 0, cursorColumn: 5))
    }

    @Test func aWideCharacterThatDoesNotFitMovesToTheNextRow() {
        #expect(layout("abcdefg日") == EditorLayout(rows: ["> abcdefg", "日"], cursorRow: 1, cursorColumn: 2))
        #expect(layout("abcdefg日", cursor: 7) == EditorLayout(rows: ["> abcdefg", "日"], cursorRow: 1, cursorColumn: 0))
        #expect(layout("日本語です", width: 10).rows == ["> 日本語で", "す"])
    }

    @Test func combiningMarksTakeNoColumn() {
        #expect(layout("Cafe\u{301}") == EditorLayout(rows: ["> Cafe\u{301}"], cursorRow: 0, cursorColumn: 6))
        #expect(layout("e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}x").rows.count == 2)
    }

    @Test func widePromptAndEmoji() {
        #expect(
            layout("🚗🚗", prompt: "検索 ", width: 8) == EditorLayout(rows: ["検索 🚗", "🚗"], cursorRow: 1, cursorColumn: 2))
    }

    @Test func narrowWidthsNeverLoop() {
        #expect(
            layout("日本", prompt: "", width: 1) == EditorLayout(rows: ["日", "本", ""], cursorRow: 2, cursorColumn: 0))
        #expect(layout("ab", prompt: "", width: 0).rows == ["a", "b", ""])
    }
}
