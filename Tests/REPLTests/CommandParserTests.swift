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
        (":sort", "usage: :sort price|price-desc|newest|oldest|none (one order, e.g. :sort price)"),
        (":sort cheap", "unknown sort 'cheap' (usage: :sort price|price-desc|newest|oldest|none)"),
        (":fav", "usage: :fav ID, :fav add ID or :fav remove ID (an id from the results, e.g. :fav 3)"),
        (":fav drop 3", "usage: :fav ID, :fav add ID or :fav remove ID (an id from the results, e.g. :fav 3)"),
        (":cart add 3 0", "quantity must be a whole number from 1 to 999, got 0"),
        (":cart add 3 x", "quantity must be a whole number from 1 to 999, got 'x'"),
        (":cart quantity 3 -1", "quantity must be a whole number from 0 to 999 (0 removes the product), got -1"),
        (
            ":cart quantity 3",
            "usage: :cart quantity ID QTY (an id from :cart and a quantity from 0 to 999, 0 removing it, "
                + "e.g. :cart quantity 3 2)"
        ),
        (":cart checkout now", "usage: :cart checkout (it takes no arguments)"),
        (
            ":cart ad 3",
            "unknown :cart action 'ad' (did you mean add? usage: :cart [show|add|remove|quantity|checkout])"
        ),
        (
            ":source",
            "usage: :source local|URL (local for the bundled data, or a server's address, "
                + "e.g. :source http://127.0.0.1:8080)"
        ),
        (":source nowhere", "cannot use 'nowhere' as the source: it does not start with http:// or https:// "
                + "(usage: :source local|URL, e.g. :source http://127.0.0.1:8080)"),
        (":help a b", "usage: :help [COMMAND] (a command's name, e.g. :help cart)"),
        (":help srot", "no command 'srot' to explain (did you mean :sort? type :help for the list)"),
    ])
    func mistakesAreExplained(line: String, message: String) {
        #expect(throws: CommandError(message)) { try CommandParser.parse(line) }
    }

    @Test func everyCommandHasAUsageAndASummaryAndIsFoundByItsNames() {
        #expect(CommandHelp.all.count == 20)
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
