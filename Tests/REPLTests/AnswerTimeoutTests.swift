import Foundation
@testable import REPL
import Streams
import StreamsTesting
import Testing

/// A command waits for its answer at most `Session.defaultAnswerTimeout` (virtual time here): then it says so in
/// one line and the session goes on, so a lost or endless answer can never hang a script.
@Suite struct AnswerTimeoutTests {
    private let noAnswer =
        "no answer to :prices within 150 s; going on without it (check that the server is running, then try again)"

    @Test func aCommandWithoutAnAnswerGivesUpAtTheTimeoutAndTheNextLineRuns() throws {
        let harness = try SessionHarness(latency: .seconds(100_000))  // the server never answers in time
        harness.type(":prices", ":count")
        harness.scheduler.advance(by: .seconds(149))
        #expect(harness.take().isEmpty)  // still waiting, and :count waits behind it
        harness.scheduler.advance(by: .seconds(1))
        let lines = harness.take()
        #expect(lines.errors == [noAnswer])
        #expect(lines.outputs == ["count 0"])
    }

    @Test func theSessionEndsAtTheEndOfInputAfterGivingUp() throws {
        let harness = try SessionHarness(latency: .seconds(100_000))
        harness.type(":prices")
        harness.input.send(completion: .finished)
        harness.scheduler.advance(by: .seconds(150))
        #expect(harness.errors == [noAnswer])
        guard case .finished = harness.recorder.events.last else {
            Issue.record("the session did not end")
            return
        }
    }

    @Test func anAnswerInTimeCancelsNothingAndALaterDeadlineIsIgnored() throws {
        let harness = try SessionHarness(latency: .seconds(10))
        let lines = harness.run(":prices BTC2", ":refresh")
        #expect(lines.errors.isEmpty, "\(lines)")
        harness.scheduler.advance(by: .seconds(1000))
        #expect(harness.errors.isEmpty)
        #expect(harness.outputs.filter { $0.hasPrefix("prices:") }.count == 2)
    }

    @Test func theLineSaysWhatWaitedHowLongAndWhatToDo() {
        #expect(Session.noAnswer(to: ":refresh", after: .seconds(2)).hasPrefix("no answer to :refresh within 2 s;"))
        #expect(Session.noAnswer(to: ":users", after: .milliseconds(1500)).contains("within 2 s"))
    }
}
