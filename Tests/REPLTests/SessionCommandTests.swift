import Features
import Foundation
import Networking
import REPL
import Streams
import StreamsTesting
import Testing

/// Every command through the session on virtual time, with its output and its error messages.
@Suite struct SessionCommandTests {
    @Test func favouritesAreAddedListedAndRemoved() throws {
        let harness = try SessionHarness()
        #expect(harness.run(":favs").outputs == ["no favourites yet (:fav ID adds a product of the results)"])
        #expect(
            harness.run(":fav 10").errors == [
                "no product with id 10 in the results, the favourites or the basket (search for it first, or check "
                    + "the id)"
            ])
        harness.run("ford")
        #expect(harness.run(":fav 10").outputs == ["added #10 Ford Focus to the favourites (1 in all)"])
        #expect(harness.run(":fav add #10").outputs == ["#10 Ford Focus is already a favourite"])
        #expect(
            harness.run(":favs").outputs == [
                "favourites: 1", Renderer.productTableHeader(),
                "  #10    Ford Focus                     Maserati       CTS               257.00",
            ])
        #expect(harness.store.snapshot.favourites.map(\.id) == ["10"])
        #expect(harness.run(":fav remove 10").outputs == ["removed #10 Ford Focus from the favourites"])
        #expect(harness.run(":fav remove 10").errors == ["product 10 is not a favourite (:favs lists them)"])
        #expect(harness.store.snapshot.favourites.isEmpty)
    }

    @Test func theBasketIsChangedShownAndCheckedOut() throws {
        let harness = try SessionHarness()
        harness.run("ford")
        #expect(harness.run(":cart").outputs == ["the basket is empty"])
        #expect(harness.run(":cart add 10 2").outputs == ["added 2 × #10 Ford Focus; basket total 514.00 (2 items)"])
        #expect(harness.run(":cart add 3").outputs == ["added 1 × #3 Ford XC90; basket total 1249.00 (3 items)"])
        #expect(
            harness.run(":cart show").outputs == [
                "basket:",
                "  #10    Ford Focus                    2 × 257.00      514.00",
                "  #3     Ford XC90                     1 × 735.00      735.00",
                "total 1249.00 (3 items)",
            ])
        #expect(
            harness.run(":cart quantity 10 1").outputs == ["#10 Ford Focus: quantity 1; basket total 992.00 (2 items)"])
        #expect(harness.run(":cart remove 3").outputs == ["removed #3 Ford XC90; basket total 257.00 (1 item)"])
        #expect(harness.run(":cart remove 3").errors == ["product 3 is not in the basket (:cart lists what is in it)"])
        #expect(harness.run(":cart qty 3 2").errors == ["product 3 is not in the basket (:cart lists what is in it)"])
        #expect(
            harness.run(":cart checkout").outputs == [
                "checked out:",
                "  #10    Ford Focus                    1 × 257.00      257.00",
                "total 257.00 (1 item)",
            ])
        #expect(harness.store.snapshot.basket.isEmpty)
        #expect(harness.run(":cart checkout").errors == ["the basket is empty: nothing to check out"])
        #expect(
            harness.run(":cart add 99").errors == [
                "no product with id 99 in the results, the favourites or the basket (search for it first, or check "
                    + "the id)"
            ])
    }

    @Test func fetchCountsEveryResponseAndResetStartsOver() throws {
        let harness = try SessionHarness()
        #expect(harness.run(":fetch").outputs == ["HTTP 200, count 1"])
        #expect(harness.run(":fetch", ":count").outputs == ["HTTP 200, count 2", "count 2"])
        #expect(harness.store.snapshot.fetchCount == 2)
        #expect(harness.run(":reset", ":count").outputs == ["count reset to 0", "count 0"])
        #expect(harness.store.snapshot.fetchCount == 0)
        #expect(harness.local.count("/status") == 2)
    }

    @Test func aFailedFetchIsAnErrorAndDoesNotCount() throws {
        let harness = try SessionHarness()
        harness.local.fail("/status", with: .timeout)
        let output = harness.run(":fetch", ":count")
        #expect(output.errors == ["fetch failed: the request timed out (:fetch to try again)"])
        #expect(output.outputs == ["count 0"])
    }

    @Test func pricesLoadOnFirstUseFilterAndRefreshWithDirections() throws {
        let harness = try SessionHarness()
        let first = harness.run(":prices BTC2")
        #expect(first.outputs == ["prices: 1 currency matching \"BTC2\"", "  BTC2              1.80800715  new"])
        #expect(harness.local.count("/crypto") == 1)
        // Shown again from memory: no new request.
        #expect(harness.run(":prices btc2").outputs.last == "  BTC2              1.80800715  new")
        #expect(harness.local.count("/crypto") == 1)
        // :refresh reloads, keeping the last filter; unchanged prices are "same".
        #expect(harness.run(":refresh").outputs.last == "  BTC2              1.80800715  same")
        #expect(harness.local.count("/crypto") == 2)
        #expect(harness.run(":prices nothing-like-this").outputs == [#"no currency matches "nothing-like-this""#])
    }

    @Test func theWholePriceListIsCutAfterTwentyRows() throws {
        let harness = try SessionHarness()
        let output = harness.run(":prices")
        #expect(output.outputs.first == "prices: 2191 currencies")
        #expect(output.outputs.count == 22)
        #expect(output.outputs.last == "… 2171 more (:prices FILTER narrows the list)")
    }

    @Test func aFailedRefreshKeepsTheRowsAndExplainsAfterItsRetries() throws {
        let harness = try SessionHarness()
        harness.run(":prices BTC2")
        harness.local.fail("/crypto", with: .unacceptableStatus(code: 503, body: "busy"))
        let output = harness.run(":refresh")
        #expect(output.outputs.last == "  BTC2              1.80800715  new")
        #expect(output.errors == ["prices could not be refreshed: HTTP 503: busy (:refresh to try again)"])
        #expect(harness.local.count("/crypto") == 5)  // the first load, then 1 + 3 retries
    }

    @Test func usersAreLoadedAndReloaded() throws {
        let harness = try SessionHarness()
        let output = harness.run(":users")
        #expect(output.outputs.count == 11)
        #expect(output.outputs.first == "users: 10")
        #expect(
            output.outputs[1]
                == "    1  Leanne Graham             @Bret               Sincere@april.biz           Gwenborough")
        #expect(harness.run(":users").outputs.count == 11)
        #expect(harness.local.count("/users") == 2)
        harness.local.fail("/users", with: .unacceptableStatus(code: 500, body: ""))
        #expect(harness.run(":users").errors == ["users could not be loaded: HTTP 500 (:users to try again)"])
    }

    @Test func sourceSwitchesEveryViewModelAndSearchesTheTextAgain() throws {
        let harness = try SessionHarness()
        harness.run("focus")
        let switched = harness.run(":source http://127.0.0.1:9/api")
        #expect(switched.outputs.first == "source: http://127.0.0.1:9/api")
        #expect(switched.outputs[1] == #"results for "focus": 5 products"#)
        #expect(harness.session.source == .remote(URL(string: "http://127.0.0.1:9/api")!))
        harness.run(":fetch", ":users")
        #expect(harness.remote.searches == ["focus#1"])
        #expect(harness.remote.count("/status") == 1 && harness.remote.count("/users") == 1)
        #expect(harness.local.count("/status") == 0)
        #expect(harness.run(":source local").outputs.first == "source: local")
        #expect(harness.session.source == .local)
        #expect(harness.local.searches == ["focus#1", "focus#1"])
    }

    @Test func aSourceThatCannotBeUsedIsAnErrorAndTheOldOneStays() throws {
        let harness = try SessionHarness()
        harness.run(":source http://127.0.0.1:9")
        harness.localIsBroken.withLock { $0 = true }
        let output = harness.run(":source local")
        #expect(output.errors.count == 1)
        #expect(output.errors[0].hasPrefix("could not use local: "))
        #expect(output.errors[0].hasSuffix("(still using http://127.0.0.1:9)"))
        #expect(
            harness.run(":source ftp://x").errors == [
                "cannot use 'ftp://x' as the source: the scheme 'ftp' is not http or https "
                    + "(usage: :source local|URL, e.g. :source http://127.0.0.1:8080)"
            ])
    }

    @Test func historyListsTheLinesBeforeIt() throws {
        let harness = try SessionHarness()
        #expect(harness.run(":history").outputs == ["no history yet"])
        harness.run("focus", ":nxt", ":count")
        #expect(
            harness.run(":history").outputs == ["   1  :history", "   2  focus", "   3  :nxt", "   4  :count"])
    }

    @Test func helpListsEveryCommandAndExplainsOne() throws {
        let harness = try SessionHarness()
        let listing = harness.run(":help").outputs
        #expect(listing.count == CommandHelp.all.count + 1)
        for help in CommandHelp.all {
            #expect(listing.contains { $0.hasPrefix("  " + help.usage) && $0.hasSuffix(help.summary) })
        }
        #expect(harness.run(":help quit").outputs == [":quit", "  exit (piped: once earlier lines are answered; interactive: at once)", "  also: :q, :exit"])
        #expect(
            harness.run(":help :fecth").errors == [
                "no command ':fecth' to explain (did you mean :fetch? type :help for the list)"
            ])
    }

    @Test func unknownCommandsAndBadArgumentsAreErrorsAndTheSessionGoesOn() throws {
        let harness = try SessionHarness()
        let output = harness.run(":nxt", ":zzzzzz", ":next 2", ":sort prise", ":cart chekout", ":cart add", "focus")
        #expect(
            output.errors == [
                "unknown command ':nxt' (did you mean :next? type :help for the list)",
                "unknown command ':zzzzzz' (type :help for the list)",
                ":next takes no arguments (usage: :next)",
                "unknown sort 'prise' (did you mean price? usage: :sort price|price-desc|newest|oldest|none)",
                "unknown :cart action 'chekout' (did you mean checkout? "
                    + "usage: :cart [show|add|remove|quantity|checkout])",
                "usage: :cart add ID [QTY] (an id from the results and a quantity from 1 to 999, e.g. :cart add 3 2)",
            ])
        #expect(output.outputs.first == #"results for "focus": 5 products"#)
    }

    @Test func unreadableLinesAreReportedAndTheSessionGoesOn() throws {
        let harness = try SessionHarness()
        harness.input.send(.unreadable(reason: "input line 1 is not valid UTF-8 and was ignored"))
        harness.type("focus")
        harness.settle()
        #expect(harness.errors == ["input line 1 is not valid UTF-8 and was ignored"])
        #expect(harness.outputs.first == #"results for "focus": 5 products"#)
    }
}
