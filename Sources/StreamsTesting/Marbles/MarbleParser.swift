/// One event-like mark of a diagram, with its time from the diagram's first column.
struct MarbleToken: Equatable {
    enum Kind: Equatable {
        case value(Character)
        case finished
        case failure
        case subscription
        case cancellation
    }

    var kind: Kind
    var time: Duration
    /// 1-based column of the character.
    var column: Int
}

/// Turns diagram text into timed tokens. Shared by event diagrams and subscription diagrams, which then
/// check which marks they allow.
///
/// Grammar: `-` one frame; a value character, `|`, `#`, `^`, `!` each an event in the current frame, then one
/// frame passes; `(…)` several events in one frame, the group taking one frame; spaces align and take no
/// time; a whitespace-delimited `<number>ms` or `<number>s` lets that much time pass.
enum MarbleParser {
    static func tokens(of diagram: String, frame: Duration) throws(MarbleError) -> [MarbleToken] {
        let characters = Array(diagram)
        let frameLength = MarbleTime.attoseconds(frame)
        var tokens: [MarbleToken] = []
        var time: Int128 = 0  // exact, in attoseconds
        var group: (column: Int, count: Int)?
        var index = 0

        func fail(_ reason: String, at column: Int) -> MarbleError {
            MarbleError(diagram: diagram, column: column, reason: reason)
        }
        // Each step is at most `longest`, so stopping at twice that keeps the sum far from overflowing; a mark
        // must be within `longest` (a Duration's range).
        func advance(by length: Int128, at column: Int) throws(MarbleError) {
            time += length
            guard time <= 2 * MarbleTime.longest, time >= -2 * MarbleTime.longest else {
                throw fail("the diagram goes past the longest time it may reach (\(Int64.max) s)", at: column)
            }
        }
        func checkMark(at column: Int) throws(MarbleError) {
            guard time <= MarbleTime.longest, time >= -MarbleTime.longest else {
                throw fail("a mark past the longest time a diagram may reach (\(Int64.max) s)", at: column)
            }
        }

        while index < characters.count {
            let character = characters[index]
            let column = index + 1
            if character.isWhitespace {
                index += 1
                continue
            }
            if group == nil, index == 0 || characters[index - 1].isWhitespace,
                let (length, wordLength) = try timeProgression(in: characters, at: index, of: diagram)
            {
                try advance(by: length, at: column)
                index += wordLength
                continue
            }
            let kind: MarbleToken.Kind
            switch character {
            case "-":
                if let group {
                    throw fail("'-' inside the group opened at column \(group.column)", at: column)
                }
                try advance(by: frameLength, at: column)
                index += 1
                continue
            case "(":
                if let group {
                    throw fail("groups cannot nest (a group is open since column \(group.column))", at: column)
                }
                group = (column, 0)
                index += 1
                continue
            case ")":
                guard let open = group else { throw fail("')' closes no group", at: column) }
                if open.count == 0 { throw fail("empty group '()'", at: column) }
                group = nil
                try advance(by: frameLength, at: column)
                index += 1
                continue
            case "|": kind = .finished
            case "#": kind = .failure
            case "^": kind = .subscription
            case "!": kind = .cancellation
            default: kind = .value(character)
            }
            try checkMark(at: column)
            tokens.append(MarbleToken(kind: kind, time: MarbleTime.duration(attoseconds: time), column: column))
            if group != nil {
                group?.count += 1
            } else {
                try advance(by: frameLength, at: column)
            }
            index += 1
        }
        if let group {
            throw fail("'(' at column \(group.column) opens a group that is never closed", at: characters.count + 1)
        }
        return tokens
    }

    /// The parts of a time progression word, `<digits>[.<digits>](ms|s)`, or `nil` when `word` is not one.
    /// The one definition of what reads as a time progression (the renderer keeps value marks from forming one).
    static func progressionParts(_ word: Substring) -> (whole: Substring, fraction: Substring, perUnit: Int128)? {
        let unitLength: Int
        let perUnit: Int128
        if word.hasSuffix("ms") {
            unitLength = 2
            perUnit = MarbleTime.perMillisecond
        } else if word.hasSuffix("s") {
            unitLength = 1
            perUnit = MarbleTime.perSecond
        } else {
            return nil
        }
        let number = word.dropLast(unitLength)
        let isDigit = { (character: Character) in character.isASCII && character.isNumber }
        guard let first = number.first, isDigit(first), number.last != "." else { return nil }
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.allSatisfy({ $0.allSatisfy(isDigit) }) else { return nil }
        return (parts[0], parts.count > 1 ? parts[1] : "", perUnit)
    }

    /// A whitespace-delimited time progression starting at `start`: its exact length in attoseconds and the
    /// word's length in characters.
    private static func timeProgression(
        in characters: [Character], at start: Int, of diagram: String
    ) throws(MarbleError) -> (Int128, Int)? {
        var end = start
        while end < characters.count, !characters[end].isWhitespace { end += 1 }
        let word = String(characters[start..<end])
        guard let (whole, fraction, perUnit) = progressionParts(word[...]) else { return nil }
        func fail(_ reason: String) -> MarbleError {
            MarbleError(diagram: diagram, column: start + 1, reason: "time progression '\(word)' \(reason)")
        }
        var amount: Int128 = 0
        for digit in whole {
            amount = amount * 10 + Int128(digit.wholeNumberValue ?? 0)
            guard amount <= MarbleTime.longest else { throw fail("is too long (at most \(Int64.max) s)") }
        }
        amount *= perUnit
        var scale = perUnit
        for digit in fraction {
            let value = Int128(digit.wholeNumberValue ?? 0)
            if scale == 1 {
                guard value == 0 else { throw fail("is finer than an attosecond") }
                continue
            }
            scale /= 10
            amount += value * scale
        }
        guard amount <= MarbleTime.longest else { throw fail("is too long (at most \(Int64.max) s)") }
        return (amount, word.count)
    }
}
