import Foundation
@testable import REPL
import Streams
import StreamsTesting
import Testing

/// A command waits for its answer at most the session's timeout (`--timeout`, 5 s by default; virtual time
/// here): then it says so in one line, cancels the request and the session goes on, so a lost or endless
/// answer can never hang a script.
@Suite struct AnswerTimeoutTests {
    private let noAnswer =
        "no answer to :prices within 5 s; going on without it "
        + "(check that the server is running, or allow more time with --timeout)"

    @Test func aCommandWithoutAnAnswerGivesUpAtTheTimeoutAndTheNextLineRuns() throws {
        let harness = try SessionHarness(latency: .seconds(100_000))  // the server never answers in time
        harness.type(":prices", ":count")
        harness.scheduler.advance(by: .milliseconds(4999))
        #expect(harness.take().isEmpty)  // still waiting, and :count waits behind it
        harness.scheduler.advance(by: .milliseconds(1))
        let lines = harness.take()
        #expect(lines.errors == [noAnswer])
        #expect(lines.outputs == ["count 0"])
    }

    @Test func theSessionEndsAtTheEndOfInputAfterGivingUp() throws {
        let harness = try SessionHarness(latency: .seconds(100_000))
        harness.type(":prices")
        harness.input.send(completion: .finished)
        harness.scheduler.advance(by: .seconds(5))
        #expect(harness.errors == [noAnswer])
        guard case .finished = harness.recorder.events.last else {
            Issue.record("the session did not end")
            return
        }
    }

    @Test func anAnswerInTimeCancelsNothingAndALaterDeadlineIsIgnored() throws {
        let harness = try SessionHarness(latency: .seconds(10), timeout: .seconds(30))
        let lines = harness.run(":prices BTC2", ":refresh")
        #expect(lines.errors.isEmpty, "\(lines)")
        harness.scheduler.advance(by: .seconds(1000))
        #expect(harness.errors.isEmpty)
        #expect(harness.outputs.filter { $0.hasPrefix("prices:") }.count == 2)
    }

    @Test func aLongerTimeoutWaitsLonger() throws {
        let harness = try SessionHarness(latency: .seconds(100_000), timeout: .seconds(60))
        harness.type(":users")
        harness.scheduler.advance(by: .seconds(59))
        #expect(harness.take().isEmpty)
        harness.scheduler.advance(by: .seconds(1))
        #expect(harness.take().errors == [Session.noAnswer(to: ":users", after: .seconds(60))])
    }

    @Test func aSearchRequestWithoutAnAnswerFailsAtTheTimeout() throws {
        let harness = try SessionHarness(latency: .seconds(100_000), timeout: .seconds(2))
        harness.type("focus", ":count")
        harness.scheduler.advance(by: .seconds(1))  // :count made the search run at once, without the debounce
        #expect(harness.take().isEmpty)
        harness.scheduler.advance(by: .seconds(1))
        let lines = harness.take()
        #expect(lines.errors.count == 1)
        #expect(lines.errors.first?.contains("timed out") == true, "\(lines)")
        #expect(lines.outputs == ["count 0"])
    }

    @Test func theLineSaysWhatWaitedHowLongAndWhatToDo() {
        #expect(Session.noAnswer(to: ":refresh", after: .seconds(2)).hasPrefix("no answer to :refresh within 2 s;"))
        #expect(Session.noAnswer(to: ":users", after: .milliseconds(1500)).contains("within 2 s"))
    }
}
