import Features
import Foundation

/// What one input line asks for.
///
/// ```swift
/// try CommandParser.parse("focus")    // .search("focus")
/// try CommandParser.parse(":next")    // .command(.next)
/// ```
public enum ParsedLine: Equatable, Sendable {
    /// A line that is not a command: the search text.
    case search(String)
    /// A command.
    case command(Command)
    /// A blank line (ignored).
    case blank
}

/// Why a command line could not be understood, in one line (with a suggestion where one is obvious).
///
/// ```swift
/// (try? CommandParser.parse(":nxt")) == nil   // CommandError: unknown command ':nxt' (did you mean :next? …)
/// ```
public struct CommandError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The explanation printed on stderr.
    public var message: String

    /// An error explaining `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The explanation.
    public var description: String { message }
}

/// Turns input lines into ``ParsedLine``s: a line starting with `:` (after leading spaces) is a command, a
/// blank line is ignored, any other line is a search text.
///
/// Command names ignore case; arguments are separated by spaces, except brand and model names, which are
/// separated by commas (names may hold spaces). Every mistake is a ``CommandError`` naming the command and
/// its usage.
///
/// ```swift
/// try CommandParser.parse(":brand Aston Martin, Ford")   // .command(.brand(["Aston Martin", "Ford"]))
/// ```
public enum CommandParser {
    /// The `:sort` words and the order each means.
    public static let sortNames: [(name: String, sort: ProductSort?)] = [
        ("price", .priceAscending), ("price-desc", .priceDescending), ("newest", .newest), ("oldest", .oldest),
        ("none", nil),
    ]

