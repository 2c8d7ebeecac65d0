import Foundation
import REPL
import Testing

/// Random lines through the command parser, seeded so a failure repeats: control characters, bidirectional
/// overrides, emoji, command names with random arguments, lines up to 6000 characters. Every line yields a
/// command, a search, a blank, or one error that prints as one short, safe line — never a crash.
@Suite struct CommandParserFuzzTests {
    /// A small seeded generator (SplitMix64), so every run sees the same lines.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let words = [
        ":help", ":quit", ":q", ":exit", ":next", ":retry", ":sort", ":brand", ":model", ":clear", ":fav", ":favs",
        ":cart", ":fetch", ":count", ":reset", ":refresh", ":prices", ":users", ":source", ":history", "add",
        "remove", "show", "quantity", "qty", "checkout", "price", "price-desc", "newest", "none", "local",
        "http://[::1]:8080", "http://127.0.0.1:99999", "http://a..b", "https://example.com", "12", "#3", "-1", "0",
        "99999999999999999999", ",", ", ,", "Café", "🚗", "東京",
    ]
    static let specials: [Character] = [
        "\u{1B}", "\u{07}", "\r", "\n", "\t", "\u{00}", "\u{7F}", "\u{9B}", "\u{202E}", "\u{2066}", "\u{2028}", " ",
        ":", "#", ",", "é", "👩‍👩‍👧", "\u{301}", "\"", "'", "\\",
    ]

    static func randomLine(using generator: inout SeededGenerator) -> String {
        var line: String
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: line = ""
        case 1: line = ":"
        default: line = (words.prefix(21).randomElement(using: &generator) ?? ":help") + " "  // a real command
        }
        let parts = Int.random(in: 0..<8, using: &generator)
        for _ in 0..<parts {
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: line += words.randomElement(using: &generator) ?? ""
            case 1: line.append(specials.randomElement(using: &generator) ?? " ")
            case 2:
                let scalars = (0..<Int.random(in: 1..<6, using: &generator)).compactMap { _ in
                    Unicode.Scalar(UInt32.random(in: 0...0x2FFFF, using: &generator))
                }
                line.unicodeScalars.append(contentsOf: scalars)
            default: line += " "
            }
        }
        if Int.random(in: 0..<40, using: &generator) == 0 {  // now and then a very long line
            let filler = specials.randomElement(using: &generator) ?? "x"
            line += String(repeating: filler, count: Int.random(in: 1000..<6000, using: &generator))
        }
        return line
    }

    @Test func randomLinesYieldACommandOrOneShortSafeSentence() {
        var generator = SeededGenerator(state: 0x5EED_2024)
        let start = ContinuousClock.now
        var counts = (commands: 0, searches: 0, blanks: 0, errors: 0)
        for _ in 0..<1500 {
            let line = Self.randomLine(using: &generator)
            do {
                switch try CommandParser.parse(line) {
                case .command: counts.commands += 1
                case .search: counts.searches += 1
                case .blank: counts.blanks += 1
                }
            } catch {
                counts.errors += 1
                let printed = TerminalText.escaped(error.message)
                #expect(!error.message.isEmpty)
                #expect(TerminalText.isSafe(printed) && !printed.contains("\n"), "\(line.debugDescription)")
                #expect(printed.count <= 400, "too long for \(line.prefix(80).debugDescription): \(printed.count)")
                #expect(!printed.contains("CodingKeys") && !printed.contains("Error Domain"))
            }
        }
        #expect(counts.commands > 50 && counts.errors > 50 && counts.searches > 50, "\(counts)")
        #expect(ContinuousClock.now - start < .seconds(2))
    }

    @Test func aLongLineIsQuotedShort() {
        let long = ":" + String(repeating: "x\u{1B}", count: 3000)
        #expect(throws: CommandError.self) { try CommandParser.parse(long) }
        do {
            _ = try CommandParser.parse(long)
        } catch {
            #expect(error.message.count < 120)
            #expect(error.message.hasPrefix("unknown command ':x\u{1B}x"))
            #expect(error.message.contains("…'"))
        }
    }
}
