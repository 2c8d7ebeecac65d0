/// The REPL's commands, each with its usage and a one-line description: what `:help` prints and what the
/// parser suggests from.
///
/// ```swift
/// CommandHelp.named(":nxt")      // nil
/// CommandHelp.named(":next")?.summary   // "load the next page of results"
/// ```
public struct CommandHelp: Equatable, Sendable {
    /// The command's name, with its colon: `:next`.
    public var name: String
    /// Other names for it: `:q` for `:quit`.
    public var aliases: [String]
    /// How to write it: `:cart add ID [QTY]`.
    public var usage: String
    /// What it does, in one line.
    public var summary: String
    /// More lines for `:help NAME` (the forms of a command with several actions).
    public var details: [String]

    /// Every command, in the order `:help` lists them.
    public static let all: [CommandHelp] = [
        CommandHelp(name: ":help", usage: ":help [COMMAND]", summary: "list the commands, or explain one"),
        CommandHelp(name: ":quit", aliases: [":q", ":exit"], usage: ":quit",
            summary: "exit (piped: once earlier lines are answered; interactive: at once)"),
        CommandHelp(name: ":next", usage: ":next", summary: "load the next page of results"),
        CommandHelp(name: ":retry", usage: ":retry", summary: "search again after a failed search"),
        CommandHelp(
            name: ":sort", usage: ":sort price|price-desc|newest|oldest|none",
            summary: "order the results (none: catalogue order)"),
        CommandHelp(
            name: ":brand", usage: ":brand [NAME, NAME…]", summary: "keep only these brands (no name: every brand)"),
        CommandHelp(
            name: ":model", usage: ":model [NAME, NAME…]", summary: "keep only these models (no name: every model)"),
        CommandHelp(
            name: ":clear", usage: ":clear", summary: "forget the search text, sort and filters (whole catalogue)"),
        CommandHelp(
            name: ":fav", usage: ":fav [add|remove] ID", summary: "add a product of the results to the favourites"),
        CommandHelp(name: ":favs", usage: ":favs", summary: "list the favourites"),
        CommandHelp(
            name: ":cart", usage: ":cart [show|add|remove|quantity|checkout]",
            summary: "show or change the basket, or check out",
            details: [
                ":cart, :cart show          list the basket with its total",
                ":cart add ID [QTY]         add QTY units (1 to 999, default 1) of a product of the results",
                ":cart remove ID            remove a product from the basket",
                ":cart quantity ID QTY      set a product's quantity, 0 to 999 (0 removes it; also :cart set)",
                ":cart checkout             empty the basket and show what was bought",
            ]),
        CommandHelp(name: ":fetch", usage: ":fetch", summary: "fetch a status code from the server and count it"),
        CommandHelp(name: ":count", usage: ":count", summary: "show how many fetches completed"),
        CommandHelp(name: ":reset", usage: ":reset", summary: "set the fetch count to 0"),
        CommandHelp(name: ":refresh", usage: ":refresh", summary: "reload the crypto prices and show them"),
        CommandHelp(
            name: ":prices", usage: ":prices [FILTER]", summary: "show the crypto prices (currencies containing FILTER)"
        ),
        CommandHelp(name: ":users", usage: ":users", summary: "load and show the users"),
        CommandHelp(
            name: ":source", usage: ":source local|URL", summary: "use the bundled data, or the server at URL"),
        CommandHelp(name: ":history", usage: ":history", summary: "list the lines entered so far"),
        CommandHelp(
            name: ":trace", usage: ":trace on|off",
            summary: "show the search pipeline as a marble timeline (keys, debounced, requests)"),
    ]

    /// A command's help.
    public init(name: String, aliases: [String] = [], usage: String, summary: String, details: [String] = []) {
        self.name = name
        self.aliases = aliases
        self.usage = usage
        self.summary = summary
        self.details = details
    }

    /// The command called `name` (or one of its aliases; the colon is optional), if there is one.
    public static func named(_ name: String) -> CommandHelp? {
        let name = name.hasPrefix(":") ? name.lowercased() : ":" + name.lowercased()
        return all.first { $0.name == name || $0.aliases.contains(name) }
    }

    /// The `:help` listing: one line per command, usages aligned.
    public static var listing: [String] {
        let width = all.map(\.usage.count).max() ?? 0
        return ["commands (any other line searches the products):"]
            + all.map { "  \($0.usage.padding(width))  \($0.summary)" }
    }

    /// The lines `:help NAME` prints.
    public var explanation: [String] {
        var lines = [usage, "  \(summary)"] + details.map { "  " + $0 }
        if !aliases.isEmpty { lines.append("  also: " + aliases.joined(separator: ", ")) }
        return lines
    }
}
