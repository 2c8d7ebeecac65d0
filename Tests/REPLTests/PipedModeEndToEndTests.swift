import Foundation
import Testing

/// The built binary in piped mode on the bundled data: a long mixed script runs in seconds (no command waits out the
/// debounce), the output keeps the order of the lines, and the exit status says whether any line failed.
@Suite(.serialized) struct PipedModeEndToEndTests {
    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("repl-piped-\(UUID().uuidString)")
    }

    @Test func tenThousandMixedLinesFinishInSecondsInOrder() async throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let block = ["focus", ":count", ":sort price", ":next", "bentley", ":favs", ":help next", ":sort none", "", ":count"]
        let script = Array(repeating: block, count: 1000).joined().joined(separator: "\n") + "\n"
        let start = ContinuousClock.now
        let run = try await REPLProcess.run(["--data-dir", data.path], input: Data(script.utf8), timeout: .seconds(300))
        let elapsed = ContinuousClock.now - start
        #expect(run.status == 0, "stderr: \(run.stderr.prefix(300))")
        #expect(run.stderr.isEmpty)
        // Waiting out the 500 ms debounce before each of the 2,000 searches' commands would take over 1,000 s. A debug
        // build takes about 4 s; the bound leaves room for the thread sanitizer on a loaded 2-core machine (37 s seen)
        // and still catches that regression five times over.
        #expect(elapsed < .seconds(200), "took \(elapsed)")
        let lines = run.stdoutLines
        #expect(lines.filter { $0 == "count 0" }.count == 2000)
        // Every block prints its search's results before its count, in line order.
        let kinds = lines.compactMap { line -> Character? in
            if line.hasPrefix("results for \"focus\"") { return "f" }
            if line.hasPrefix("results for \"bentley\"") { return "b" }
            if line == "count 0" { return "c" }
            return nil
        }
        #expect(String(kinds.prefix(8)).hasPrefix("fcfbc") || String(kinds.prefix(8)).hasPrefix("fc"), "\(kinds.prefix(12))")
        #expect(kinds.first == "f")
    }

    @Test func theExitStatusIs1WhenAnyLineFailedAndBailStopsAtTheFirst() async throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let script = ":count\n:nosuch\n:count\n"
        let all = try await REPLProcess.run(["--data-dir", data.path], input: Data(script.utf8), timeout: .seconds(20))
        #expect(all.status == 1)
        #expect(all.stdoutLines == ["count 0", "count 0"])  // every line ran
        let bailed = try await REPLProcess.run(["--data-dir", data.path, "--bail"], input: Data(script.utf8), timeout: .seconds(20))
        #expect(bailed.status == 1)
        #expect(bailed.stdoutLines == ["count 0"])
        let clean = try await REPLProcess.run(["--data-dir", data.path], input: Data(":count\n".utf8), timeout: .seconds(20))
        #expect(clean.status == 0)
    }

    @Test func aBadTimeoutIsExplainedInOneLine() async throws {
        let run = try await REPLProcess.run(["--timeout", "0"], input: Data("".utf8), timeout: .seconds(20))
        #expect(run.status == 2)
        #expect(run.stderrLines.first?.hasPrefix("streams-repl: cannot use '0' as the timeout: it must be more than 0 seconds") == true,
            "\(run.stderr)")
    }
}
