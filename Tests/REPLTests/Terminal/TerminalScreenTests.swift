import Testing

@testable import REPL

/// What `TerminalScreen` draws, checked on a `VirtualTerminal`: the prompt, the live area under it, output
/// printed above, cutting to the window, leaving.
@Suite struct TerminalScreenTests {
    private func layout(_ line: String, cursor: Int? = nil) -> EditorLayout {
        EditorLayout(rows: ["> " + line], cursorRow: 0, cursorColumn: 2 + (cursor ?? line.count))
    }

    @Test func drawsThePromptThenTheLiveAreaWithTheCursorInTheLine() {
        var screen = TerminalScreen(width: 40, height: 10)
        var terminal = VirtualTerminal(width: 40, height: 10)
        screen.setLive(["results for \"fo\"", "  #1 Ford"])
        terminal.write(screen.draw(layout("fo")))
        #expect(terminal.lines == ["> fo", "results for \"fo\"", "  #1 Ford"])
        #expect(terminal.row == 0)
        #expect(terminal.column == 4)
    }

    @Test func aRedrawReplacesTheLiveAreaInPlace() {
        var screen = TerminalScreen(width: 40, height: 10)
        var terminal = VirtualTerminal(width: 40, height: 10)
        screen.setLive(["searching…", "a", "b", "c"])
        terminal.write(screen.draw(layout("fo")))
        screen.setLive(["no products match"])
        terminal.write(screen.draw(layout("foc", cursor: 1)))
        #expect(terminal.lines == ["> foc", "no products match"])
        #expect(terminal.column == 3)
    }

    @Test func outputIsPrintedAboveThePromptAndThePartialLineIsRedrawnUnderIt() {
        var screen = TerminalScreen(width: 40, height: 10)
        var terminal = VirtualTerminal(width: 40, height: 10)
        terminal.write(screen.draw(layout("")))
        terminal.write(screen.print(["> :fetch"], above: layout("")))
        screen.setLive(["results"])
        terminal.write(screen.draw(layout("ab")))
        terminal.write(screen.print(["HTTP 200, count 1"]))  // asynchronous: the last layout is redrawn
        #expect(terminal.lines == ["> :fetch", "HTTP 200, count 1", "> ab", "results"])
        #expect(terminal.row == 2)
        #expect(terminal.column == 4)
    }

    @Test func printingManyLinesScrollsThemIntoTheScrollbackInOrderWithOnePromptAtTheBottom() {
        var screen = TerminalScreen(width: 20, height: 4)
        var terminal = VirtualTerminal(width: 20, height: 4)
        screen.setLive(["live"])
        terminal.write(screen.draw(layout("x")))
        for index in 1...6 { terminal.write(screen.print(["line \(index)"])) }
        #expect(terminal.everything == ["line 1", "line 2", "line 3", "line 4", "line 5", "line 6", "> x", "live"])
    }

    @Test func rowsAreCutToTheWidthAndTheLiveAreaToTheRowsLeft() {
        var screen = TerminalScreen(width: 10, height: 5)
        var terminal = VirtualTerminal(width: 10, height: 5)
        screen.setLive((1...8).map { "row \($0) is long" })
        terminal.write(screen.draw(layout("q")))
        // 5 rows: the line, then 4 for the live area less one kept free, the last saying what was left out.
        #expect(terminal.lines == ["> q", "row 1 is …", "row 2 is …", "… 6 more …"])
        #expect(terminal.scrollback.isEmpty)
        #expect(terminal.row == 0)
    }

    @Test func aWrappedEditorLineKeepsItsRowsAndTheCursorRow() {
        var screen = TerminalScreen(width: 10, height: 8)
        var terminal = VirtualTerminal(width: 10, height: 8)
        screen.setLive(["live"])
        let wrapped = EditorLayout(rows: ["> abcdefgh", "ijk"], cursorRow: 1, cursorColumn: 3)
        terminal.write(screen.draw(wrapped))
        terminal.write(screen.print(["out"]))
        #expect(terminal.lines == ["out", "> abcdefgh", "ijk", "live"])
        #expect(terminal.row == 2)
        #expect(terminal.column == 3)
    }

    @Test func leavingMovesUnderTheBlockAndTheNextDrawingStartsThere() {
        var screen = TerminalScreen(width: 20, height: 10)
        var terminal = VirtualTerminal(width: 20, height: 10)
        screen.setLive(["kept 1", "kept 2"])
        terminal.write(screen.draw(layout("focus")))
        terminal.write(screen.leave())
        #expect(terminal.row == 3)
        #expect(terminal.column == 0)
        #expect(terminal.lines == ["> focus", "kept 1", "kept 2"])
        #expect(screen.leave() == "")  // nothing drawn since
    }

    @Test func clearingTheScreenRedrawsTheBlockAtTheTop() {
        var screen = TerminalScreen(width: 20, height: 6)
        var terminal = VirtualTerminal(width: 20, height: 6)
        for index in 1...3 { terminal.write(screen.print(["old \(index)"], above: layout(""))) }
        screen.setLive(["live"])
        terminal.write(screen.clearScreen(layout("ab")))
        #expect(terminal.lines == ["> ab", "live"])
        #expect(terminal.row == 0)
    }
}
