import Features

/// Tab completion for the interactive REPL: the full lines a line typed so far may become.
///
/// - A command name: `:so` → `:sort `, `:source ` (aliases are not offered).
/// - Arguments: `:sort ` → the sort keys; `:source ` → `local`; `:help ` → the command names; `:cart ` → its
///   actions; `:fav ` → `add`, `remove`; product ids of the results shown after `:fav add`, `:fav remove`,
///   `:cart add`, `:cart remove`, `:cart quantity`, `:cart set`; `:brand ` → the brands seen so far (the last name of a
///   comma-separated list is completed).
/// - A search text: nothing (Tab rings the bell).
///
/// ```swift
/// CommandCompletion.candidates(for: ":sort p", context: .init())   // [":sort price ", ":sort price-desc "]
/// ```
enum CommandCompletion {
    /// What completion knows of the session.
    struct Context: Equatable {
        /// Ids of the products shown, in order.
        var productIDs: [String] = []
        /// Brands seen so far.
        var brands: [String] = []
    }

    /// The sort keys `:sort` accepts.
    static let sortKeys = ["price", "price-desc", "newest", "oldest", "none"]

    /// The full lines `text` (the text before the cursor) may be completed to, sorted.
    static func candidates(for text: String, context: Context) -> [String] {
        guard text.hasPrefix(":") else { return [] }
        let endsWithSpace = text.last == " "
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let command = words.first else { return [] }
        if words.count == 1 && !endsWithSpace {
            return CommandHelp.all.map(\.name).filter { $0.hasPrefix(command.lowercased()) }.sorted().map { $0 + " " }
        }
        let done = endsWithSpace ? words : Array(words.dropLast())
        let partial = endsWithSpace ? "" : (words.last ?? "")
        let options = arguments(after: done, context: context)
        if command.lowercased() == ":brand" || command.lowercased() == ":model" {
            return completeListItem(text, options: options)
        }
        let prefix = done.joined(separator: " ") + " "
        return options.filter { $0.lowercased().hasPrefix(partial.lowercased()) }.map { prefix + $0 + " " }
    }

    /// The words that may follow `words` (the command and its complete arguments).
    private static func arguments(after words: [String], context: Context) -> [String] {
        let command = words[0].lowercased()
        let rest = words.dropFirst().map { $0.lowercased() }
        switch (command, rest.count) {
        case (":sort", 0): return sortKeys
        case (":source", 0): return ["local"]
        case (":trace", 0): return ["on", "off"]
        case (":help", 0): return CommandHelp.all.map { String($0.name.dropFirst()) }
        case (":fav", 0): return ["add", "remove"]
        case (":fav", 1) where ["add", "remove"].contains(rest[0]): return context.productIDs
        case (":cart", 0): return ["show", "add", "remove", "quantity", "set", "checkout"]
        case (":cart", 1) where ["add", "remove", "quantity", "set"].contains(rest[0]): return context.productIDs
        case (":brand", _): return context.brands
        default: return []
        }
    }

    /// Completes the last item of a comma-separated list (`:brand Ford, Lam` → `:brand Ford, Lamborghini`).
    private static func completeListItem(_ text: String, options: [String]) -> [String] {
        let start = text.lastIndex(where: { $0 == "," || $0 == " " }).map { text.index(after: $0) } ?? text.endIndex
        let head = String(text[..<start])
        let partial = text[start...].lowercased()
        return options.filter { $0.lowercased().hasPrefix(partial) }.sorted().map { head + $0 }
    }
}
