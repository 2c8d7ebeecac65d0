/// Lays out timelines of events as marble diagrams, aligned column by column.
///
/// Each distinct event time gets one column in every line: a line with no event there shows `-`, one with
/// several shows a group `(ab)`, padded with spaces (which diagrams ignore) so the columns line up. Gaps up to
/// ``longestDashRun`` frames are drawn as dashes, longer ones (or ones that are not whole frames) as exact time
/// progressions (` 250ms `, ` 1.000001ms `). Times before zero put a `^` at zero. A value mark that would start
/// a word reading as a time progression (`3` before `m`, `s`) is drawn as the group `(3)`.
///
/// The output always parses back to the same times, except when two times fall within one frame: the later
/// is then drawn one column later, and the result is marked approximate.
struct MarbleRenderer {
    /// A mark at a time: a value symbol, `|` or `#`.
    struct Mark {
        var time: Duration
        var symbol: String
    }

    static let longestDashRun = 30

    let frame: Duration

    /// One diagram per line of marks (each line sorted by time), all the same width.
    func render(_ lines: [[Mark]]) -> (diagrams: [String], isApproximate: Bool) {
        let lines = Self.markingZero(lines)
        let times = Set(lines.flatMap { $0.map(\.time) }).sorted()
        var columns: [(filler: String, cells: [String])] = []
        var cursor = min(times.first ?? .zero, .zero)
        var isApproximate = false
        var next = Array(repeating: 0, count: lines.count)
        for time in times {
            let gap = time - cursor
            var filler = ""
            if gap < .zero {
                isApproximate = true  // within the previous column's frame: drawn one column later
            } else if gap > .zero {
                filler = filling(gap)
            }
            var cells: [String] = []
            for (index, line) in lines.enumerated() {
                var symbols: [String] = []
                while next[index] < line.count, line[next[index]].time == time {
                    symbols.append(line[next[index]].symbol)
                    next[index] += 1
                }
                cells.append(symbols.count <= 1 ? symbols.first ?? "" : "(" + symbols.joined() + ")")
            }
            columns.append((filler, cells))
            cursor = max(time, cursor) + frame
        }
        return (Self.layOut(columns, lineCount: lines.count), isApproximate)
    }

    /// The lines with a `^` at time zero (first in its frame) when any mark is before zero, so the diagram
    /// parses back with the same zero.
    private static func markingZero(_ lines: [[Mark]]) -> [[Mark]] {
        guard lines.contains(where: { $0.contains { $0.time < .zero } }) else { return lines }
        return lines.map { line in
            var line = line
            line.insert(Mark(time: .zero, symbol: "^"), at: line.firstIndex { $0.time >= .zero } ?? line.count)
            return line
        }
    }

    /// Joins the columns into aligned lines; a value mark starting a word that would read as a time
    /// progression is wrapped in a group, and the layout redone (wider columns) until none does.
    private static func layOut(_ columns: [(filler: String, cells: [String])], lineCount: Int) -> [String] {
        var wrapped = Array(repeating: Set<Int>(), count: lineCount)
        while true {
            func cell(_ line: Int, _ column: Int) -> String {
                let text = columns[column].cells[line]
                return text.isEmpty ? "-" : wrapped[line].contains(column) ? "(" + text + ")" : text
            }
            let widths = columns.indices.map { column in
                (0..<lineCount).map { cell($0, column).count }.max() ?? 1
            }
            var changed = false
            var output: [String] = []
            for line in 0..<lineCount {
                var characters: [Character] = []
                var cellStarts: [Int: Int] = [:]  // character offset → column
                for (column, width) in widths.enumerated() {
                    characters += columns[column].filler
                    cellStarts[characters.count] = column
                    let text = cell(line, column)
                    characters += text
                    characters += repeatElement(" ", count: width - text.count)
                }
                // Trailing dashes and padding say nothing; drop them.
                while let last = characters.last, last == " " || last == "-" { characters.removeLast() }
                for start in cellStarts.keys where start < characters.count {
                    guard start == 0 || characters[start - 1].isWhitespace,
                        let first = characters[start].asciiValue, (48...57).contains(first),
                        let column = cellStarts[start]
                    else { continue }
                    var end = start
                    while end < characters.count, !characters[end].isWhitespace { end += 1 }
                    if MarbleParser.progressionParts(String(characters[start..<end])[...]) != nil {
                        wrapped[line].insert(column)
                        changed = true
                    }
                }
                output.append(String(characters))
            }
            if !changed { return output }
        }
    }

