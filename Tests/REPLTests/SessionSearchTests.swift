import Features
import Foundation
import Networking
import REPL
import Streams
import StreamsTesting
import Testing

/// Search lines through the session on virtual time: debounce, rendering, pages, sort and filters, failures.
@Suite struct SessionSearchTests {
    @Test func fastTypedLinesAreDebouncedIntoOneSearchForTheLastText() throws {
        let harness = try SessionHarness()
        for text in ["f", "fo", "foc", "focus"] {
            harness.type(text)
            harness.scheduler.advance(by: .milliseconds(100))
        }
        harness.settle()
        #expect(harness.local.searches == ["focus#1"])
        // The last line at 300 ms, quiet until 800 ms, answered 100 ms later.
        let header = try #require(harness.outputTimes.first)
        #expect(header.0 == #"results for "focus": 5 products"#)
        #expect(header.1 == .milliseconds(900))
        #expect(harness.errors.isEmpty)
    }

    @Test func pipedLinesArrivingTogetherSearchOnceAndTheNextCommandPagesThatSearch() throws {
        let harness = try SessionHarness()
        let output = harness.run("fo", "foc", "focus", ":next")
        #expect(harness.local.searches == ["focus#1", "focus#2"])
        #expect(
            output.outputs == [
                #"results for "focus": 5 products"#,
                "  id     name                           brand          model              price",
                "  #1     Bentley Focus                  Lamborghini    CTS                51.00",
                "  #10    Ford Focus                     Maserati       CTS               257.00",
                "  #24    Aston Martin Focus             Rolls Royce    Roadster          128.00",
                "  #54    Hyundai Focus                  Volkswagen     A4                355.00",
                "page 1 of 2, 4 of 5 shown (:next for more)",
                "  #59    Honda Focus                    Honda          Fiesta            985.00",
                "page 2 of 2, 5 of 5 shown (last page)",
            ])
        #expect(output.errors.isEmpty)
    }

    @Test func nextAfterTheLastPageAndWithoutResultsExplainsOnStderr() throws {
        let harness = try SessionHarness()
        #expect(harness.run(":next").errors == ["no results to page through (type a search first)"])
        harness.run("focus", ":next")
        let output = harness.run(":next")
        #expect(output.errors == [#"no more results for "focus" (5 products)"#])
        #expect(output.outputs.isEmpty)
        #expect(harness.local.searches == ["focus#1", "focus#2"])
    }

    @Test func oneCharacterShowsTheHintAndNoMatchShowsEmpty() throws {
        let harness = try SessionHarness()
        #expect(harness.run("f").outputs == [SearchState.shortTextHint])
        #expect(harness.run("zzzz").outputs == [#"no products match "zzzz""#])
        #expect(harness.local.searches == ["zzzz#1"])
    }

    @Test func blankLinesAreIgnored() throws {
        let harness = try SessionHarness()
        #expect(harness.run("", "   ").isEmpty)
        #expect(harness.local.searches.isEmpty)
    }

    @Test func sortBrandModelAndClearSearchAgainFromTheFirstPage() throws {
        let harness = try SessionHarness()
        harness.run("ford")
        let sorted = harness.run(":sort price")
        #expect(sorted.outputs.first == "sorting by price, lowest first")
        #expect(sorted.outputs[1] == #"results for "ford" (sorted by price, lowest first): 4 products"#)
        #expect(sorted.outputs[2] == Renderer.productTableHeader())
        #expect(sorted.outputs[3].contains("#70"))  // 46.00, the cheapest
        let branded = harness.run(":brand Honda")
        #expect(
            branded.outputs == [
                "brand Honda", #"no products match "ford" (brand Honda; sorted by price, lowest first)"#,
            ])
        let modelled = harness.run(":brand", ":model CTS")
        #expect(modelled.outputs.contains("every brand"))
        #expect(modelled.outputs.contains("model CTS"))
        #expect(modelled.outputs.last == "page 1 of 1, 1 of 1 shown (last page)")
        let cleared = harness.run(":clear")
        #expect(cleared.outputs.first == "cleared the search, sort and filters")
        #expect(cleared.outputs.contains("results for all products: 74 products"))
        #expect(cleared.outputs.last == "page 1 of 19, 4 of 74 shown (:next for more)")
        let query = try #require(harness.local.requests.last)
        #expect(query.queryValue("search") == nil && query.queryValue("sortBy") == nil)
        #expect(query.queryValue("brand") == nil && query.queryValue("model") == nil)
    }

    @Test func aFailedSearchIsAnErrorAndRetrySearchesAgain() throws {
        let harness = try SessionHarness()
        harness.local.fail("/products", with: .unacceptableStatus(code: 500, body: "boom"))
        let failed = harness.run("focus")
        #expect(failed.errors == [#"search for "focus" failed: HTTP 500: boom (:retry to try again)"#])
        #expect(failed.outputs.isEmpty)
        harness.local.fail("/products", with: nil)
        let retried = harness.run(":retry")
        #expect(retried.outputs.first == #"results for "focus": 5 products"#)
        #expect(harness.run(":retry").errors == ["nothing to retry: the last search did not fail"])
    }

    @Test func aFailedPageIsAnErrorAndNextTriesItAgain() throws {
        let harness = try SessionHarness()
        harness.run("focus")
        harness.local.fail("/products", with: .timeout)
        let failed = harness.run(":next")
        #expect(failed.errors == [#"page 2 of "focus" failed: the request timed out (:next to try again)"#])
        harness.local.fail("/products", with: nil)
        let next = harness.run(":next")
        #expect(
            next.outputs == [
                "  #59    Honda Focus                    Honda          Fiesta            985.00",
                "page 2 of 2, 5 of 5 shown (last page)",
            ])
    }

    @Test func aCommandWaitsForTheSearchBeforeItButNotForItsDebounce() throws {
        let harness = try SessionHarness(latency: .milliseconds(300))
        harness.type("focus", ":count")
        harness.scheduler.advance(by: .milliseconds(299))
        #expect(harness.outputs.isEmpty)  // the search (run at once, not after 500 ms) is not answered yet
        harness.scheduler.advance(by: .milliseconds(1))
        #expect(harness.outputs.count == 8)  // header, table header, 4 rows, footer, count
        #expect(harness.outputs.last == "count 0")
    }

    @Test func resultsOfAnOlderTextAreNotShownWhileANewerOneIsDebounced() throws {
        let harness = try SessionHarness(latency: .milliseconds(300))
        harness.type("focus")
        harness.scheduler.advance(by: .milliseconds(700))  // "focus" is loading (asked at 500 ms)
        harness.type("zzzz")
        harness.settle()
        #expect(harness.local.searches == ["focus#1", "zzzz#1"])
        #expect(harness.outputs == [#"no products match "zzzz""#])
    }
}
