/// The line being typed at the interactive prompt, as a state machine: ``Key``s in, an ``EditorEvent`` and
/// the new ``text``, ``cursor`` and ``layout(prompt:width:)`` out. It does no terminal I/O.
///
/// The text is a `String` and the cursor counts characters (grapheme clusters), so a combining mark typed
/// after a letter joins it, and moving or deleting never splits a character.
///
/// Keys (readline's, for the most part):
/// - Characters and pastes insert at the cursor; line breaks and tabs become spaces, and characters a
///   terminal would act on (controls, bidirectional overrides) are dropped.
/// - Left/Right, Ctrl-B/Ctrl-F: one character; Home/End, Ctrl-A/Ctrl-E: the ends; Alt-B/Alt-F and
///   Ctrl-Left/Ctrl-Right (`.wordLeft`, `.wordRight`): one word (letters, digits and `_`).
/// - Backspace/Ctrl-H delete the character before the cursor; Delete and Ctrl-D the one under it (Ctrl-D on
///   an empty line is `.endOfInput`). Ctrl-K kills to the end, Ctrl-U to the start, Ctrl-W the
///   whitespace-separated word before the cursor; Ctrl-Y inserts the last kill.
/// - Enter submits (`.submit(text)`), adds the line to ``history`` and empties the editor. Ctrl-C is
///   `.interrupt` and changes nothing; Ctrl-L is `.clearScreen`.
/// - Up/Down, Ctrl-P/Ctrl-N walk the history; the line being typed is kept, and Down past the newest entry
///   brings it back.
/// - Tab completes the text before the cursor with the `completions` given to ``handle(_:completions:)``
///   (the longest common prefix of several candidates, or a list of them): `.edited`, `.showCompletions` or `.bell`.
/// - Ctrl-R starts a reverse incremental search (``searchPrompt``): typing narrows it, Ctrl-R again finds the
///   next older match, Enter submits the match, Escape/Ctrl-G accept it into the line, any other key
///   accepts it and then acts (e.g. Left moves), Ctrl-C cancels the search and restores the line.
///
/// Each key returns `.edited` when the text (or the search shown) changed, `.moved` when only the cursor
/// moved, `.none` when nothing changed.
///
/// ```swift
/// var editor = LineEditor()
/// for key: Key in [.character("日"), .character("本"), .left, .character("x")] { _ = editor.handle(key) }
/// editor.text     // "日x本"
/// editor.cursor   // 2
/// editor.handle(.enter)   // .submit("日x本"); editor.text == "", editor.history.entries == ["日x本"]
/// ```
public struct LineEditor: Sendable {
    /// The line being edited.
    public private(set) var text = ""

    /// The cursor, in characters from the start of ``text`` (0…`text.count`; clamped when set).
    public var cursor = 0 {
        didSet { cursor = min(max(cursor, 0), text.count) }
    }

    /// The lines submitted so far (and those it started with).
    public private(set) var history: EditHistory

    /// The history entry shown (Up/Down), or `nil` for the line being typed.
    private var historyIndex: Int?
    /// The line being typed, kept while history entries are shown.
    private var draft = ""
    /// The text removed by the last Ctrl-K, Ctrl-U or Ctrl-W, for Ctrl-Y.
    private var killed = ""
    /// The reverse search in progress (Ctrl-R), if any.
    private var search: ReverseSearch?

    /// A reverse incremental search: what is searched for and where it was found.
    private struct ReverseSearch: Sendable {
        /// What is typed after Ctrl-R.
        var query = ""
        /// The index in the history entries of the entry shown.
        var match: Int?
        /// Whether the last attempt to find `query` found nothing.
        var isFailing = false
        /// The line and cursor before the search, restored by Ctrl-C.
        var originalText: String
        var originalCursor: Int
    }

    /// An empty editor with `history` for Up, Down and Ctrl-R.
    public init(history: EditHistory = EditHistory()) {
        self.history = history
    }

    /// During a reverse search (Ctrl-R), what is shown instead of the prompt:
    /// `(reverse-i-search)'query': ` (`(failed reverse-i-search)…` when nothing matches); `nil` otherwise.
    public var searchPrompt: String? {
        search.map { "(\($0.isFailing ? "failed " : "")reverse-i-search)'\($0.query)': " }
    }

    /// Empties the line, ends a reverse search and returns to the line being typed (the history is kept).
    public mutating func clear() {
        text = ""
        cursor = 0
        search = nil
        historyIndex = nil
        draft = ""
    }

    /// Replaces the line with `text` (line breaks and tabs as spaces, terminal controls dropped), with the
    /// cursor at its end; ends a reverse search.
    public mutating func setText(_ text: String) {
        search = nil
        historyIndex = nil
        self.text = Self.sanitized(text)
        cursor = self.text.count
    }

