/// What Tab does with the text before the cursor, given the full lines it could complete to.
///
/// - No candidate: `.noCandidates` (the editor rings the bell).
/// - One candidate (after removing duplicates): `.replace` the text before the cursor with it.
/// - Several: `.replace` with their longest common prefix when it is longer than the text before the cursor;
///   otherwise `.show` them, each by its last word (what differs between them).
///
/// ```swift
/// TabCompletion.complete(":so", candidates: [":sort ", ":source "])     // .show([":sort", ":source"])
/// TabCompletion.complete(":s", candidates: [":sort ", ":source "])      // .replace(":so")
/// TabCompletion.complete(":he", candidates: [":help "])                 // .replace(":help ")
/// ```
enum TabCompletion {
    /// What to do.
    enum Result: Equatable {
        /// Replace the text before the cursor with this.
        case replace(String)
        /// Show these choices (short forms).
        case show([String])
        /// Nothing completes the text.
        case noCandidates
    }

    /// What Tab does for `before` (the text before the cursor) and the full lines `candidates`.
    static func complete(_ before: String, candidates: [String]) -> Result {
        var seen = Set<String>()
        let unique = candidates.filter { seen.insert($0).inserted }
        guard let first = unique.first else { return .noCandidates }
        if unique.count == 1 { return .replace(first) }
        let prefix = commonPrefix(unique)
        if prefix.count > before.count { return .replace(prefix) }
        return .show(unique.map(shortForm))
    }

    /// The longest prefix, in whole characters, that all `strings` share ("" for none).
    ///
    /// ```swift
    /// TabCompletion.commonPrefix([":sort ", ":source "])   // ":so"
    /// ```
    static func commonPrefix(_ strings: [String]) -> String {
        guard let first = strings.first else { return "" }
        var prefix = first[...]
        for string in strings.dropFirst() {
            let shared = zip(prefix, string).prefix { $0 == $1 }.count
            prefix = prefix.prefix(shared)
        }
        return String(prefix)
    }

    /// The last word of `candidate` (how a choice is listed); `candidate` itself when it has no word.
    ///
    /// ```swift
    /// TabCompletion.shortForm(":sort price ")   // "price"
    /// ```
    static func shortForm(_ candidate: String) -> String {
        candidate.split(whereSeparator: \.isWhitespace).last.map(String.init) ?? candidate
    }
}
