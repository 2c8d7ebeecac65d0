/// Why a marble diagram was rejected, and where.
///
/// Every invalid diagram gives one of these (never a crash): the diagram, the 1-based column of the
/// offending character and the reason. Its `description` points at the column:
///
/// ```
/// invalid marble diagram: ')' closes no group (column 4)
///   --a)--|
///      ^
/// ```
public struct MarbleError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The diagram as written.
    public let diagram: String
    /// The 1-based column (in characters) of the offending character; the diagram's length + 1 when
    /// something is missing at its end.
    public let column: Int
    /// What is wrong, e.g. `"'(' opens a group that is never closed"`.
    public let reason: String

    /// Creates an error for `diagram` at `column` (1-based).
    public init(diagram: String, column: Int, reason: String) {
        self.diagram = diagram
        self.column = column
        self.reason = reason
    }

    /// The reason, the column, the diagram and a caret under the column.
    public var description: String {
        let pointer = String(repeating: " ", count: max(column - 1, 0)) + "^"
        return "invalid marble diagram: \(reason) (column \(column))\n  \(diagram)\n  \(pointer)"
    }
}
