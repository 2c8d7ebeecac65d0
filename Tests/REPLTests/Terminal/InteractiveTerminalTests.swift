import Features
import Foundation
import Streams
import StreamsTesting
import Testing

@testable import REPL

/// The interactive front end on virtual time: keys (as raw terminal bytes) in, a session driven, and the
/// screen checked on a `VirtualTerminal`: results appear under the line while typing, output goes above the
/// prompt, Ctrl-C and Ctrl-D, history, Tab.
@Suite struct InteractiveTerminalTests {
    /// A session and a front end on one `TestScheduler`, drawing into a virtual 60 × 20 terminal.
    final class Rig {
        let harness: SessionHarness
        let terminal: InteractiveTerminal
        let submitted = Locked<[String]>([])
        private let written = Locked("")
        private let showing: AnyCancellable
        private(set) var screen = VirtualTerminal(width: 60, height: 20)
        let historyURL: URL?

        init(
            latency: Duration = .milliseconds(100), history: [String]? = nil,
            suspend: @escaping @Sendable () -> Void = {}
        ) throws {
            harness = try SessionHarness(interactive: true, latency: latency)
            if let history {
                let url = harness.directory.appendingPathComponent("history")
                try HistoryFile(url: url).save(history)
                historyURL = url
            } else {
                historyURL = nil
            }
            let input = harness.input
            let submitted = self.submitted
            let written = self.written
            let terminal = InteractiveTerminal(
                session: harness.session, scheduler: harness.scheduler, width: 60, height: 20,
                history: historyURL.map { HistoryFile(url: $0) },
                submit: { line in
                    submitted.withLock { $0.append(line) }
                    input.send(.text(line))
                },
                write: { bytes in written.withLock { $0 += bytes } }, suspend: suspend)
            self.terminal = terminal
            showing = harness.session.output.sink { terminal.show($0) }
            terminal.start()
            harness.scheduler.advance()
        }

        /// Types `text` one key at a time, `pause` apart.
        func type(_ text: String, pause: Duration = .milliseconds(80)) {
            for character in text {
                terminal.receive(Array(String(character).utf8))
                harness.scheduler.advance(by: pause)
            }
        }

        func press(_ bytes: [UInt8]) {
            terminal.receive(bytes)
            harness.scheduler.advance()
        }

        /// The bytes written since the last call (also drawn on the virtual terminal).
        func takeBytes() -> String {
            let bytes = written.withLock { text -> String in
                defer { text = "" }
                return text
            }
            screen.write(bytes)
            return bytes
        }

        /// The terminal after everything written so far.
        func lines() -> [String] {
            let bytes = written.withLock { text -> String in
                defer { text = "" }
                return text
            }
            screen.write(bytes)
            return screen.everything
        }
    }

    @Test func resultsAppearUnderTheLineWhileTypingWithoutEnter() throws {
        let rig = try Rig()
        rig.type("focus")
        rig.harness.scheduler.advance(by: .seconds(1))
        let lines = rig.lines()
        let prompt = try #require(lines.lastIndex(of: "> focus"), "\(lines)")
        #expect(lines.dropFirst(prompt + 1).first == #"results for "focus": 5 products"#, "\(lines)")
        #expect(rig.submitted.withLock { $0 }.isEmpty)  // no Enter was pressed
        #expect(rig.harness.local.searches == ["focus#1"])  // one search, after the debounce
    }

    @Test func asynchronousOutputIsPrintedAboveThePromptAndThePartialLineIsKept() throws {
        let rig = try Rig(latency: .seconds(1))
        rig.type(":fetch\r")
        rig.type(":cou")
        rig.harness.scheduler.advance(by: .seconds(2))
        let lines = rig.lines()
        let answer = try #require(lines.firstIndex { $0.hasPrefix("HTTP 200") }, "\(lines)")
        let prompt = try #require(lines.lastIndex(of: "> :cou"), "\(lines)")
        #expect(answer < prompt)
        #expect(lines.contains("> :fetch"))
    }

