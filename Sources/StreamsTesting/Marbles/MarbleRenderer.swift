/// Lays out timelines of events as marble diagrams, aligned column by column.
///
/// Each distinct event time gets one column in every line: a line with no event there shows `-`, one with
/// several shows a group `(ab)`, padded with spaces (which diagrams ignore) so the columns line up. Gaps up to
/// ``longestDashRun`` frames are drawn as dashes, longer ones as a time progression (` 250ms `). The
/// output parses back to the same times (whole frames; other times are rounded into the next column only
/// when two fall within one frame, and the result is then marked approximate).
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
        let times = Set(lines.flatMap { $0.map(\.time) }).sorted()
        var output = Array(repeating: "", count: lines.count)
        var cursor = min(times.first ?? .zero, .zero)
        var isApproximate = false
        var next = Array(repeating: 0, count: lines.count)
        for time in times {
            let gap = time - cursor
            if gap < .zero {
                isApproximate = true  // within the previous column's frame: drawn one column later
            } else if gap > .zero {
                let filler = filling(gap)
                for index in output.indices { output[index] += filler }
            }
            var cells: [String] = []
            for (index, line) in lines.enumerated() {
                var symbols: [String] = []
                while next[index] < line.count, line[next[index]].time == time {
                    symbols.append(line[next[index]].symbol)
                    next[index] += 1
                }
                cells.append(
                    symbols.isEmpty ? "-" : symbols.count == 1 ? symbols[0] : "(" + symbols.joined() + ")")
            }
            let width = cells.map(\.count).max() ?? 1
            for index in output.indices {
                output[index] += cells[index] + String(repeating: " ", count: width - cells[index].count)
            }
            cursor = max(time, cursor) + frame
        }
        // Trailing dashes and padding say nothing; drop them.
        let trimmed = output.map { String($0.reversed().drop(while: { $0 == " " || $0 == "-" }).reversed()) }
        return (trimmed, isApproximate)
    }

    /// Dashes for a whole number of frames up to ``longestDashRun``, else a time progression.
    private func filling(_ gap: Duration) -> String {
        if let frames = MarbleTime.wholeFrames(gap, frame: frame), frames <= Self.longestDashRun {
            return String(repeating: "-", count: frames)
        }
        return " " + MarbleTime.format(gap).replacingSpaces() + " "
    }
}

extension String {
    /// `"250 ms"` → `"250ms"`, the time progression form.
    fileprivate func replacingSpaces() -> String { String(filter { $0 != " " }) }
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
    private(set) var legend: [(Character, String)] = []

    init(lookup: @escaping (Output) -> Character?, reserved: Set<Character>) {
        self.lookup = lookup
        self.reserved = reserved
    }

    /// Reserves the characters that `values` will stand for by themselves, so no fresh letter collides.
    mutating func reserveLiterals(_ values: [Output]) {
        for value in values where lookup(value) == nil {
            if let character = literal(value) { literals.insert(character) }
        }
    }

    mutating func symbol(for value: Output) -> Character {
        if let key = lookup(value) { return key }
        if let character = literal(value) { return character }
        let description = String(describing: value)
        if let symbol = assigned[description] { return symbol }
        let used = reserved.union(literals).union(assigned.values)
        let pool = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyzαβγδεζηθικλμνξοπρστυφχψω"
        let symbol = pool.first { !used.contains($0) } ?? "?"
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
