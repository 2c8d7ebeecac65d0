/// Finds the known word closest to a mistyped one, for "did you mean …?" messages.
///
/// A candidate is suggested when its edit distance (insertions, deletions, substitutions and swaps of two
/// neighbouring characters, ignoring case) is at most 2 and smaller than the word's length, so `:nxt` suggests
/// `:next` but `:zz` suggests nothing. Ties go to the earlier candidate.
///
/// ```swift
/// Suggestion.closest(to: ":nxet", in: [":next", ":help"])   // ":next"
/// ```
public enum Suggestion {
    /// The candidate closest to `word`, or `nil` when none is close enough.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let typed = Array(word.lowercased())
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            if distance <= 2, distance < typed.count, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// The optimal string alignment distance between `a` and `b`.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
