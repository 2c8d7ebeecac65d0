import Features
import Foundation
import Streams
import StreamsTesting
import Testing

@testable import REPL

/// `:trace on|off`: the search pipeline's timeline (keys, debounced, request) as marble rows, live under the
/// results while typing and after printed results, on virtual time.
@Suite struct SessionTraceTests {
    @Test func pipedResultsAreFollowedByTheirTimelineWhileTracing() throws {
        let harness = try SessionHarness(latency: .milliseconds(300))
        #expect(harness.run(":trace on").outputs.first?.hasPrefix("tracing the search") == true)
        let lines = harness.run("focus").outputs
        let trace = try #require(lines.firstIndex(of: "trace:"), "\(lines)")
        #expect(lines[trace + 1] == "  keys       a")
        // Nothing follows the line yet, so the debounce (500 ms) decides; the request takes 300 ms.
        #expect(lines[trace + 2] == "  debounced  -----a")
        #expect(lines[trace + 3] == "  request    -----^--(b|)")
        #expect(Array(lines[(trace + 4)...]) == [#"  a = "focus""#, #"  b = "4 products""#])
        // Each search gets a new timeline; off stops them.
        #expect(harness.run("bentley").outputs.contains(#"  a = "bentley""#))
        #expect(harness.run(":trace off").outputs == ["trace off"])
        #expect(!harness.run("ford").outputs.contains("trace:"))
    }

    @Test func whileTypingTheTimelineShowsTheDebounceUnderTheLiveResults() throws {
        let harness = try SessionHarness(interactive: true)
        harness.run(":trace on")
        for text in ["f", "fo", "foc", "focus"] {
            harness.session.typing(text)
            harness.scheduler.advance(by: .milliseconds(200))
        }
        harness.settle()
        let live = try #require(harness.live)
        let trace = try #require(live.firstIndex(of: "trace:"), "\(live)")
        #expect(live.first == #"results for "focus": 5 products"#)
        // Keys every 200 ms; the text settles 500 ms after the last; the request takes 100 ms.
        #expect(live[trace + 1] == "  keys       a-b-c-d")
        #expect(live[trace + 2] == "  debounced  -----------d")
        #expect(live[trace + 3].hasPrefix("  request    -----------^"), "\(live)")
        #expect(live.contains(#"  d = "focus""#))
    }

    @Test func traceTakesOnOrOff() throws {
        let harness = try SessionHarness()
        #expect(harness.run(":trace").errors == ["usage: :trace on|off (on or off, e.g. :trace on)"])
        #expect(harness.run(":trace maybe").errors.count == 1)
        #expect(harness.session.completions(for: ":trace ") == [":trace on ", ":trace off "])
    }
}