    /// The screen rows for `prompt` (or ``searchPrompt`` during a reverse search) and the text, wrapped at
    /// `width` columns, with the cursor's position.
    public func layout(prompt: String, width: Int) -> EditorLayout {
        EditorLayout(prompt: searchPrompt ?? prompt, text: text, cursor: cursor, width: width)
    }

    /// Applies `key`; `completions` gives, for the text before the cursor, the full lines Tab may complete it
    /// to.
    public mutating func handle(_ key: Key, completions: (String) -> [String] = { _ in [] }) -> EditorEvent {
        if search != nil { return handleSearch(key, completions: completions) }
        switch key {
        case .character(let character): return insert(String(character))
        case .paste(let pasted): return insert(pasted)
        case .enter, .control("j"), .control("m"): return submit()
        case .tab, .control("i"): return complete(completions)
        case .backspace, .control("h"): return cursor > 0 ? replace(cursor - 1..<cursor, with: "") : .none
        case .delete: return deleteForward()
        case .control("d"): return text.isEmpty ? .endOfInput : deleteForward()
        case .left, .control("b"): return move(to: cursor - 1)
        case .right, .control("f"): return move(to: cursor + 1)
        case .home, .control("a"): return move(to: 0)
        case .end, .control("e"): return move(to: text.count)
        case .wordLeft: return move(to: wordStart(before: cursor))
        case .wordRight: return move(to: wordEnd(after: cursor))
        case .up, .control("p"): return showOlderEntry()
        case .down, .control("n"): return showNewerEntry()
        case .control("k"): return kill(cursor..<text.count)
        case .control("u"): return kill(0..<cursor)
        case .control("w"): return kill(spaceSeparatedWordStart(before: cursor)..<cursor)
        case .control("y"): return killed.isEmpty ? .none : insert(killed)
        case .control("c"): return .interrupt
        case .control("l"): return .clearScreen
        case .control("r"):
            search = ReverseSearch(originalText: text, originalCursor: cursor)
            return .edited
        case .control, .escape, .unknown: return .none
        }
    }

    // MARK: Editing

    /// Inserts `inserted` (sanitized) at the cursor.
    private mutating func insert(_ inserted: String) -> EditorEvent {
        replace(cursor..<cursor, with: inserted)
    }

    /// Replaces the characters at `range` (offsets, clamped) with `replacement` (sanitized); the cursor goes
    /// after the replacement.
    private mutating func replace(_ range: Range<Int>, with replacement: String) -> EditorEvent {
        let replacement = Self.sanitized(replacement)
        guard !range.isEmpty || !replacement.isEmpty else { return .none }
        let before = String(text[..<index(range.lowerBound)]) + replacement
        text = before + text[index(range.upperBound)...]
        cursor = before.count
        return .edited
    }

    private mutating func deleteForward() -> EditorEvent {
        cursor < text.count ? replace(cursor..<cursor + 1, with: "") : .none
    }

    /// Removes `range`, keeping it for Ctrl-Y.
    private mutating func kill(_ range: Range<Int>) -> EditorEvent {
        guard !range.isEmpty else { return .none }
        killed = String(text[index(range.lowerBound)..<index(range.upperBound)])
        return replace(range, with: "")
    }

    private mutating func move(to offset: Int) -> EditorEvent {
        let target = min(max(offset, 0), text.count)
        guard target != cursor else { return .none }
        cursor = target
        return .moved
    }

    private mutating func submit() -> EditorEvent {
        let line = text
        history.add(line)
        clear()
        return .submit(line)
    }

    private mutating func complete(_ completions: (String) -> [String]) -> EditorEvent {
        let before = String(text[..<index(cursor)])
        switch TabCompletion.complete(before, candidates: completions(before)) {
        case .noCandidates: return .bell
        case .show(let choices): return .showCompletions(choices)
        case .replace(let replacement):
            return Self.sanitized(replacement) == before ? .none : replace(0..<cursor, with: replacement)
        }
    }

    // MARK: History

    private mutating func showOlderEntry() -> EditorEvent {
        let entries = history.entries
        guard !entries.isEmpty else { return .none }
        let target: Int
        if let historyIndex {
            guard historyIndex > 0 else { return .none }
            target = min(historyIndex - 1, entries.count - 1)
        } else {
            draft = text
            target = entries.count - 1
        }
        show(entries[target], historyIndex: target)
        return .edited
    }

    private mutating func showNewerEntry() -> EditorEvent {
        guard let historyIndex else { return .none }
        let entries = history.entries
        if historyIndex + 1 < entries.count {
            show(entries[historyIndex + 1], historyIndex: historyIndex + 1)
        } else {
            show(draft, historyIndex: nil)
        }
        return .edited
    }