    /// Parses one line.
    ///
    /// - Throws: ``CommandError`` for an unknown command or bad arguments.
    public static func parse(_ line: String) throws(CommandError) -> ParsedLine {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return .blank }
        guard trimmed.hasPrefix(":") else { return .search(line) }
        let name = String(trimmed.prefix { !$0.isWhitespace })
        let rest = trimmed.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        guard let help = CommandHelp.named(name) else {
            let names = CommandHelp.all.flatMap { [$0.name] + $0.aliases }
            let suggestion = Suggestion.closest(to: name, in: names).map { "did you mean \($0)? " } ?? ""
            throw CommandError("unknown command \(quoted(name)) (\(suggestion)type :help for the list)")
        }
        return .command(try command(help, arguments: rest))
    }

    private static func command(_ help: CommandHelp, arguments: String) throws(CommandError) -> Command {
        let words = arguments.split(whereSeparator: \.isWhitespace).map(String.init)
        switch help.name {
        case ":help":
            guard words.count <= 1 else { throw usage(help) }
            if let topic = words.first, CommandHelp.named(topic) == nil {
                throw unknownTopic(topic)
            }
            return .help(topic: words.first)
        case ":sort": return .sort(try sort(words, help))
        case ":brand": return .brand(names(arguments))
        case ":model": return .model(names(arguments))
        case ":fav": return .favourite(try favourite(words, help))
        case ":cart": return .cart(try cart(words, help))
        case ":prices": return .prices(filter: arguments.isEmpty ? nil : arguments)
        case ":source": return .source(try source(words, help))
        default:
            guard words.isEmpty else {
                throw CommandError("\(help.name) takes no arguments (usage: \(help.usage))")
            }
            return try simpleCommand(help)
        }
    }

    private static func simpleCommand(_ help: CommandHelp) throws(CommandError) -> Command {
        switch help.name {
        case ":quit": return .quit
        case ":next": return .next
        case ":retry": return .retry
        case ":clear": return .clear
        case ":favs": return .favourites
        case ":fetch": return .fetch
        case ":count": return .count
        case ":reset": return .reset
        case ":refresh": return .refresh
        case ":users": return .users
        case ":history": return .history
        default: throw usage(help)
        }
    }

    private static func sort(_ words: [String], _ help: CommandHelp) throws(CommandError) -> ProductSort? {
        guard words.count == 1 else { throw usage(help) }
        let word = words[0].lowercased()
        if let match = sortNames.first(where: { $0.name == word }) { return match.sort }
        let suggestion = Suggestion.closest(to: word, in: sortNames.map(\.name)).map { "did you mean \($0)? " } ?? ""
        throw CommandError("unknown sort \(quoted(words[0])) (\(suggestion)usage: \(help.usage))")
    }

    private static func names(_ arguments: String) -> Set<String> {
        Set(arguments.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }

    private static func favourite(_ words: [String], _ help: CommandHelp) throws(CommandError)
        -> Command.FavouriteAction
    {
        switch words.count {
        case 1: return .add(productID: words[0])
        case 2 where words[0].lowercased() == "add": return .add(productID: words[1])
        case 2 where words[0].lowercased() == "remove": return .remove(productID: words[1])
        default: throw usage(help)
        }
    }

    private static func cart(_ words: [String], _ help: CommandHelp) throws(CommandError) -> Command.CartAction {
        let actions = ["show", "add", "remove", "quantity", "checkout"]
        let action = words.first?.lowercased() ?? "show"
        switch (action, words.count) {
        case ("show", 0...1): return .show
        case ("checkout", 1): return .checkout
        case ("add", 2): return .add(productID: words[1], quantity: 1)
        case ("add", 3): return .add(productID: words[1], quantity: try quantity(words[2], minimum: 1))
        case ("remove", 2): return .remove(productID: words[1])
        case ("quantity", 3), ("qty", 3):
            return .setQuantity(productID: words[1], quantity: try quantity(words[2], minimum: 0))
        case _ where !actions.contains(action) && action != "qty":
            let suggestion = Suggestion.closest(to: action, in: actions).map { "did you mean \($0)? " } ?? ""
            throw CommandError("unknown :cart action \(quoted(words[0])) (\(suggestion)usage: \(help.usage))")
        default:
            let form = help.details.first { $0.hasPrefix(":cart \(action == "qty" ? "quantity" : action)") }
            let usage = form.map { $0.components(separatedBy: "  ")[0] }
            throw CommandError("wrong arguments for :cart \(action) (usage: \(usage ?? help.usage))")
        }
    }

    private static func quantity(_ text: String, minimum: Int) throws(CommandError) -> Int {
        guard let value = Int(text), value >= minimum else {
            throw CommandError("the quantity must be a whole number ≥ \(minimum), not \(quoted(text))")
        }
        return value
    }

    private static func source(_ words: [String], _ help: CommandHelp) throws(CommandError) -> DataSource {
        guard words.count == 1 else { throw usage(help) }
        if words[0].lowercased() == "local" { return .local }
        do {
            return .remote(try REPLOptions.serverURL(words[0]))
        } catch {
            guard case .invalidServer(_, let reason) = error else { throw usage(help) }
            throw CommandError(
                "cannot use \(quoted(words[0])) as the source: \(reason) "
                    + "(usage: \(help.usage), e.g. :source http://127.0.0.1:8080)")
        }
    }

    /// The most characters of the input repeated in a message: an error stays one short line however long the
    /// line typed was.
    static let maximumQuotedLength = 40

    /// `text` in single quotes, cut to ``maximumQuotedLength`` characters with a trailing `…`.
    static func quoted(_ text: some StringProtocol) -> String {
        let shown = text.count > maximumQuotedLength ? text.prefix(maximumQuotedLength) + "…" : String(text)
        return "'" + shown + "'"
    }

    private static func usage(_ help: CommandHelp) -> CommandError {
        CommandError("wrong arguments for \(help.name) (usage: \(help.usage))")
    }

    private static func unknownTopic(_ topic: String) -> CommandError {
        let names = CommandHelp.all.map(\.name)
        let name = topic.hasPrefix(":") ? topic : ":" + topic
        let suggestion = Suggestion.closest(to: name, in: names).map { "did you mean \($0)? " } ?? ""
        return CommandError("no command \(quoted(topic)) to explain (\(suggestion)type :help for the list)")
    }
}
