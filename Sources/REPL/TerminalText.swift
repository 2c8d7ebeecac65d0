/// Makes text that came from outside (a server, a store file, an input line) safe to print on a terminal.
///
/// A terminal acts on some characters instead of showing them: ESC starts a control sequence (an OSC window
/// title, a screen clear, a cursor move), BEL rings, CR returns to the start of the line (so the rest
/// overwrites it), LF starts a fake line, C1 controls such as U+009B act as ESC `[` on some terminals, and the
/// bidirectional overrides (U+202A–U+202E, U+2066–U+2069) reorder what follows them. ``escaped(_:)`` shows each
/// of them visibly as `\u{XX}` instead, and keeps every printable character — accented letters, CJK, emoji
/// (with their joiners and variation selectors) — as it is. A backslash is kept too, so text that is already
/// escaped is unchanged: escaping twice equals escaping once.
///
/// The REPL applies it at the one place where its lines are published (`Session`), so no field can be
/// forgotten; `streams-repl` applies it to the few lines it prints before a session exists.
///
/// ```swift
/// TerminalText.escaped("\u{1B}]0;pwned\u{07}Café 🚗")   // "\u{1B}]0;pwned\u{07}Café 🚗", shown literally
/// TerminalText.isSafe("Café 🚗")                         // true
/// ```
public enum TerminalText {
    /// `text` with every character a terminal would act on shown as `\u{XX}` (hexadecimal, upper case):
    /// C0 controls (U+0000–U+001F, tab, CR and LF included), DEL, C1 controls (U+0080–U+009F), the
    /// bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), the directional marks
    /// (U+200E, U+200F, U+061C) and the line and paragraph separators (U+2028, U+2029). Everything else is kept.
    public static func escaped(_ text: String) -> String {
        guard !isSafe(text) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                result += "\\u{" + hex(scalar.value) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `text` holds nothing ``escaped(_:)`` would change.
    public static func isSafe(_ text: String) -> Bool {
        !text.unicodeScalars.contains(where: isUnsafe)
    }

    /// Whether a terminal could act on `scalar` instead of showing it.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true  // C0 controls, DEL, C1 controls
        case 0x202A...0x202E, 0x2066...0x2069: true  // bidirectional embeddings, overrides, isolates
        case 0x200E, 0x200F, 0x061C: true  // directional marks
        case 0x2028, 0x2029: true  // line and paragraph separators
        default: false
        }
    }

    /// `value` in upper-case hexadecimal, at least two digits.
    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return digits.count < 2 ? "0" + digits : digits
    }
}
