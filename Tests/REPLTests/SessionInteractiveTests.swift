import Features
import Foundation
import Streams
import StreamsTesting
import Testing

@testable import REPL

/// The interactive session's API, on virtual time: search as you type (`typing`) with live results, Ctrl-C
/// (`interrupt`), leaving at once (`quit`, `:quit`) and Tab completion.
@Suite struct SessionInteractiveTests {
    @Test func typingSearchesThroughTheViewModelsDebounceAndShowsLiveResultsWithoutEnter() throws {
        let harness = try SessionHarness(interactive: true)
        for text in ["f", "fo", "foc", "focus"] {
            harness.session.typing(text)
            harness.scheduler.advance(by: .milliseconds(100))
        }
        #expect(harness.live == [LiveResults.searching("focus")])
        harness.scheduler.advance(by: .milliseconds(399))  // still debouncing: 500 ms after the last key
        #expect(harness.live == [LiveResults.searching("focus")])
        harness.scheduler.advance(by: .milliseconds(1))
        #expect(harness.live == [LiveResults.searching("focus")])  // the request is in flight (100 ms)
        harness.scheduler.advance(by: .milliseconds(100))
        #expect(harness.local.searches == ["focus#1"])  // one search, for the text settled
        let live = try #require(harness.live)
        #expect(live.first == #"results for "focus": 5 products"#)
        #expect(live.count >= 3)
        // Nothing went to the scrollback: results are live only.
        #expect(!harness.outputs.contains { $0.hasPrefix("results for") })
    }

    @Test func newTextReplacesTheLiveResultsAndAnEmptiedLineHidesThem() throws {
        let harness = try SessionHarness(interactive: true)
        harness.session.typing("focus")
        harness.settle()
        #expect(harness.live?.first?.hasPrefix("results for \"focus\"") == true)
        harness.session.typing("focusx")
        harness.scheduler.advance()
        // Typing on: the old results stay under a "searching" line until the new ones arrive.
        #expect(harness.live?.first == LiveResults.searching("focusx"))
        #expect(harness.live?.dropFirst().first?.hasPrefix("results for \"focus\"") == true)
        harness.settle()
        #expect(harness.live == [#"no products match "focusx""#])
        harness.session.typing("")
        harness.scheduler.advance()
        #expect(harness.live == [])
        harness.session.typing(":ne")  // a command being typed leaves the live area alone
        harness.scheduler.advance()
        #expect(harness.live == [])
    }

    @Test func ctrlCCancelsTheSearchInFlight() throws {
        let harness = try SessionHarness(interactive: true, latency: .seconds(3))
        #expect(harness.session.interrupt() == false)  // nothing in flight
        harness.session.typing("focus")
        harness.scheduler.advance(by: .milliseconds(600))
        #expect(harness.live == [LiveResults.searching("focus")])  // in flight
        #expect(harness.session.interrupt() == true)
        harness.scheduler.advance(by: .seconds(10))
        let live = try #require(harness.live)
        #expect(live == [#"search for "focus" cancelled (:retry to search again)"#])
        #expect(harness.session.interrupt() == false)
        #expect(harness.local.searches.isEmpty)  // the request never completed
    }

    @Test func ctrlCCancelsAFetchAndTheNextCommandRunsAtOnce() throws {
        let harness = try SessionHarness(interactive: true, latency: .seconds(100_000))
        harness.type(":fetch", ":count")
        harness.scheduler.advance(by: .seconds(1))
        #expect(!harness.take().outputs.contains("count 0"))  // :count waits for the fetch
        #expect(harness.session.interrupt() == true)
        harness.scheduler.advance()
        let lines = harness.take()
        #expect(lines.errors.isEmpty, "a cancel asked for is not a failure: \(lines)")
        #expect(lines.outputs.contains("the fetch was cancelled"), "\(lines)")
        #expect(lines.outputs.contains("count 0"))
        #expect(harness.session.hadFailure == false)
    }

    @Test func quitEndsAtOnceWithARequestInFlight() throws {
        let harness = try SessionHarness(interactive: true, latency: .seconds(100_000))
        harness.type(":fetch", ":users")
        harness.scheduler.advance(by: .seconds(1))
        harness.session.quit()
        harness.scheduler.advance()
        guard case .finished = harness.recorder.events.last else {
            Issue.record("the session did not end: \(harness.recorder.events.suffix(3))")
            return
        }
        #expect(harness.scheduler.now == SchedulerInstant(offset: .seconds(1)))
    }

