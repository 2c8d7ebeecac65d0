/// What the interactive REPL shows at the bottom of a terminal, and the bytes that draw it: a pure value (no
/// I/O), so every drawing decision is unit-tested without a terminal.
///
/// The screen is the terminal's scrollback, then a *block* the screen owns and redraws: the prompt with the
/// line being typed (one or more rows, as ``LineEditor/layout(prompt:width:)`` wraps it), then the *live
/// area* — the search results for what is being typed, replaced in place as they change.
///
/// - ``draw(_:)`` redraws the block: it moves the cursor up to the block's first row, clears to the end of
///   the screen, writes the rows, and puts the cursor where the editor's cursor is.
/// - ``print(_:above:)`` writes lines into the scrollback *above* the block (asynchronous output: a fetch
///   answer, a price refresh, an error), then redraws the block under them, so output never lands in the
///   middle of a half-typed line.
/// - ``resize(width:height:)`` takes a new window size; the next drawing uses it.
///
/// Every row written is cut to the window's width (so the terminal never wraps a row by itself and the
/// screen always knows how many rows it drew), the live area to the rows left in the window under the
/// editor. Lines printed above are written as they are (the terminal wraps long ones in the scrollback).
/// The bytes use only the most common ANSI sequences (cursor up `ESC[nA`, cursor forward `ESC[nC`, clear to
/// the end of the screen `ESC[J`, clear the screen `ESC[H ESC[2J`) and `\r\n` line ends, as the terminal is
/// in raw mode (no output processing).
///
/// ```swift
/// var screen = TerminalScreen(width: 80, height: 24)
/// let bytes = screen.draw(editor.layout(prompt: "> ", width: 80))   // write these to stdout
/// ```
public struct TerminalScreen: Sendable, Equatable {
    /// The window's width, in columns (at least 1).
    public private(set) var width: Int
    /// The window's height, in rows (at least 1).
    public private(set) var height: Int
    /// The live area's lines, as last set (before cutting to the window).
    public private(set) var live: [String] = []
    /// How many rows the block drawn last has, and the row of the block the cursor was left on.
    private var drawnRows = 0
    private var cursorRow = 0
    /// The editor layout drawn last (redrawn after printing above).
    private var lastLayout: EditorLayout?

    /// A screen `width` columns wide and `height` rows high, with nothing drawn yet.
    public init(width: Int, height: Int) {
        self.width = max(width, 1)
        self.height = max(height, 1)
    }

    /// Takes a new window size (after `SIGWINCH`); the next drawing uses it. (A terminal that rewraps its
    /// rows on a resize may leave a stale row above the block; Ctrl-L redraws a clean screen.)
    public mutating func resize(width: Int, height: Int) {
        self.width = max(width, 1)
        self.height = max(height, 1)
    }

    /// Replaces the live area's lines (drawn by the next ``draw(_:)``).
    public mutating func setLive(_ lines: [String]) {
        live = lines
    }

    /// The bytes that redraw the block: the editor `layout`, then the live area.
    public mutating func draw(_ layout: EditorLayout) -> String {
        lastLayout = layout
        var out = moveToBlockStart()
        out += "\r\u{1B}[J"
        out += block(layout)
        return out
    }

    /// The bytes that write `lines` into the scrollback above the block and redraw the block (with `layout`,
    /// or the one drawn last).
    public mutating func print(_ lines: [String], above layout: EditorLayout? = nil) -> String {
        var out = moveToBlockStart()
        out += "\r\u{1B}[J"
        for line in lines { out += line + "\r\n" }
        drawnRows = 0
        cursorRow = 0
        guard let layout = layout ?? lastLayout else { return out }
        lastLayout = layout
        return out + block(layout)
    }

    /// Forgets the block drawn last without writing anything (the terminal was used by another program, e.g.
    /// the shell while suspended): the next drawing starts a new block on the cursor's row.
    public mutating func forgetDrawing() {
        drawnRows = 0
        cursorRow = 0
    }

    /// The bytes that clear the whole window (Ctrl-L) and redraw the block at its top.
    public mutating func clearScreen(_ layout: EditorLayout) -> String {
        drawnRows = 0
        cursorRow = 0
        lastLayout = layout
        return "\u{1B}[H\u{1B}[2J" + block(layout)
    }

    /// The bytes that leave the block for good (the program ends, or a line is submitted and its block kept):
    /// the cursor goes to a new line under the block's last row; the next drawing starts a new block there.
    public mutating func leave() -> String {
        guard drawnRows > 0 else { return "" }
        let down = drawnRows - 1 - cursorRow
        drawnRows = 0
        cursorRow = 0
        lastLayout = nil
        return (down > 0 ? "\u{1B}[\(down)B" : "") + "\r\n"
    }

    // MARK: Drawing

    /// From the row the cursor was left on to the block's first row.
    private func moveToBlockStart() -> String {
        cursorRow > 0 ? "\u{1B}[\(cursorRow)A" : ""
    }

    /// Writes the block from the cursor's row (cleared), leaving the cursor at the editor's cursor.
    private mutating func block(_ layout: EditorLayout) -> String {
        var rows = layout.rows.isEmpty ? [""] : layout.rows
        rows = rows.map { DisplayWidth.truncated($0, toWidth: width) }
        let roomForLive = max(height - rows.count - 1, 0)
        var liveRows = live.map { DisplayWidth.truncated($0, toWidth: width) }
        if liveRows.count > roomForLive {
            liveRows = Array(liveRows.prefix(max(roomForLive - 1, 0)))
            if roomForLive > 0 {
                liveRows.append(DisplayWidth.truncated("… \(live.count - liveRows.count) more lines", toWidth: width))
            }
        }
        let all = rows + liveRows
        var out = all.joined(separator: "\r\n")
        let editorCursorRow = min(max(layout.cursorRow, 0), all.count - 1)
        let up = all.count - 1 - editorCursorRow
        if up > 0 { out += "\u{1B}[\(up)A" }
        out += "\r"
        let column = min(max(layout.cursorColumn, 0), width - 1)
        if column > 0 { out += "\u{1B}[\(column)C" }
        drawnRows = all.count
        cursorRow = editorCursorRow
        return out
    }
}
