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
            guard words.count <= 1 else { throw usage(help, "a command's name, e.g. :help cart") }
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
        case ":trace":
            guard words.count == 1, let word = words.first?.lowercased(), word == "on" || word == "off" else {
                throw usage(help, "on or off, e.g. :trace on")
            }
            return .trace(word == "on")
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
        guard words.count == 1 else { throw usage(help, "one order, e.g. :sort price") }
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
        let action = words.first?.lowercased()
        switch (action, words.count) {
        case ("add", 2): return .add(productID: try productID(words[1], usage: favouriteAddUsage))
        case ("remove", 2): return .remove(productID: try productID(words[1], usage: favouriteRemoveUsage))
        case ("add", _): throw CommandError(favouriteAddUsage)
        case ("remove", _): throw CommandError(favouriteRemoveUsage)
        case (_, 1): return .add(productID: try productID(words[0], usage: favouriteAddUsage))
        default:
            throw CommandError(
                "usage: :fav ID, :fav add ID or :fav remove ID (an id from the results, e.g. :fav 3)")
        }
    }

    private static let favouriteAddUsage = "usage: :fav add ID (an id from the results, e.g. :fav add 3)"
    private static let favouriteRemoveUsage = "usage: :fav remove ID (an id from :favs, e.g. :fav remove 3)"
    private static let cartAddUsage =
        "usage: :cart add ID [QTY] (an id from the results and a quantity from 1 to \(maximumQuantity), "
        + "e.g. :cart add 3 2)"
    private static let cartQuantityUsage =
        "usage: :cart quantity ID QTY (an id from :cart and a quantity from 0 to \(maximumQuantity), "
        + "0 removing it, e.g. :cart quantity 3 2)"
    private static let cartRemoveUsage = "usage: :cart remove ID (an id from :cart, e.g. :cart remove 3)"

    /// The largest quantity of one product in the basket (`FeatureStore.maximumQuantity`).
    public static let maximumQuantity = FeatureStore.maximumQuantity

    /// `text` as a product id (a leading `#` is dropped): letters, digits, `-` and `_`, at most 40 characters.
    private static func productID(_ text: String, usage: String) throws(CommandError) -> String {
        let id = text.hasPrefix("#") ? String(text.dropFirst()) : text
        let allowed =
            !id.isEmpty && id.count <= maximumIDLength
            && id.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
            }
        guard allowed else {
            throw CommandError("\(quoted(text)) is not a product id; \(usage)")
        }
        return id
    }

    private static let maximumIDLength = 40

    private static func cart(_ words: [String], _ help: CommandHelp) throws(CommandError) -> Command.CartAction {
        let actions = ["show", "add", "remove", "quantity", "checkout"]
        let action = words.first?.lowercased() ?? "show"
        switch (action, words.count) {
        case ("show", 0...1): return .show
        case ("checkout", 1): return .checkout
        case ("add", 2): return .add(productID: try productID(words[1], usage: cartAddUsage), quantity: 1)
        case ("add", 3):
            return .add(
                productID: try productID(words[1], usage: cartAddUsage),
                quantity: try quantity(words[2], minimum: 1))
        case ("add", _): throw CommandError(cartAddUsage)
        case ("remove", 2): return .remove(productID: try productID(words[1], usage: cartRemoveUsage))
        case ("remove", _): throw CommandError(cartRemoveUsage)
        case ("quantity", 3), ("qty", 3), ("set", 3):
            return .setQuantity(
                productID: try productID(words[1], usage: cartQuantityUsage),
                quantity: try quantity(words[2], minimum: 0))
        case ("quantity", _), ("qty", _), ("set", _): throw CommandError(cartQuantityUsage)
        case ("show", _), ("checkout", _):
            throw CommandError("usage: :cart \(action) (it takes no arguments)")
        default:
            let suggestion = Suggestion.closest(to: action, in: actions).map { "did you mean \($0)? " } ?? ""
            throw CommandError("unknown :cart action \(quoted(words[0])) (\(suggestion)usage: \(help.usage))")
        }
    }

    /// `text` as a quantity from `minimum` to ``maximumQuantity``.
    private static func quantity(_ text: String, minimum: Int) throws(CommandError) -> Int {
        guard let value = Int(text), (minimum...maximumQuantity).contains(value) else {
            let removing = minimum == 0 ? " (0 removes the product)" : ""
            throw CommandError(
                "quantity must be a whole number from \(minimum) to \(maximumQuantity)\(removing), got "
                    + (CommandParser.quotedIfNeeded(text)))
        }
        return value
    }

    /// `text` as it is when it is a short run of digits (a number out of range), else quoted.
    private static func quotedIfNeeded(_ text: String) -> String {
        let isNumber =
            !text.isEmpty && text.count <= 20
            && text.drop { $0 == "-" }.allSatisfy { $0.isASCII && $0.isNumber } && text.contains { $0.isNumber }
        return isNumber ? text : quoted(text)
    }

    private static func source(_ words: [String], _ help: CommandHelp) throws(CommandError) -> DataSource {
        guard words.count == 1 else {
            throw usage(help, "local for the bundled data, or a server's address, e.g. :source http://127.0.0.1:8080")
        }
        if words[0].lowercased() == "local" { return .local }
        do {
            return .remote(try REPLOptions.serverURL(words[0]))
        } catch {
            guard case .invalidServer(_, let reason) = error else {
                throw usage(help, "local, or a server's address, e.g. :source http://127.0.0.1:8080")
            }
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

    /// `usage: USAGE (what the arguments are, with an example)`.
    private static func usage(_ help: CommandHelp, _ explanation: String) -> CommandError {
        CommandError("usage: \(help.usage) (\(explanation))")
    }

    private static func unknownTopic(_ topic: String) -> CommandError {
        let names = CommandHelp.all.map(\.name)
        let name = topic.hasPrefix(":") ? topic : ":" + topic
        let suggestion = Suggestion.closest(to: name, in: names).map { "did you mean \($0)? " } ?? ""
        return CommandError("no command \(quoted(topic)) to explain (\(suggestion)type :help for the list)")
    }
}
