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
        var tokens: [MarbleToken] = []
        var time = Duration.zero
        var group: (column: Int, count: Int)?
        var index = 0

        func fail(_ reason: String, at column: Int) -> MarbleError {
            MarbleError(diagram: diagram, column: column, reason: reason)
        }

        while index < characters.count {
            let character = characters[index]
            let column = index + 1
            if character.isWhitespace {
                index += 1
                continue
            }
            if group == nil, index == 0 || characters[index - 1].isWhitespace,
                let (duration, length) = try timeProgression(in: characters, at: index, of: diagram)
            {
                time += duration
                index += length
                continue
            }
            let kind: MarbleToken.Kind
            switch character {
            case "-":
                if let group {
                    throw fail("'-' inside the group opened at column \(group.column)", at: column)
                }
                time += frame
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
                time += frame
                index += 1
                continue
            case "|": kind = .finished
            case "#": kind = .failure
            case "^": kind = .subscription
            case "!": kind = .cancellation
            default: kind = .value(character)
            }
            tokens.append(MarbleToken(kind: kind, time: time, column: column))
            if group != nil {
                group?.count += 1
            } else {
                time += frame
            }
            index += 1
        }
        if let group {
            throw fail("'(' at column \(group.column) opens a group that is never closed", at: characters.count + 1)
        }
        return tokens
    }

    /// A whitespace-delimited `<digits>[.<digits>](ms|s)` starting at `start`: its duration and length.
    private static func timeProgression(
        in characters: [Character], at start: Int, of diagram: String
    ) throws(MarbleError) -> (Duration, Int)? {
        var end = start
        while end < characters.count, !characters[end].isWhitespace { end += 1 }
        let word = String(characters[start..<end])
        let unitLength: Int
        let scale: Double
        if word.hasSuffix("ms") {
            unitLength = 2
            scale = 1e-3
        } else if word.hasSuffix("s") {
            unitLength = 1
            scale = 1
        } else {
            return nil
        }
        let number = word.dropLast(unitLength)
        guard let first = number.first, first.isASCII, first.isNumber,
            number.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "." }),
            number.filter({ $0 == "." }).count <= 1, number.last != ".",
            let amount = Double(number)
        else { return nil }
        let nanoseconds = (amount * scale * 1e9).rounded()
        guard nanoseconds <= 1e15 else {
            throw MarbleError(diagram: diagram, column: start + 1, reason: "time progression '\(word)' is too long")
        }
        return (.nanoseconds(Int64(nanoseconds)), word.count)
    }
}
