import Testing

@testable import REPL

/// Keys in; text, cursor, events and layout out, as a person typing sees them.
@Suite struct LineEditorTests {
    /// Types `text` one scalar at a time, as the key decoder delivers it.
    private func type(_ text: String, into editor: inout LineEditor) {
        for scalar in text.unicodeScalars { _ = editor.handle(.character(Character(scalar))) }
    }

    private func editor(_ text: String, cursor: Int? = nil, history: [String] = []) -> LineEditor {
        var editor = LineEditor(history: EditHistory(entries: history))
        type(text, into: &editor)
        if let cursor { editor.cursor = cursor }
        return editor
    }

    // MARK: Typing and moving

    @Test func typingInsertsAtTheCursor() {
        var editor = LineEditor()
        #expect(editor.handle(.character("a")) == .edited)
        #expect(editor.handle(.character("c")) == .edited)
        #expect(editor.handle(.left) == .moved)
        #expect(editor.handle(.character("b")) == .edited)
        #expect(editor.text == "abc")
        #expect(editor.cursor == 2)
    }

    @Test func wideCharactersMoveByCharacterAndLayoutByColumn() {
        var editor = editor("日本")
        #expect(editor.handle(.left) == .moved)
        #expect(editor.handle(.character("x")) == .edited)
        #expect(editor.text == "日x本")
        #expect(editor.cursor == 2)
        let layout = editor.layout(prompt: "> ", width: 80)
        #expect(layout == EditorLayout(rows: ["> 日x本"], cursorRow: 0, cursorColumn: 2 + 3))
    }

    @Test func combiningMarkJoinsThePreviousCharacter() {
        var editor = editor("ae\u{301}")
        #expect(editor.text == "ae\u{301}")
        #expect(editor.cursor == 2)
        #expect(editor.handle(.backspace) == .edited)
        #expect(editor.text == "a")
        #expect(editor.text.unicodeScalars.count == 1)
        var other = self.editor("e\u{301}x", cursor: 0)
        #expect(other.handle(.right) == .moved)
        #expect(other.cursor == 1)
        #expect(other.handle(.delete) == .edited)
        #expect(other.text == "e\u{301}")
    }

    @Test func movesByCharacterAndToTheEnds() {
        var editor = editor("abc")
        #expect(editor.handle(.right) == .none)
        #expect(editor.handle(.control("b")) == .moved)
        #expect(editor.cursor == 2)
        #expect(editor.handle(.home) == .moved)
        #expect(editor.cursor == 0)
        #expect(editor.handle(.left) == .none)
        #expect(editor.handle(.control("f")) == .moved)
        #expect(editor.cursor == 1)
        #expect(editor.handle(.end) == .moved)
        #expect(editor.cursor == 3)
        #expect(editor.handle(.control("a")) == .moved)
        #expect(editor.cursor == 0)
        #expect(editor.handle(.control("e")) == .moved)
        #expect(editor.cursor == 3)
    }

    @Test func movesByWord() {
        var editor = editor(":sort price, name")
        #expect(editor.handle(.wordLeft) == .moved)
        #expect(editor.cursor == 13)
        #expect(editor.handle(.wordLeft) == .moved)
        #expect(editor.cursor == 6)
        #expect(editor.handle(.wordLeft) == .moved)
        #expect(editor.cursor == 1)
        #expect(editor.handle(.wordLeft) == .moved)
        #expect(editor.cursor == 0)
        #expect(editor.handle(.wordLeft) == .none)
        #expect(editor.handle(.wordRight) == .moved)
        #expect(editor.cursor == 5)
        #expect(editor.handle(.wordRight) == .moved)
        #expect(editor.cursor == 11)
        #expect(editor.handle(.wordRight) == .moved)
        #expect(editor.cursor == 17)
        #expect(editor.handle(.wordRight) == .none)
    }

    @Test func cursorIsClampedWhenSet() {
        var editor = editor("abc")
        editor.cursor = 99
        #expect(editor.cursor == 3)
        editor.cursor = -4
        #expect(editor.cursor == 0)
    }

    // MARK: Deleting and killing

    @Test func backspaceAndDelete() {
        var editor = editor("abcd", cursor: 2)
        #expect(editor.handle(.backspace) == .edited)
        #expect(editor.text == "acd" && editor.cursor == 1)
        #expect(editor.handle(.control("h")) == .edited)
        #expect(editor.text == "cd" && editor.cursor == 0)
        #expect(editor.handle(.backspace) == .none)
        #expect(editor.handle(.delete) == .edited)
        #expect(editor.text == "d" && editor.cursor == 0)
        editor.cursor = 1
        #expect(editor.handle(.delete) == .none)
    }

    @Test func ctrlDDeletesUnderTheCursorOrEndsInputOnAnEmptyLine() {
        var editor = editor("ab", cursor: 0)
        #expect(editor.handle(.control("d")) == .edited)
        #expect(editor.text == "b")
        #expect(editor.handle(.end) == .moved)
        #expect(editor.handle(.control("d")) == .none)
        #expect(editor.text == "b")
        #expect(editor.handle(.backspace) == .edited)
        #expect(editor.handle(.control("d")) == .endOfInput)
    }

