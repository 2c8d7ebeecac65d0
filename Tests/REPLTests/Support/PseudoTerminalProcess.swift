import Foundation
import Streams

#if canImport(Glibc)
    import Glibc
#endif

/// The built `streams-repl` binary run under a pseudo-terminal (`openpty`), as a person at a terminal runs
/// it: stdin, stdout and stderr are the terminal, so the binary starts its line editor. The test types keys
/// into the terminal and reads what the binary draws. Every wait is bounded in real time, and none blocks a
/// thread of the cooperative pool (see ``offThePool(_:)``).
final class PseudoTerminalProcess: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Taken while spawning, so a binary started at the same time by another test never inherits this
    /// terminal's descriptors.
    private static let spawning = Lock()

    let pid: pid_t
    private let master: Int32
    private let slave: Int32
    private let received = Locked<[UInt8]>([])
    private let exitStatus = Locked<Int32?>(nil)
    private let exited = DispatchSemaphore(value: 0)
    private let readerDone = DispatchSemaphore(value: 0)
    private let stopReading = Locked(false)

    /// Starts the binary with `arguments` on a `width` × `height` terminal.
    init(_ arguments: [String], width: Int = 100, height: Int = 30) throws {
        let path = try REPLProcess.binary().path
        var master: Int32 = 0
        var slave: Int32 = 0
        var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
        Self.spawning.lock()
        defer { Self.spawning.unlock() }
        guard openpty(&master, &slave, nil, nil, &size) == 0 else {
            throw Failure(description: "openpty failed: \(String(cString: strerror(errno)))")
        }
        for descriptor in [master, slave] { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for target in Int32(0)...2 { posix_spawn_file_actions_adddup2(&actions, slave, target) }
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = FileManager.default.temporaryDirectory.path  // never the real user's data
        environment["TERM"] = "xterm"
        environment.removeValue(forKey: "XDG_DATA_HOME")
        // Under the thread sanitizer, a binary built with it sleeps 1 s at exit (its `atexit_sleep_ms` default)
        // to let other threads finish: not the program's time, and the quitting tests measure the program's.
        let sanitizer = environment["TSAN_OPTIONS"].map { $0 + ":" } ?? ""
        environment["TSAN_OPTIONS"] = sanitizer + "atexit_sleep_ms=0"
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard spawned == 0 else {
            close(master)
            close(slave)
            throw Failure(description: "posix_spawn \(path) failed: \(spawned)")
        }
        self.pid = pid
        self.master = master
        self.slave = slave
        Thread.detachNewThread { [self] in readOutput() }
        let child = pid
        Thread.detachNewThread { [self] in
            var code: Int32 = 0
            while waitpid(child, &code, 0) < 0 && errno == EINTR {}
            exitStatus.withLock { $0 = (code & 0x7F) == 0 ? (code >> 8) & 0xFF : 128 + (code & 0x7F) }
            exited.signal()
        }
    }

    deinit {
        if exitStatus.withLock({ $0 == nil }) {
            kill(pid, SIGKILL)
            _ = exited.wait(timeout: .now() + 2)
        }
        stopReading.withLock { $0 = true }
        _ = readerDone.wait(timeout: .now() + 2)
        close(master)
        close(slave)
    }

    /// Everything the binary wrote to the terminal so far.
    var output: String { String(decoding: received.withLock { $0 }, as: UTF8.self) }

    /// How many bytes the binary wrote so far (to wait for output after a given point).
    var outputCount: Int { received.withLock { $0.count } }

    /// The output written after the first `offset` bytes.
    func output(after offset: Int) -> String {
        String(decoding: received.withLock { Array($0.dropFirst(offset)) }, as: UTF8.self)
    }

    /// Types `text` one key (one character) at a time, `pause` apart, as a person types.
    func type(_ text: String, pause: Duration = .milliseconds(40)) async {
        for character in text {
            send(Array(String(character).utf8))
            try? await Task.sleep(for: pause)
        }
    }

    /// Writes raw key bytes (e.g. `[0x04]` for Ctrl-D, `"\u{1B}[A"` for Up).
    func send(_ bytes: [UInt8]) {
        var remaining = bytes[...]
        while !remaining.isEmpty {
            let written = remaining.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            remaining = remaining.dropFirst(written)
        }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// Waits (at most `timeout`) until the output after `offset` contains `text`; whether it did.
    func waitForOutput(_ text: String, after offset: Int = 0, timeout: Duration = .seconds(8)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if output(after: offset).contains(text) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return output(after: offset).contains(text)
    }

    /// Waits (at most `timeout`) for the binary to exit; its exit status, or `nil` if it is still running.
    func waitForExit(timeout: Duration) async -> Int32? {
        await offThePool { [self] in blockingWaitForExit(timeout: timeout) }
    }

    private func blockingWaitForExit(timeout: Duration) -> Int32? {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        guard exited.wait(timeout: .now() + seconds) == .success else { return nil }
        exited.signal()  // later waits return at once
        return exitStatus.withLock { $0 }
    }

    /// The terminal's settings now (after the binary exited: what it restored).
    func terminalSettings() -> termios {
        var settings = termios()
        _ = tcgetattr(slave, &settings)
        return settings
    }

    private func readOutput() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !stopReading.withLock({ $0 }) {
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 20) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            received.withLock { $0 += buffer[..<count] }
        }
        readerDone.signal()
    }
}

/// Runs the blocking `wait` on a thread of its own and awaits its result. A test never blocks a thread of the
/// cooperative pool: the pool has as many threads as cores (two in CI), and a test holding one for seconds
/// starves every async test running beside it — a request made through a `Task` then times out.
func offThePool<Result: Sendable>(_ wait: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: wait()) }
    }
}