    @Test func theQuitCommandEndsAtOnceInInteractiveMode() throws {
        let harness = try SessionHarness(interactive: true, latency: .seconds(100_000))
        harness.type(":prices", ":quit", ":count")
        harness.scheduler.advance(by: .milliseconds(10))
        guard case .finished = harness.recorder.events.last else {
            Issue.record("the session did not end: \(harness.recorder.events.suffix(3))")
            return
        }
        #expect(!harness.outputs.contains("count 0"))  // lines after :quit do not run
    }

    @Test func tabCompletesCommandsAndTheirArguments() throws {
        let harness = try SessionHarness(interactive: true)
        let session = harness.session
        #expect(session.completions(for: ":so") == [":sort ", ":source "])
        #expect(session.completions(for: ":sort p") == [":sort price ", ":sort price-desc "])
        #expect(session.completions(for: ":cart ch") == [":cart checkout "])
        #expect(session.completions(for: ":help fa") == [":help fav ", ":help favs "])
        #expect(session.completions(for: "focus").isEmpty)  // a search: nothing to complete
        session.typing("focus")
        harness.settle()
        let ids = try #require(harness.live).dropFirst().prefix(5).compactMap { row -> String? in
            row.split(separator: " ").first.map { String($0.drop { $0 == "#" }) }
        }
        let completed = session.completions(for: ":fav add ")
        #expect(!completed.isEmpty)
        #expect(completed.allSatisfy { $0.hasPrefix(":fav add ") })
        #expect(Set(completed.map { $0.dropFirst(9).trimmingCharacters(in: .whitespaces) }).isSubset(of: Set(ids)) || ids.isEmpty)
        let brands = session.completions(for: ":brand ")
        #expect(!brands.isEmpty)
    }

    @Test func enterPrintsTheResultsIntoTheScrollbackEvenWhenTheyArriveLater() throws {
        let harness = try SessionHarness(interactive: true)
        harness.session.typing("focus")
        harness.scheduler.advance(by: .milliseconds(100))  // still debouncing: Enter searches at once
        harness.type("focus")
        harness.scheduler.advance()
        #expect(harness.live == [])  // the live lines are cleared: the results go into the scrollback
        harness.scheduler.advance(by: .milliseconds(100))
        let printed = harness.take()
        #expect(printed.outputs.contains(#"results for "focus": 5 products"#), "\(printed)")
        #expect(harness.local.searches == ["focus#1"])
        // :next prints the next page's rows there too.
        let next = harness.run(":next")
        #expect(next.outputs.contains { $0.contains("page 2 of 2") }, "\(next)")
        // Typing again shows results live.
        harness.session.typing("bentley")
        harness.settle()
        #expect(harness.live?.first?.hasPrefix(#"results for "bentley""#) == true)
    }

    @Test func aCommandThatChangesLiveResultsPrintsThem() throws {
        let harness = try SessionHarness(interactive: true)
        harness.session.typing("focus")
        harness.settle()
        _ = harness.take()
        let sorted = harness.run(":sort price")
        #expect(sorted.contains(.live([])))
        #expect(sorted.outputs.contains(#"results for "focus", by price, lowest first: 5 products"#) || sorted.outputs.contains { $0.hasPrefix("results for \"focus\"") }, "\(sorted)")
    }

    @Test func aResizeRefitsTheLiveResultsTable() throws {
        let harness = try SessionHarness(interactive: true)
        harness.session.typing("focus")
        harness.settle()
        let wide = try #require(harness.live)
        harness.session.resize(width: 70)
        harness.scheduler.advance()
        let narrow = try #require(harness.live)
        #expect(narrow != wide)
        // The table rows (after the header line) fit the new width, less one column.
        for row in narrow.dropFirst().prefix(5) {
            #expect(DisplayWidth.of(row) <= 69, "\(row)")
        }
        #expect(wide.dropFirst().prefix(5).contains { DisplayWidth.of($0) > 69 })
    }
}