    /// Dashes for a whole number of frames up to ``longestDashRun``, else exact time progressions (each at
    /// most ``MarbleTime/longest``).
    private func filling(_ gap: Duration) -> String {
        if let frames = MarbleTime.wholeFrames(gap, frame: frame), frames <= Self.longestDashRun {
            return String(repeating: "-", count: frames)
        }
        var remaining = MarbleTime.attoseconds(gap)
        var words: [String] = []
        while remaining > 0 {
            let part = min(remaining, MarbleTime.longest)
            words.append(MarbleTime.progression(attoseconds: part))
            remaining -= part
        }
        return " " + words.joined(separator: " ") + " "
    }
}

/// Chooses the character that stands for each value in a rendered diagram, and a legend for the rest.
///
/// A value equal to one in `values:` takes that key; a value whose description is one letter or digit
/// (not otherwise a key) stands for itself; any other value gets a fresh letter, listed in the legend.
struct MarbleSymbols<Output> {
    private let lookup: (Output) -> Character?
    private let reserved: Set<Character>
    private var assigned: [String: Character] = [:]
    private var literals: Set<Character> = []
    /// Every character taken (reserved, literal or assigned), and how far the pool has been searched.
    private var used: Set<Character>
    private var poolIndex: String.Index
    private(set) var legend: [(Character, String)] = []

    private static var pool: String { "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyzαβγδεζηθικλμνξοπρστυφχψω" }

    /// - Parameters:
    ///   - lookup: the key of `values:` a value equals, if any; a key a diagram could not read back as a value
    ///     (a space, `-`, `(`, `)`, `|`, `#`, `^`, `!`) is not used.
    ///   - reserved: characters no other value may stand for (the keys of `values:`).
    init(lookup: @escaping (Output) -> Character?, reserved: Set<Character>) {
        self.lookup = { value in lookup(value).flatMap { Self.isValueMark($0) ? $0 : nil } }
        self.reserved = reserved
        used = reserved
        poolIndex = Self.pool.startIndex
    }

    /// Whether a diagram reads `character` as a value (not as syntax, not as spacing).
    static func isValueMark(_ character: Character) -> Bool {
        !character.isWhitespace && !"-()|#^!".contains(character)
    }

    /// Reserves the characters that `values` will stand for by themselves, so no fresh letter collides.
    mutating func reserveLiterals(_ values: [Output]) {
        for value in values where lookup(value) == nil {
            if let character = literal(value) {
                literals.insert(character)
                used.insert(character)
            }
        }
    }

    mutating func symbol(for value: Output) -> Character {
        if let key = lookup(value) { return key }
        if let character = literal(value) { return character }
        let description = String(describing: value)
        if let symbol = assigned[description] { return symbol }
        let pool = Self.pool
        while poolIndex < pool.endIndex, used.contains(pool[poolIndex]) { poolIndex = pool.index(after: poolIndex) }
        let symbol: Character = poolIndex < pool.endIndex ? pool[poolIndex] : "?"
        used.insert(symbol)
        assigned[description] = symbol
        legend.append((symbol, description))
        return symbol
    }

    /// The events as marks to render: each value as its symbol, `|` and `#` for completions.
    mutating func marks<Failure: Error>(for events: [RecordedEvent<Output, Failure>]) -> [MarbleRenderer.Mark] {
        events.map { event in
            switch event {
            case .value(let value, let time): .init(time: time, symbol: String(symbol(for: value)))
            case .finished(let time): .init(time: time, symbol: "|")
            case .failure(_, let time): .init(time: time, symbol: "#")
            }
        }
    }

    /// The value's one-character description, if it is a letter or digit that is not a key of `values:`.
    private func literal(_ value: Output) -> Character? {
        let description = String(describing: value)
        guard description.count == 1, let character = description.first,
            character.isLetter || character.isNumber, !reserved.contains(character)
        else { return nil }
        return character
    }

    /// `where A = "hello", B = 42`, or empty.
    var legendText: String {
        legend.isEmpty ? "" : "where " + legend.map { "\($0.0) = \($0.1)" }.joined(separator: ", ")
    }
}
