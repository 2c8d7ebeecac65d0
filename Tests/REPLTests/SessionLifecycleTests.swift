import Features
import Foundation
import Networking
import REPL
import Streams
import StreamsTesting
import Testing

/// How a session starts, waits, prompts and ends.
@Suite struct SessionLifecycleTests {
    @Test func atEndOfInputThePendingSearchIsAnsweredBeforeTheOutputFinishes() throws {
        let harness = try SessionHarness()
        harness.type("fo", "focus")
        harness.input.send(completion: .finished)
        // The last search runs at once at the end of the input (no debounce left to wait out), then its answer.
        harness.scheduler.advance(by: .milliseconds(99))
        #expect(!harness.recorder.isFinished)
        #expect(harness.idle.values.last == false)
        harness.scheduler.advance(by: .milliseconds(1))
        #expect(harness.outputs.first == #"results for "focus": 5 products"#)
        #expect(harness.local.searches == ["focus#1"])  // "fo" was merged into "focus" as before
        #expect(harness.recorder.events.last == .finished(at: .milliseconds(100)))
        #expect(harness.idle.values.last == true)
    }

    @Test func atEndOfInputARequestInFlightIsAnsweredFirst() throws {
        let harness = try SessionHarness(latency: .seconds(2))
        harness.type(":fetch")
        harness.input.send(completion: .finished)
        harness.scheduler.advance(by: .milliseconds(1999))
        #expect(!harness.recorder.isFinished)
        harness.scheduler.advance(by: .milliseconds(1))
        #expect(harness.outputs == ["HTTP 200, count 1"])
        #expect(harness.recorder.isFinished)
        #expect(harness.store.snapshot.fetchCount == 1)
    }

    @Test func emptyInputEndsAtOnceWithNoOutput() throws {
        let harness = try SessionHarness()
        harness.input.send(completion: .finished)
        harness.scheduler.advance()
        #expect(harness.recorder.events == [.finished(at: .zero)])
    }

    @Test func quitEndsAfterEarlierWorkAndIgnoresLaterLines() throws {
        let harness = try SessionHarness()
        harness.type("focus", ":quit", ":fetch", "ford")
        harness.settle()
        #expect(harness.outputs.first == #"results for "focus": 5 products"#)
        #expect(harness.recorder.isFinished)
        #expect(harness.local.count("/status") == 0)
        #expect(harness.local.searches == ["focus#1"])
    }

    @Test func isIdleIsFalseWhileASearchIsDebouncedOrLoading() throws {
        let harness = try SessionHarness(latency: .milliseconds(200))
        #expect(harness.idle.values == [true])
        harness.type("focus")
        harness.scheduler.advance(by: .milliseconds(600))  // debounced at 500 ms, loading until 700 ms
        #expect(harness.idle.values == [true, false])
        harness.scheduler.advance(by: .milliseconds(100))
        #expect(harness.idle.values == [true, false, true])
    }

    @Test func interactiveSessionsShowABannerPromptsAndStateLines() throws {
        let harness = try SessionHarness(interactive: true)
        let start = harness.take()
        #expect(start.count == 3)
        #expect(
            start[0]
                == .output("streams-repl \(REPLOptions.version) — data: local, store: \(harness.directory.path)"))
        #expect(start[2] == .prompt("> "))
        // A submitted search (Enter) prints its state lines and results into the scrollback (typing shows them
        // live instead: SessionInteractiveTests).
        let search = harness.run("focus")
        #expect(search.first == .output(#"searching "focus"…"#))
        #expect(search.contains(.output(#"results for "focus": 5 products"#)))
        #expect(search.last == .prompt("> "))
        #expect(harness.run(":next").prefix(1) == [.output("loading page 2…")])
        #expect(
            harness.run(":fetch") == [.output("fetching the status…"), .output("HTTP 200, count 1"), .prompt("> ")])
        #expect(harness.run(":prices BTC2").first == .output("loading prices…"))
        #expect(harness.run(":users").first == .output("loading users…"))
        harness.input.send(completion: .finished)
        harness.settle()
        #expect(harness.take().isEmpty)  // the front end (InteractiveTerminal) leaves the terminal on a new line
        #expect(harness.recorder.isFinished)
    }

    @Test func pipedSessionsShowNoBannerPromptOrStateLines() throws {
        let harness = try SessionHarness()
        #expect(harness.take().isEmpty)
        let output = harness.run("focus", ":next", ":fetch", ":prices BTC2", ":users")
        #expect(!output.contains(.prompt("> ")))
        #expect(!output.outputs.contains { $0.hasSuffix("…") })
        harness.input.send(completion: .finished)
        harness.settle()
        #expect(harness.take().isEmpty)
    }
}