    @Test func ctrlWKillsTheWhitespaceSeparatedWordBefore() {
        var editor = editor("foo bar  ")
        #expect(editor.handle(.control("w")) == .edited)
        #expect(editor.text == "foo ")
        #expect(editor.handle(.control("w")) == .edited)
        #expect(editor.text == "")
        #expect(editor.handle(.control("w")) == .none)
        var punctuated = self.editor(":sort price,name")
        #expect(punctuated.handle(.control("w")) == .edited)
        #expect(punctuated.text == ":sort ")
    }

    @Test func ctrlKAndCtrlUKillToTheEndsAndCtrlYYanks() {
        var editor = editor("hello world", cursor: 5)
        #expect(editor.handle(.control("k")) == .edited)
        #expect(editor.text == "hello" && editor.cursor == 5)
        #expect(editor.handle(.control("k")) == .none)
        #expect(editor.handle(.home) == .moved)
        #expect(editor.handle(.control("y")) == .edited)
        #expect(editor.text == " worldhello" && editor.cursor == 6)
        #expect(editor.handle(.control("u")) == .edited)
        #expect(editor.text == "hello" && editor.cursor == 0)
        #expect(editor.handle(.end) == .moved)
        #expect(editor.handle(.control("y")) == .edited)
        #expect(editor.text == "hello world" && editor.cursor == 11)
        var fresh = LineEditor()
        #expect(fresh.handle(.control("y")) == .none)
    }

    // MARK: Submitting, interrupting

    @Test func enterSubmitsAddsToHistoryAndEmpties() {
        var editor = editor("milk")
        #expect(editor.handle(.enter) == .submit("milk"))
        #expect(editor.text == "" && editor.cursor == 0)
        #expect(editor.history.entries == ["milk"])
        #expect(editor.handle(.enter) == .submit(""))
        #expect(editor.history.entries == ["milk"])
    }

    @Test func ctrlCInterruptsWithoutChangingTheText() {
        var editor = editor("half typed", cursor: 4)
        #expect(editor.handle(.control("c")) == .interrupt)
        #expect(editor.text == "half typed" && editor.cursor == 4)
        editor.clear()
        #expect(editor.text == "" && editor.cursor == 0)
    }

    @Test func ctrlLClearsTheScreenAndOtherKeysDoNothing() {
        var editor = editor("x")
        #expect(editor.handle(.control("l")) == .clearScreen)
        #expect(editor.handle(.unknown) == .none)
        #expect(editor.handle(.escape) == .none)
        #expect(editor.handle(.control("q")) == .none)
        #expect(editor.text == "x")
    }

    @Test func pasteInsertsTextAtTheCursor() {
        var editor = editor("ac", cursor: 1)
        #expect(editor.handle(.paste("b b")) == .edited)
        #expect(editor.text == "ab bc" && editor.cursor == 4)
    }

    @Test func terminalControlsNeverEnterTheLine() {
        var editor = LineEditor()
        #expect(editor.handle(.character("\u{1B}")) == .none)
        #expect(editor.handle(.paste("a\u{1B}[2Jb\u{9B}c\nd\te\u{202E}")) == .edited)
        #expect(editor.text == "a[2Jbc d e")
        editor.setText("x\ny\u{7}")
        #expect(editor.text == "x y" && editor.cursor == 3)
    }

    // MARK: History

    @Test func upAndDownWalkTheHistoryKeepingTheDraft() {
        var editor = editor("dra", history: ["first", "second"])
        #expect(editor.handle(.up) == .edited)
        #expect(editor.text == "second" && editor.cursor == 6)
        #expect(editor.handle(.control("p")) == .edited)
        #expect(editor.text == "first")
        #expect(editor.handle(.up) == .none)
        #expect(editor.text == "first")
        #expect(editor.handle(.down) == .edited)
        #expect(editor.text == "second")
        #expect(editor.handle(.control("n")) == .edited)
        #expect(editor.text == "dra" && editor.cursor == 3)
        #expect(editor.handle(.down) == .none)
        #expect(editor.text == "dra")
    }

    @Test func upWithNoHistoryDoesNothing() {
        var editor = editor("x")
        #expect(editor.handle(.up) == .none)
        #expect(editor.text == "x")
    }

    @Test func submittedLinesAreRecalledNewestFirst() {
        var editor = LineEditor()
        type("one", into: &editor)
        _ = editor.handle(.enter)
        type("two", into: &editor)
        _ = editor.handle(.enter)
        _ = editor.handle(.up)
        #expect(editor.text == "two")
        _ = editor.handle(.up)
        #expect(editor.text == "one")
        #expect(editor.handle(.enter) == .submit("one"))
        #expect(editor.history.entries == ["one", "two", "one"])
        #expect(editor.handle(.down) == .none)  // back on a fresh line
    }

    // MARK: Tab completion