    private mutating func show(_ line: String, historyIndex: Int?) {
        text = Self.sanitized(line)
        cursor = text.count
        self.historyIndex = historyIndex
    }

    // MARK: Reverse search

    private mutating func handleSearch(_ key: Key, completions: (String) -> [String]) -> EditorEvent {
        guard var search else { return .none }
        switch key {
        case .character(let character):
            return narrowSearch(to: search.query + Self.sanitized(String(character)))
        case .paste(let pasted):
            return narrowSearch(to: search.query + Self.sanitized(pasted))
        case .backspace, .control("h"):
            guard !search.query.isEmpty else { return .none }
            search.query.removeLast()
            search.match = nil
            self.search = search
            _ = findMatch(from: history.entries.count - 1)
            return .edited
        case .control("r"):
            guard !search.query.isEmpty, let match = search.match else { return .bell }
            return findMatch(from: match - 1) ? .edited : .bell
        case .control("c"):
            text = search.originalText
            cursor = search.originalCursor
            self.search = nil
            return .edited
        case .enter, .control("j"), .control("m"):
            acceptSearch()
            return submit()
        case .escape, .control("g"):
            acceptSearch()
            return .edited
        case .unknown:
            return .none
        default:
            acceptSearch()
            let event = handle(key, completions: completions)
            return event == .none || event == .moved ? .edited : event
        }
    }

    /// Searches for `query` from the entry shown (or the newest), older first.
    private mutating func narrowSearch(to query: String) -> EditorEvent {
        guard var search, query != search.query else { return .none }
        search.query = query
        self.search = search
        _ = findMatch(from: search.match ?? history.entries.count - 1)
        return .edited
    }

    /// Shows the newest entry at `start` or older that contains the query; `false` (the search is failing, the
    /// line unchanged) when there is none. An empty query shows the line from before the search.
    private mutating func findMatch(from start: Int) -> Bool {
        guard var search else { return false }
        defer { self.search = search }
        guard !search.query.isEmpty else {
            search.match = nil
            search.isFailing = false
            text = search.originalText
            cursor = search.originalCursor
            return true
        }
        let entries = history.entries
        var candidate = min(start, entries.count - 1)
        while candidate >= 0 {
            let entry = Self.sanitized(entries[candidate])
            if let range = entry.firstRange(of: search.query) {
                search.match = candidate
                search.isFailing = false
                text = entry
                cursor = entry.distance(from: entry.startIndex, to: range.lowerBound)
                return true
            }
            candidate -= 1
        }
        search.isFailing = true
        return false
    }

    /// Ends the search keeping the line shown; Up and Down continue from the entry found.
    private mutating func acceptSearch() {
        guard let search else { return }
        self.search = nil
        if let match = search.match {
            if historyIndex == nil { draft = search.originalText }
            historyIndex = match
        }
    }

    // MARK: Text

    /// The index of the character at `offset` (clamped).
    private func index(_ offset: Int) -> String.Index {
        text.index(text.startIndex, offsetBy: max(offset, 0), limitedBy: text.endIndex) ?? text.endIndex
    }

    /// Where the word before `offset` starts: back over non-word characters, then over word characters.
    private func wordStart(before offset: Int) -> Int {
        let characters = Array(text)
        var position = min(offset, characters.count)
        while position > 0, !Self.isWordCharacter(characters[position - 1]) { position -= 1 }
        while position > 0, Self.isWordCharacter(characters[position - 1]) { position -= 1 }
        return position
    }

    /// Where the word after `offset` ends: forward over non-word characters, then over word characters.
    private func wordEnd(after offset: Int) -> Int {
        let characters = Array(text)
        var position = max(offset, 0)
        while position < characters.count, !Self.isWordCharacter(characters[position]) { position += 1 }
        while position < characters.count, Self.isWordCharacter(characters[position]) { position += 1 }
        return position
    }

    /// Where the whitespace-separated word before `offset` starts (Ctrl-W): back over whitespace, then over
    /// the rest.
    private func spaceSeparatedWordStart(before offset: Int) -> Int {
        let characters = Array(text)
        var position = min(offset, characters.count)
        while position > 0, characters[position - 1].isWhitespace { position -= 1 }
        while position > 0, !characters[position - 1].isWhitespace { position -= 1 }
        return position
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    /// `text` as it may be in the line: line breaks and tabs as spaces, characters with a scalar a terminal
    /// would act on (see ``TerminalText``) dropped.
    static func sanitized(_ text: String) -> String {
        guard text.contains(where: { $0.isNewline || $0 == "\t" }) || !TerminalText.isSafe(text) else {
            return text
        }
        var result = ""
        for character in text {
            if character.isNewline || character == "\t" {
                result.append(" ")
            } else if character.unicodeScalars.allSatisfy({ !TerminalText.isUnsafe($0) }) {
                result.append(character)
            }
        }
        return result
    }
}
