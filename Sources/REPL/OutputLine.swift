/// One piece of the REPL's output: a line for stdout, a line for stderr, a prompt (stdout, no newline), or
/// (interactive) the live lines under the line being typed.
///
/// ```swift
/// switch line {
/// case .output(let text): print(text)
/// case .error(let text): FileHandle.standardError.write(Data((text + "\n").utf8))
/// case .prompt(let text): print(text, terminator: "")
/// case .live(let lines): redraw(lines)
/// }
/// ```
public enum OutputLine: Equatable, Sendable {
    /// A line of results, for stdout.
    case output(String)
    /// A line explaining a problem, for stderr.
    case error(String)
    /// The interactive prompt, for stdout without a newline.
    case prompt(String)
    /// Interactive only: the lines to show under the line being typed (the results of what is typed),
    /// replacing the previous `.live` lines; an empty array clears them.
    case live([String])

    /// The same line with its text made safe for a terminal (``TerminalText/escaped(_:)``): control
    /// characters and bidirectional overrides shown as `\u{XX}`, printable text kept.
    public var escaped: OutputLine {
        switch self {
        case .output(let text): .output(TerminalText.escaped(text))
        case .error(let text): .error(TerminalText.escaped(text))
        case .prompt(let text): .prompt(TerminalText.escaped(text))
        case .live(let lines): .live(lines.map(TerminalText.escaped))
        }
    }
}
