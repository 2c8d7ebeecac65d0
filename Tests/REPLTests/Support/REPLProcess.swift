import Foundation
import Streams

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built `streams-repl` binary with piped stdin, bounded in real time.
enum REPLProcess {
    /// What a run printed and how it exited.
    struct Outcome: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutLines: [String] { Self.lines(stdout) }
        var stderrLines: [String] { Self.lines(stderr) }

        private static func lines(_ text: String) -> [String] {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if text.hasSuffix("\n") { lines.removeLast() }
            return text.isEmpty ? [] : lines
        }
    }

    /// When to send SIGINT.
    struct Interruption: Sendable {
        /// Text stdout must contain first.
        var afterOutput: String
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Taken from creating the pipes until they are spawned and closed: no other run spawns meanwhile.
    private static let spawning = Lock()

    /// The binary: `STREAMS_REPL_BINARY`, else next to the running test executable (`swift test`, any scratch
    /// path, with or without a sanitizer), else `.build/debug`.
    static func binary() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [URL] = []
        if let path = environment["STREAMS_REPL_BINARY"] { candidates.append(URL(fileURLWithPath: path)) }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        candidates.append(executable.deletingLastPathComponent().appendingPathComponent("streams-repl"))
        // Inside an .xctest bundle directory (Darwin layout): climb to the build directory.
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent("streams-repl"))
            directory = directory.deletingLastPathComponent()
        }
        candidates.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath + "/.build/debug/streams-repl"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw Failure(
                description: "streams-repl not found; looked at " + candidates.map(\.path).joined(separator: ", "))
        }
        return found
    }

    /// Runs the binary with `arguments`, writes `input` to its stdin and closes it, and waits at most
    /// `timeout` (then kills it and throws).
    ///
    /// Spawned with `posix_spawn` over pipes marked close-on-exec, pipes and spawn under one lock, so a binary
    /// started at the same time by another test never inherits (and holds open) this run's pipes.
    /// - Parameter interruption: when set, stdin stays open until stdout contains `afterOutput`; then the binary
    ///   gets SIGINT (as from Ctrl-C).
    ///
    /// The waiting happens on a dedicated thread, never on the test's (cooperative) thread: a blocked pool thread
    /// would starve every async test running in parallel (the pool has as many threads as cores).
    static func run(
        _ arguments: [String], input: Data = Data(), timeout: Duration = .seconds(8),
        interruption: Interruption? = nil
    ) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        try runBlocking(arguments, input: input, timeout: timeout, interruption: interruption)
                    })
            }
        }
    }

    private static func runBlocking(
        _ arguments: [String], input: Data, timeout: Duration, interruption: Interruption?
    ) throws -> Outcome {
        let path = try binary().path
        // Writing to a binary that exited early (a bad flag) must be an error, not a SIGPIPE that ends the tests.
        signal(SIGPIPE, SIG_IGN)
        spawning.lock()
        var isLocked = true
        defer { if isLocked { spawning.unlock() } }
        let stdin = try pipe()
        let stdout = try pipe()
        let stderr = try pipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin.read, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout.write, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr.write, 2)
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = FileManager.default.temporaryDirectory.path  // never the real user's data
        environment.removeValue(forKey: "XDG_DATA_HOME")
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        for descriptor in [stdin.read, stdout.write, stderr.write] { close(descriptor) }
        spawning.unlock()
        isLocked = false
        guard spawned == 0 else {
            for descriptor in [stdin.write, stdout.read, stderr.read] { close(descriptor) }
            throw Failure(description: "posix_spawn \(path) failed: \(spawned)")
        }
        let child = pid
        let status = Locked<Int32?>(nil)  // set once the binary has exited (and been reaped)
        // Dedicated threads (not the global dispatch queue, whose few threads other runs may all be blocking).
        let output = Collected()
        let readersDone = DispatchSemaphore(value: 0)
        for (descriptor, name) in [(stdout.read, "stdout"), (stderr.read, "stderr")] {
            Thread.detachNewThread {
                readToEnd(descriptor) { output.append(name, $0) }
                close(descriptor)
                readersDone.signal()
            }
        }
        Thread.detachNewThread {
            writeAll(input, to: stdin.write)
            if let interruption {
                // Bounded wait (polling every 10 ms) for the line, then Ctrl-C; stdin stays open meanwhile.
                let deadline = ContinuousClock.now + .seconds(5)
                while !String(decoding: output.get("stdout"), as: UTF8.self).contains(interruption.afterOutput),
                    ContinuousClock.now < deadline
                {
                    usleep(10_000)
                }
                if status.withLock({ $0 == nil }) { kill(child, SIGINT) }  // stdin stays open, as in a terminal; it is closed once the binary exits
            } else {
                close(stdin.write)
            }
        }
        let exited = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var code: Int32 = 0
            while waitpid(child, &code, 0) < 0 && errno == EINTR {}
            status.withLock { $0 = code }
            exited.signal()
        }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        if exited.wait(timeout: .now() + seconds) == .timedOut {
            kill(pid, SIGKILL)
            _ = exited.wait(timeout: .now() + 2)
            if interruption != nil { close(stdin.write) }
            throw Failure(description: "streams-repl \(arguments) did not exit within \(timeout); killed")
        }
        if interruption != nil { close(stdin.write) }
        // The binary has exited and nothing else holds the pipes: both readers reach the end at once.
        for _ in 0..<2 {
            guard readersDone.wait(timeout: .now() + 5) == .success else {
                throw Failure(description: "the output of streams-repl \(arguments) did not end")
            }
        }
        let code = status.withLock { $0 } ?? -1
        let exitStatus = (code & 0x7F) == 0 ? (code >> 8) & 0xFF : 128 + (code & 0x7F)
        return Outcome(
            status: exitStatus, stdout: String(decoding: output.get("stdout"), as: UTF8.self),
            stderr: String(decoding: output.get("stderr"), as: UTF8.self))
    }

    private static func pipe() throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [0, 0]
        guard Glibc.pipe(&descriptors) == 0 else { throw Failure(description: "pipe failed: \(errno)") }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return (descriptors[0], descriptors[1])
    }

    private static func readToEnd(_ descriptor: Int32, _ received: (Data) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            received(Data(buffer[..<count]))
        }
    }

    private static func writeAll(_ data: Data, to descriptor: Int32) {
        var remaining = data[...]
        while !remaining.isEmpty {
            let written = remaining.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }  // the binary stopped reading (e.g. exited on a bad flag)
            remaining = remaining.dropFirst(written)
        }
    }

    /// Runs with the lines of `script` on stdin.
    static func run(_ arguments: [String], script: String, timeout: Duration = .seconds(8)) async throws -> Outcome {
        try await run(arguments, input: Data(script.utf8), timeout: timeout)
    }
}

/// The bytes read from the two pipes, filled in by their reader threads.
private final class Collected: Sendable {
    private let data = Locked<[String: Data]>([:])

    func append(_ name: String, _ bytes: Data) { data.withLock { $0[name, default: Data()].append(bytes) } }
    func get(_ name: String) -> Data { data.withLock { $0[name] ?? Data() } }
}