    @Test func enterKeepsTheResultsInTheScrollback() throws {
        let rig = try Rig()
        rig.type("focus")
        rig.harness.scheduler.advance(by: .seconds(1))
        rig.type("\r")
        rig.harness.scheduler.advance(by: .seconds(1))
        rig.type(":count\r")
        rig.harness.scheduler.advance(by: .seconds(1))
        let lines = rig.lines()
        let echoed = try #require(lines.firstIndex(of: "> focus"), "\(lines)")
        #expect(lines[echoed + 1] == #"results for "focus": 5 products"#)
        #expect(lines.contains("count 0"))
        #expect(lines.last == ">")  // the terminal strips trailing spaces
    }

    @Test func ctrlCClearsTheLineThenHintsThenQuits() throws {
        let rig = try Rig()
        rig.type("foc")
        rig.press([0x03])
        var lines = rig.lines()
        #expect(lines.last == ">")  // the terminal strips trailing spaces
        rig.press([0x03])
        lines = rig.lines()
        #expect(lines.contains(InteractiveTerminal.quitHint))
        rig.press([0x03])
        rig.harness.scheduler.advance()
        guard case .finished = rig.harness.recorder.events.last else {
            Issue.record("a second Ctrl-C on an empty line did not quit")
            return
        }
    }

    @Test func ctrlCCancelsARequestInFlightAndKeepsTheLine() throws {
        let rig = try Rig(latency: .seconds(100_000))
        rig.type(":users\r")
        rig.type(":cou")
        rig.press([0x03])
        let lines = rig.lines()
        #expect(lines.contains { $0.contains("cancelled") }, "\(lines)")
        #expect(lines.last == "> :cou")
    }

    @Test func ctrlDOnAnEmptyLineQuits() throws {
        let rig = try Rig(latency: .seconds(100_000))
        rig.type(":fetch\r")
        rig.press([0x04])
        rig.harness.scheduler.advance()
        guard case .finished = rig.harness.recorder.events.last else {
            Issue.record("Ctrl-D did not quit")
            return
        }
    }

    @Test func upRecallsTheHistoryFileAndSubmittedLinesAreSaved() throws {
        let rig = try Rig(history: [":count", ":favs"])
        rig.press(Array("\u{1B}[A".utf8))
        #expect(rig.lines().last == "> :favs")
        rig.press(Array("\u{1B}[A".utf8))
        #expect(rig.lines().last == "> :count")
        rig.press([0x0D])
        rig.harness.scheduler.advance(by: .seconds(1))
        #expect(rig.submitted.withLock { $0 } == [":count"])
        let saved = HistoryFile(url: try #require(rig.historyURL)).load()
        #expect(saved == [":count", ":favs", ":count"])
    }

    @Test func tabCompletesACommand() throws {
        let rig = try Rig()
        rig.type(":co")
        rig.press([0x09])
        rig.type("\r")
        #expect(rig.lines().contains("count 0"))
    }

    @Test func aBurstOfOutputRedrawsThePromptOnce() throws {
        let rig = try Rig()
        rig.type(":help")
        _ = rig.takeBytes()
        rig.type("\r")
        let bytes = rig.takeBytes()
        // Once for the echoed line, once for the listing (not once per line of it).
        let redraws = bytes.components(separatedBy: "\r\u{1B}[J").count - 1
        #expect(redraws == 2, "the help's \(CommandHelp.all.count + 1) lines redrew the block \(redraws) times")
        #expect(bytes.contains(CommandHelp.listing.last ?? "?"))
    }

    @Test func ctrlZSuspendsAndResumingRedrawsTheLine() throws {
        let suspended = Locked(0)
        let rig = try Rig(suspend: { suspended.withLock { $0 += 1 } })
        rig.type(":cou")
        rig.press([0x1A])
        #expect(suspended.withLock { $0 } == 1)
        rig.terminal.resumed()
        rig.harness.scheduler.advance()
        #expect(rig.lines().last == "> :cou")
    }
}
