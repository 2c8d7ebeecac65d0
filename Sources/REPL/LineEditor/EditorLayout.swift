/// What the screen shows for the prompt and the line being edited, soft-wrapped at the terminal width, and
/// where the cursor is.
///
/// Rows are cut by display width (``DisplayWidth``): a wide character that does not fit at the end of a row
/// starts the next one. When the cursor is right after the last column of a full row, it is at column 0 of
/// the next row (an empty last row is added for it when needed), as a terminal would put it.
///
/// ```swift
/// var editor = LineEditor()
/// editor.setText("abcdefghij")
/// editor.layout(prompt: "> ", width: 6)
/// // EditorLayout(rows: ["> abcd", "efghij", ""], cursorRow: 2, cursorColumn: 0)
/// ```
public struct EditorLayout: Equatable, Sendable {
    /// The rows, top to bottom, each at most the width (unless one character is wider than the width).
    public var rows: [String]
    /// The cursor's row, 0-based, into ``rows``.
    public var cursorRow: Int
    /// The cursor's column, 0-based, in terminal columns.
    public var cursorColumn: Int

    /// A layout of `rows` with the cursor at `cursorRow`, `cursorColumn`.
    public init(rows: [String], cursorRow: Int, cursorColumn: Int) {
        self.rows = rows
        self.cursorRow = cursorRow
        self.cursorColumn = cursorColumn
    }

    /// `prompt` followed by `text`, wrapped at `width` columns (at least 1), with the cursor before the
    /// character at offset `cursor` of `text` (in characters; clamped to the text).
    init(prompt: String, text: String, cursor: Int, width: Int) {
        let width = max(width, 1)
        var rows = [""]
        var column = 0
        var position: (row: Int, column: Int)?
        let cursorOffset = min(max(cursor, 0), text.count)
        func place(_ character: Character) {
            let characterWidth = DisplayWidth.of(character)
            if column > 0, column + characterWidth > width {
                rows.append("")
                column = 0
            }
            rows[rows.count - 1].append(character)
            column += characterWidth
        }
        for character in prompt { place(character) }
        for (offset, character) in text.enumerated() {
            if offset == cursorOffset {
                // The cursor is where this character starts: on the next row when it wraps.
                if column > 0, column + DisplayWidth.of(character) > width {
                    rows.append("")
                    column = 0
                }
                position = (rows.count - 1, column)
            }
            place(character)
        }
        if position == nil {
            if column >= width {
                rows.append("")
                column = 0
            }
            position = (rows.count - 1, column)
        }
        self.init(rows: rows, cursorRow: position?.row ?? 0, cursorColumn: position?.column ?? 0)
    }
}
