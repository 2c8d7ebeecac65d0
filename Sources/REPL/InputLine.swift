/// One line of input as the REPL receives it: its text, or why it could not be read.
///
/// ```swift
/// let lines = PassthroughSubject<InputLine, Never>()
/// lines.send(.text("focus"))
/// ```
public enum InputLine: Equatable, Sendable {
    /// A line of text, without its line terminator.
    case text(String)
    /// A line that cannot be used; `reason` says why (the REPL prints it on stderr and goes on).
    case unreadable(reason: String)
}

/// Splits raw input bytes into ``InputLine``s: lines end with `\n` (a `\r` before it is dropped); a line
/// longer than `maximumLineLength` bytes or not valid UTF-8 becomes ``InputLine/unreadable(reason:)``, naming
/// the line, so bad input is reported and the rest goes on. An overlong line is never held in memory beyond
/// the limit.
///
/// - Threading: a value type; feed it from one thread (the reader's).
///
/// ```swift
/// var decoder = LineDecoder()
/// decoder.feed(Array("focus\n:ne".utf8))   // [.text("focus")]
/// decoder.finish()                           // [.text(":ne")]
/// ```
public struct LineDecoder: Sendable {
    /// The default longest line kept, in bytes.
    public static let defaultMaximumLineLength = 4096

    /// The longest line kept, in bytes.
    public let maximumLineLength: Int
    private var buffer: [UInt8] = []
    private var overflowLength = 0
    private var lineNumber = 0

    /// A decoder keeping lines of up to `maximumLineLength` bytes.
    public init(maximumLineLength: Int = defaultMaximumLineLength) {
        self.maximumLineLength = max(maximumLineLength, 1)
    }

    /// The lines completed by `bytes`; an unfinished line waits for more bytes (or ``finish()``).
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [InputLine] {
        var lines: [InputLine] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                lines.append(endLine())
            } else if overflowLength > 0 {
                overflowLength += 1
            } else if buffer.count == maximumLineLength {
                overflowLength = buffer.count + 1
                buffer.removeAll()
            } else {
                buffer.append(byte)
            }
        }
        return lines
    }

    /// The last line, if the input did not end with a line terminator.
    public mutating func finish() -> [InputLine] {
        buffer.isEmpty && overflowLength == 0 ? [] : [endLine()]
    }

    private mutating func endLine() -> InputLine {
        lineNumber += 1
        defer {
            buffer.removeAll(keepingCapacity: true)
            overflowLength = 0
        }
        if overflowLength > 0 {
            return .unreadable(
                reason: "input line \(lineNumber) is too long (\(overflowLength) bytes; the limit is "
                    + "\(maximumLineLength)) and was ignored")
        }
        if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
        guard let text = String(validating: buffer, as: UTF8.self) else {
            return .unreadable(reason: "input line \(lineNumber) is not valid UTF-8 and was ignored")
        }
        return .text(text)
    }
}
