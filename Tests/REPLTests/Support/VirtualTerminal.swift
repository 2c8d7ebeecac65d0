/// A tiny terminal emulator for tests: it interprets the bytes ``TerminalScreen`` writes (printable text,
/// `\r`, `\n`, BEL, and the sequences cursor up/down/forward `ESC[nA`/`ESC[nB`/`ESC[nC`, clear to the end of
/// the screen `ESC[J`, home `ESC[H`, clear the screen `ESC[2J`) on a `width` × `height` grid with scrollback,
/// so tests assert what a person would see. Every character is one column wide (tests use ASCII); a row
/// that is full wraps on the next character, as xterm does.
struct VirtualTerminal {
    let width: Int
    let height: Int
    /// Rows scrolled off the top.
    private(set) var scrollback: [String] = []
    private var grid: [[Character]]
    private(set) var row = 0
    private(set) var column = 0
    private var pendingWrap = false
    /// How many times the bell rang.
    private(set) var bells = 0

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        grid = Array(repeating: [], count: height)
    }

    /// The visible rows, trailing spaces removed.
    var screen: [String] { grid.map { String($0).replacingTrailingSpaces() } }

    /// The visible rows without the empty rows at the bottom.
    var lines: [String] {
        var rows = screen
        while rows.last == "" { rows.removeLast() }
        return rows
    }

    /// The scrollback followed by the visible rows (without empty rows at the bottom).
    var everything: [String] { scrollback + lines }

    mutating func write(_ text: String) {
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            switch character {
            case "\r":
                column = 0
                pendingWrap = false
            case "\n":
                lineFeed()
                pendingWrap = false
            case "\r\n":
                column = 0
                lineFeed()
                pendingWrap = false
            case "\u{07}":
                bells += 1
            case "\u{1B}":
                guard characters.first == "[" else { continue }
                characters.removeFirst()
                var parameter = ""
                while let next = characters.first, next.isNumber || next == ";" || next == "?" {
                    parameter.append(next)
                    characters.removeFirst()
                }
                guard let command = characters.popFirst() else { return }
                let count = max(Int(parameter) ?? 1, 1)
                pendingWrap = false
                switch command {
                case "A": row = max(row - count, 0)
                case "B": row = min(row + count, height - 1)
                case "C": column = min(column + count, width - 1)
                case "D": column = max(column - count, 0)
                case "H":
                    row = 0
                    column = 0
                case "J":
                    if parameter == "2" {
                        grid = Array(repeating: [], count: height)
                    } else {
                        grid[row] = Array(grid[row].prefix(column))
                        for below in (row + 1)..<height { grid[below] = [] }
                    }
                case "K": grid[row] = Array(grid[row].prefix(column))
                default: break
                }
            default:
                if pendingWrap {
                    column = 0
                    lineFeed()
                    pendingWrap = false
                }
                while grid[row].count < column { grid[row].append(" ") }
                if column < grid[row].count {
                    grid[row][column] = character
                } else {
                    grid[row].append(character)
                }
                if column == width - 1 {
                    pendingWrap = true
                } else {
                    column += 1
                }
            }
        }
    }

    private mutating func lineFeed() {
        if row == height - 1 {
            scrollback.append(String(grid.removeFirst()).replacingTrailingSpaces())
            grid.append([])
        } else {
            row += 1
        }
    }
}

extension String {
    fileprivate func replacingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