    @Test func tabCompletesTheTextBeforeTheCursor() {
        let commands = [":sort ", ":source ", ":help "]
        let complete: (String) -> [String] = { before in commands.filter { $0.hasPrefix(before) } }
        var editor = editor(":he")
        #expect(editor.handle(.tab, completions: complete) == .edited)
        #expect(editor.text == ":help " && editor.cursor == 6)
        editor.setText(":s")
        #expect(editor.handle(.tab, completions: complete) == .edited)
        #expect(editor.text == ":so")
        #expect(editor.handle(.tab, completions: complete) == .showCompletions([":sort", ":source"]))
        #expect(editor.text == ":so")
        editor.setText(":x")
        #expect(editor.handle(.tab, completions: complete) == .bell)
        #expect(editor.handle(.tab) == .bell)
    }

    @Test func tabKeepsTheTextAfterTheCursorAndPassesOnlyTheTextBefore() {
        var received: [String] = []
        var editor = editor(":he milk", cursor: 3)
        let event = editor.handle(.tab) { before in
            received.append(before)
            return [":help "]
        }
        #expect(event == .edited)
        #expect(received == [":he"])
        #expect(editor.text == ":help  milk" && editor.cursor == 6)
    }

    // MARK: Reverse search

    @Test func reverseSearchFindsShowsAndSubmits() {
        var editor = editor("draft", history: [":sort price", "milk", ":sort name", "bread"])
        #expect(editor.handle(.control("r")) == .edited)
        #expect(editor.searchPrompt == "(reverse-i-search)'': ")
        type("sort", into: &editor)
        #expect(editor.text == ":sort name")
        #expect(editor.searchPrompt == "(reverse-i-search)'sort': ")
        #expect(editor.layout(prompt: "> ", width: 80).rows == ["(reverse-i-search)'sort': :sort name"])
        #expect(editor.layout(prompt: "> ", width: 80).cursorColumn == "(reverse-i-search)'sort': :".count)
        #expect(editor.handle(.control("r")) == .edited)
        #expect(editor.text == ":sort price")
        #expect(editor.handle(.control("r")) == .bell)
        #expect(editor.text == ":sort price")
        #expect(editor.handle(.enter) == .submit(":sort price"))
        #expect(editor.searchPrompt == nil)
        #expect(editor.text == "")
        #expect(editor.history.entries.last == ":sort price")
    }

    @Test func reverseSearchNarrowsAndFails() {
        var editor = editor("", history: ["milk", "mild cheese"])
        _ = editor.handle(.control("r"))
        type("mil", into: &editor)
        #expect(editor.text == "mild cheese")
        type("k", into: &editor)
        #expect(editor.text == "milk")
        type("x", into: &editor)
        #expect(editor.searchPrompt == "(failed reverse-i-search)'milkx': ")
        #expect(editor.text == "milk")
        #expect(editor.handle(.backspace) == .edited)
        #expect(editor.searchPrompt == "(reverse-i-search)'milk': ")
        #expect(editor.text == "milk")
    }

    @Test func escapeAcceptsTheMatchIntoTheLineWithoutSubmitting() {
        var editor = editor("draft", history: ["milk", "bread"])
        _ = editor.handle(.control("r"))
        type("mi", into: &editor)
        #expect(editor.handle(.escape) == .edited)
        #expect(editor.searchPrompt == nil)
        #expect(editor.text == "milk")
        #expect(editor.layout(prompt: "> ", width: 80).rows == ["> milk"])
        // Down continues from the entry found, then back to the draft.
        #expect(editor.handle(.down) == .edited)
        #expect(editor.text == "bread")
        #expect(editor.handle(.down) == .edited)
        #expect(editor.text == "draft")
    }

    @Test func ctrlGAndArrowsAcceptTooAndArrowsStillMove() {
        var editor = editor("", history: ["milk"])
        _ = editor.handle(.control("r"))
        type("lk", into: &editor)
        #expect(editor.cursor == 2)
        #expect(editor.handle(.control("g")) == .edited)
        #expect(editor.searchPrompt == nil && editor.text == "milk")
        _ = editor.handle(.control("r"))
        type("i", into: &editor)
        #expect(editor.handle(.left) == .edited)
        #expect(editor.searchPrompt == nil)
        #expect(editor.text == "milk" && editor.cursor == 0)
    }

    @Test func ctrlCCancelsTheSearchAndRestoresTheLine() {
        var editor = editor("draft", history: ["milk"])
        editor.cursor = 2
        _ = editor.handle(.control("r"))
        type("mi", into: &editor)
        #expect(editor.text == "milk")
        #expect(editor.handle(.control("c")) == .edited)
        #expect(editor.searchPrompt == nil)
        #expect(editor.text == "draft" && editor.cursor == 2)
    }

    @Test func searchMatchesWholeCharacters() {
        var editor = editor("", history: ["café", "cafe\u{301}s"])
        _ = editor.handle(.control("r"))
        type("cafe", into: &editor)
        #expect(editor.searchPrompt == "(failed reverse-i-search)'cafe': ")
        type("\u{301}", into: &editor)
        #expect(editor.searchPrompt == "(reverse-i-search)'cafe\u{301}': ")
        #expect(editor.text == "cafe\u{301}s")
    }
}
