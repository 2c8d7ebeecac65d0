/// The lines entered before, oldest first, as the ``LineEditor`` walks them with Up and Down and searches them
/// with Ctrl-R.
///
/// ``add(_:)`` ignores a blank line and a line equal to the newest entry (so repeating a command does not fill
/// the history), and drops the oldest entries beyond ``limit``. Entries given to ``init(entries:limit:)`` (e.g.
/// loaded from a ``HistoryFile``) go through the same rules.
///
/// ```swift
/// var history = EditHistory(limit: 2)
/// history.add(":help"); history.add(":help"); history.add("  "); history.add("milk"); history.add("bread")
/// history.entries   // ["milk", "bread"]
/// ```
public struct EditHistory: Equatable, Sendable {
    /// The entries, oldest first; at most ``limit``.
    public private(set) var entries: [String] = []

    /// The most entries kept (at least 0).
    public let limit: Int

    /// A history holding the newest `limit` of `entries` that ``add(_:)`` would keep.
    public init(entries: [String] = [], limit: Int = 1000) {
        self.limit = max(limit, 0)
        for entry in entries { add(entry) }
    }

    /// Adds `line` as the newest entry, unless it is blank or equal to the newest entry; drops the oldest
    /// entries beyond ``limit``.
    public mutating func add(_ line: String) {
        guard !line.allSatisfy(\.isWhitespace), line != entries.last else { return }
        entries.append(line)
        if entries.count > limit { entries.removeFirst(entries.count - limit) }
    }
}
