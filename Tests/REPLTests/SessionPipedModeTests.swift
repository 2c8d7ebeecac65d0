import Features
import Foundation
import Streams
import StreamsTesting
import Testing

@testable import REPL

/// Piped mode on virtual time: a command does not wait out the debounce, the output keeps the order of the
/// lines, failures are counted (exit status 1) and `--bail` stops at the first.
@Suite struct SessionPipedModeTests {
    @Test func aCommandAfterASearchDoesNotWaitOutTheDebounce() throws {
        let harness = try SessionHarness()
        harness.type("focus", ":count")
        harness.settle()
        let times = harness.outputTimes
        let header = try #require(times.first { $0.0.hasPrefix("results for \"focus\"") })
        let count = try #require(times.first { $0.0 == "count 0" })
        #expect(header.1 == .milliseconds(100))  // the request's latency only, no 500 ms debounce
        #expect(count.1 == .milliseconds(100))
        #expect(harness.outputs.firstIndex { $0.hasPrefix("results for") }! < harness.outputs.firstIndex(of: "count 0")!)
    }

    @Test func consecutiveSearchLinesAreStillMergedIntoOneSearch() throws {
        let harness = try SessionHarness()
        harness.run("fo", "foc", "focus", ":count")
        #expect(harness.local.searches == ["focus#1"])
    }

    @Test func theLastSearchOfAScriptRunsAtTheEndOfInputWithoutTheDebounce() throws {
        let harness = try SessionHarness()
        harness.type("focus")
        harness.input.send(completion: .finished)
        harness.settle()
        #expect(harness.local.searches == ["focus#1"])
        guard case .finished = harness.recorder.events.last else {
            Issue.record("the session did not end")
            return
        }
        #expect(harness.recorder.events.last?.time == .milliseconds(100))
    }

    @Test func aThousandMixedLinesRunInOrderWithoutWaitingOutTheDebounce() throws {
        let harness = try SessionHarness(latency: .milliseconds(10))
        var expected: [String] = []
        for index in 0..<250 {
            harness.type(index % 2 == 0 ? "focus" : "bentley", ":count", ":sort price", ":favs")
            expected.append(":count")
        }
        harness.input.send(completion: .finished)
        harness.settle()
        #expect(harness.outputs.filter { $0 == "count 0" }.count == 250)
        #expect(harness.errors.isEmpty, "\(harness.errors.prefix(3))")
        // 500 requests of 10 ms (a search and a sorted search per block); waiting out the debounce would
        // take 250 × 500 ms more.
        #expect(harness.scheduler.now <= SchedulerInstant(offset: .seconds(6)), "\(harness.scheduler.now)")
        // Output order is line order: every block prints its results, then its count.
        let kinds = harness.outputs.compactMap { line -> String? in
            if line.hasPrefix("results for") { return "r" }
            if line == "count 0" { return "c" }
            return nil
        }
        #expect(kinds.prefix(4) == ["r", "c", "r", "r"] || kinds.prefix(3) == ["r", "c", "r"], "\(kinds.prefix(8))")
    }

    @Test func everyLineRunsAndFailuresAreCounted() throws {
        let harness = try SessionHarness()
        harness.run(":count")
        #expect(harness.session.hadFailure == false)
        harness.run(":nosuchcommand", ":count", ":next")
        #expect(harness.session.failureCount == 2)
        #expect(harness.session.hadFailure)
        #expect(harness.outputs.filter { $0 == "count 0" }.count == 2)  // the line after a failure still ran
    }

    @Test func bailStopsAtTheFirstFailure() throws {
        let harness = try SessionHarness(bail: true)
        harness.type(":count", ":nosuchcommand", ":count", ":fetch")
        harness.settle()
        #expect(harness.outputs == ["count 0"])
        #expect(harness.errors.count == 1)
        #expect(harness.local.count("/status") == 0)
        guard case .finished = harness.recorder.events.last else {
            Issue.record("the session did not end")
            return
        }
    }

    @Test func quitInAScriptStillWaitsForTheWorkBeforeIt() throws {
        let harness = try SessionHarness(latency: .seconds(1))
        harness.run(":fetch", ":quit", ":count")
        #expect(harness.outputs.contains { $0.hasPrefix("HTTP 200") }, "\(harness.outputs)")
        #expect(!harness.outputs.contains("count 1"))
    }

    @Test func aSearchAfterACommandWaitingForItsAnswerPrintsAfterThatAnswer() throws {
        let harness = try SessionHarness(latency: .seconds(1))
        harness.run(":fetch", "focus", ":users", "bentley")
        let fetched = try #require(harness.outputs.firstIndex { $0.hasPrefix("HTTP 200") })
        let focus = try #require(harness.outputs.firstIndex { $0.hasPrefix("results for \"focus\"") })
        let users = try #require(harness.outputs.firstIndex { $0.hasPrefix("users:") || $0.contains("Leanne") })
        let bentley = try #require(harness.outputs.firstIndex { $0.hasPrefix("results for \"bentley\"") })
        #expect(fetched < focus && focus < users && users < bentley, "\(harness.outputs)")
    }
}
