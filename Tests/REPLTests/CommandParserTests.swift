import Features
import Foundation
import REPL
import Testing

/// Every command's parsing, and every kind of mistake.
@Suite struct CommandParserTests {
    @Test(arguments: [
        (":help", Command.help(topic: nil)), (":HELP next", .help(topic: "next")), (":quit", .quit), (":q", .quit),
        (":exit", .quit), (":next", .next), (":retry", .retry), (":sort price", .sort(.priceAscending)),
        (":sort price-desc", .sort(.priceDescending)), (":sort Newest", .sort(.newest)),
        (":sort oldest", .sort(.oldest)),
        (":sort none", .sort(nil)), (":brand Aston Martin, Ford", .brand(["Aston Martin", "Ford"])),
        (":brand", .brand([])),
        (":model CTS", .model(["CTS"])), (":model", .model([])), (":clear", .clear),
        (":fav 12", .favourite(.add(productID: "12"))), (":fav add 12", .favourite(.add(productID: "12"))),
        (":fav remove 12", .favourite(.remove(productID: "12"))), (":favs", .favourites), (":cart", .cart(.show)),
        (":cart show", .cart(.show)), (":cart add 3", .cart(.add(productID: "3", quantity: 1))),
        (":cart add 3 4", .cart(.add(productID: "3", quantity: 4))), (":cart remove 3", .cart(.remove(productID: "3"))),
        (":cart quantity 3 0", .cart(.setQuantity(productID: "3", quantity: 0))),
        (":cart qty 3 2", .cart(.setQuantity(productID: "3", quantity: 2))), (":cart checkout", .cart(.checkout)),
        (":fetch", .fetch), (":count", .count), (":reset", .reset), (":refresh", .refresh),
        (":prices", .prices(filter: nil)), (":prices btc", .prices(filter: "btc")), (":users", .users),
        (":source local", .source(.local)),
        (":source https://example.com/api", .source(.remote(URL(string: "https://example.com/api")!))),
        (":history", .history), ("  :next  ", .next),
    ])
    func parsesEveryCommand(line: String, command: Command) throws {
        #expect(try CommandParser.parse(line) == .command(command))
    }

    @Test func linesThatAreNotCommandsAreSearchesAndBlankLinesAreBlank() throws {
        #expect(try CommandParser.parse("red car") == .search("red car"))
        #expect(try CommandParser.parse("  focus ") == .search("  focus "))
        #expect(try CommandParser.parse("") == .blank)
        #expect(try CommandParser.parse(" \t ") == .blank)
    }

    @Test(arguments: [
        (":nxt", "unknown command ':nxt' (did you mean :next? type :help for the list)"),
        (":favz", "unknown command ':favz' (did you mean :fav? type :help for the list)"),
        (":", "unknown command ':' (type :help for the list)"),
        (":quit now", ":quit takes no arguments (usage: :quit)"),
        (":sort", "wrong arguments for :sort (usage: :sort price|price-desc|newest|oldest|none)"),
        (":sort cheap", "unknown sort 'cheap' (usage: :sort price|price-desc|newest|oldest|none)"),
        (":fav", "wrong arguments for :fav (usage: :fav [add|remove] ID)"),
        (":fav drop 3", "wrong arguments for :fav (usage: :fav [add|remove] ID)"),
        (":cart add 3 0", "the quantity must be a whole number ≥ 1, not '0'"),
        (":cart add 3 x", "the quantity must be a whole number ≥ 1, not 'x'"),
        (":cart quantity 3 -1", "the quantity must be a whole number ≥ 0, not '-1'"),
        (":cart quantity 3", "wrong arguments for :cart quantity (usage: :cart quantity ID QTY)"),
        (":cart checkout now", "wrong arguments for :cart checkout (usage: :cart checkout)"),
        (
            ":cart ad 3",
            "unknown :cart action 'ad' (did you mean add? usage: :cart [show|add|remove|quantity|checkout])"
        ),
        (":source", "wrong arguments for :source (usage: :source local|URL)"),
        (":source nowhere", "cannot use 'nowhere' as the source: it does not start with http:// or https:// "
                + "(usage: :source local|URL, e.g. :source http://127.0.0.1:8080)"),
        (":help a b", "wrong arguments for :help (usage: :help [COMMAND])"),
        (":help srot", "no command 'srot' to explain (did you mean :sort? type :help for the list)"),
    ])
    func mistakesAreExplained(line: String, message: String) {
        #expect(throws: CommandError(message)) { try CommandParser.parse(line) }
    }

    @Test func everyCommandHasAUsageAndASummaryAndIsFoundByItsNames() {
        #expect(CommandHelp.all.count == 19)
        for help in CommandHelp.all {
            #expect(!help.summary.isEmpty && help.usage.hasPrefix(help.name))
            #expect(CommandHelp.named(help.name) == help)
            #expect(CommandHelp.named(String(help.name.dropFirst())) == help)
            for alias in help.aliases { #expect(CommandHelp.named(alias) == help) }
            #expect(
                (try? CommandParser.parse(help.name + " x y z")) == nil || help.name == ":brand"
                    || help.name == ":model" || help.name == ":prices")
        }
    }
}

/// "Did you mean …?": the closest known word within two edits.
@Suite struct SuggestionTests {
    @Test func suggestsTheClosestWordWithinTwoEdits() {
        let names = [":next", ":help", ":fetch", ":favs", ":fav"]
        #expect(Suggestion.closest(to: ":nxt", in: names) == ":next")
        #expect(Suggestion.closest(to: ":nxet", in: names) == ":next")  // a swap is one edit
        #expect(Suggestion.closest(to: ":FETCH", in: names) == ":fetch")
        #expect(Suggestion.closest(to: ":fvs", in: names) == ":favs")
        #expect(Suggestion.closest(to: ":zzzzzz", in: names) == nil)
        #expect(Suggestion.closest(to: "x", in: ["y"]) == nil)  // one edit is the whole word
    }
}
