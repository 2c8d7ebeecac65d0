import FeatureServer
import Features
import Foundation
import LoopbackHTTPServer
import Networking
import Testing

/// The built `streams-repl` against a busy loopback server: every run must end by itself.
@Suite struct PriceRefreshEndToEndTests {
    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("repl-prices-\(UUID().uuidString)")
    }

    /// `:prices` then 20 × `:refresh` piped: each refresh waits for the one before, and none may be lost (a lost
    /// one left the REPL waiting forever in about half the runs).
    @Test func manyRefreshesInAPipedSessionAllAnswerAndTheRunEnds() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        try server.serveFeatures()
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let script = ":prices BTC2\n" + String(repeating: ":refresh\n", count: 20)
        let run = try await REPLProcess.run(
            ["--server", server.baseURL.absoluteString, "--data-dir", data.path], script: script,
            timeout: .seconds(20))
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdoutLines.filter { $0.hasPrefix("prices: ") }.count == 21)
        #expect(server.requestCount("/crypto") == 21)
    }
}
