import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `streams-repl` when its output cannot be written: stdout at `/dev/full`, closed, or a pipe whose reader has
/// gone (`| head -1`). It must say so on stderr, exit non-zero, and change the store no more.
@Suite struct OutputFailureTests {
    enum Stdout { case full, closed, brokenPipe }

    /// Runs the binary with `script` on stdin and stdout as `stdout`; returns the exit status and stderr.
    private func run(_ script: String, dataDirectory: URL, stdout: Stdout) async throws -> (
        status: Int32, stderr: String
    ) {
        let path = try REPLProcess.binary().path
        signal(SIGPIPE, SIG_IGN)
        let scriptURL = dataDirectory.appendingPathComponent("script.txt")
        try Data(script.utf8).write(to: scriptURL)
        let errorURL = dataDirectory.appendingPathComponent("stderr.txt")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, scriptURL.path, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var pipeEnds: [Int32] = [-1, -1]
        switch stdout {
        case .full: posix_spawn_file_actions_addopen(&actions, 1, "/dev/full", O_WRONLY, 0)
        case .closed: posix_spawn_file_actions_addclose(&actions, 1)
        case .brokenPipe:
            try #require(pipe(&pipeEnds) == 0)
            close(pipeEnds[0])  // nobody will read: every write fails with EPIPE
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        }
        let arguments = [path, "--data-dir", dataDirectory.appendingPathComponent("data").path]
        let argv = arguments.map { strdup($0) } + [nil]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = dataDirectory.path
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        if pipeEnds[1] >= 0 { close(pipeEnds[1]) }
        try #require(spawned == 0)
        let deadline = ContinuousClock.now + .seconds(15)
        var code: Int32 = 0
        while waitpid(pid, &code, WNOHANG) == 0 {
            if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &code, 0)
                Issue.record("streams-repl did not stop within 15 s")
                break
            }
            // Sleeps without holding a thread of the cooperative pool: the loopback servers of the suites running
            // alongside serve from that pool, and a blocked pool (2 threads on 2 cores) stalls them.
            try await Task.sleep(for: .milliseconds(20))
        }
        let status = (code & 0x7F) == 0 ? (code >> 8) & 0xFF : 128 + (code & 0x7F)
        return (status, (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "")
    }

    @Test(arguments: [Stdout.full, .closed, .brokenPipe])
    func unwritableOutputStopsWithAMessageAndChangesNothingMore(_ stdout: Stdout) async throws {
        let temporary = FileManager.default.temporaryDirectory
            .appendingPathComponent("repl-output-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let outcome = try await run("focus\n:fav 10\n:cart add 10\n:fetch\n", dataDirectory: temporary, stdout: stdout)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("streams-repl: "), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("standard output"), "\(outcome.stderr)")
        // The first result line already failed: no later line ran, so the store has no favourite.
        let store = temporary.appendingPathComponent("data/features-store.json")
        let text = (try? String(contentsOf: store, encoding: .utf8)) ?? ""
        #expect(!text.contains("\"10\""), "\(text)")
    }
}
