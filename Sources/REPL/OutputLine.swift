/// One piece of the REPL's output: a line for stdout, a line for stderr, or a prompt (stdout, no newline).
///
/// ```swift
/// switch line {
/// case .output(let text): print(text)
/// case .error(let text): FileHandle.standardError.write(Data((text + "\n").utf8))
/// case .prompt(let text): print(text, terminator: "")
/// }
/// ```
public enum OutputLine: Equatable, Sendable {
    /// A line of results, for stdout.
    case output(String)
    /// A line explaining a problem, for stderr.
    case error(String)
    /// The interactive prompt, for stdout without a newline.
    case prompt(String)

    /// The same line with its text made safe for a terminal (``TerminalText/escaped(_:)``): control
    /// characters and bidirectional overrides shown as `\u{XX}`, printable text kept.
    public var escaped: OutputLine {
        switch self {
        case .output(let text): .output(TerminalText.escaped(text))
        case .error(let text): .error(TerminalText.escaped(text))
        case .prompt(let text): .prompt(TerminalText.escaped(text))
        }
    }
}
