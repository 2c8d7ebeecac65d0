import Foundation
import Streams
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built `streams-repl` binary under a pseudo-terminal, typed at a key at a time: search as you type,
/// history, quitting, and the terminal restored. Real waits, each bounded (a few seconds); serialized, so the
/// timing of one run is not disturbed by another binary starting.
@Suite(.serialized) struct InteractiveEndToEndTests {
    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("repl-pty-\(UUID().uuidString)")
    }

    @Test func resultsAppearWhileTypingWithoutEnterAndCtrlDQuitsRestoringTheTerminal() async throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let repl = try PseudoTerminalProcess(["--data-dir", data.path])
        #expect(await repl.waitForOutput("> "), "no prompt; got: \(repl.output)")
        await repl.type("focus")
        // The view model's debounce (500 ms) then the search: results under the line, no Enter pressed.
        #expect(await repl.waitForOutput("Ford Focus"), "no results while typing; got: \(repl.output)")
        #expect(!repl.output.contains("\r\n> focus\r\n"), "the line was submitted, it should not have been")
        let start = ContinuousClock.now
        repl.send([0x15, 0x04])  // Ctrl-U empties the line, Ctrl-D on the empty line quits
        let status = await repl.waitForExit(timeout: .seconds(3))
        #expect(status == 0)
        #expect(ContinuousClock.now - start < .seconds(1), "Ctrl-D took \(ContinuousClock.now - start)")
        let settings = repl.terminalSettings()
        #expect(settings.c_lflag & tcflag_t(ECHO) != 0, "echo was not restored")
        #expect(settings.c_lflag & tcflag_t(ICANON) != 0, "line mode was not restored")
    }

    @Test(arguments: [(SIGTERM, Int32(143)), (SIGHUP, Int32(129)), (SIGINT, Int32(130))])
    func aSignalRestoresTheTerminalAndExits(signal: Int32, status: Int32) async throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let repl = try PseudoTerminalProcess(["--data-dir", data.path])
        #expect(await repl.waitForOutput("> "))
        await repl.type("foc")
        #expect(repl.terminalSettings().c_lflag & tcflag_t(ICANON) == 0, "not in raw mode while running")
        kill(repl.pid, signal)
        #expect(await repl.waitForExit(timeout: .seconds(3)) == status)
        let settings = repl.terminalSettings()
        #expect(settings.c_lflag & tcflag_t(ECHO) != 0, "echo was not restored")
        #expect(settings.c_lflag & tcflag_t(ICANON) != 0, "line mode was not restored")
    }

    @Test func ctrlZGivesTheTerminalBackAndFgTakesItAgain() async throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let repl = try PseudoTerminalProcess(["--data-dir", data.path])
        #expect(await repl.waitForOutput("> "))
        await repl.type("foc")
        repl.send([0x1A])  // Ctrl-Z: the program restores the terminal and stops
        var restored = false
        for _ in 0..<50 where !restored {
            restored = repl.terminalSettings().c_lflag & tcflag_t(ICANON) != 0
            if !restored { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(restored, "the terminal was not given back on Ctrl-Z")
        let mark = repl.outputCount
        kill(repl.pid, SIGCONT)  // what the shell's fg sends
        #expect(await repl.waitForOutput("> foc", after: mark), "the line was not redrawn: \(repl.output(after: mark))")
        #expect(repl.terminalSettings().c_lflag & tcflag_t(ICANON) == 0, "raw mode was not taken again")
        repl.send([0x15, 0x04])
        #expect(await repl.waitForExit(timeout: .seconds(3)) == 0)
    }

    @Test func upRecallsTheHistoryAcrossRuns() async throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        do {
            let first = try PseudoTerminalProcess(["--data-dir", data.path])
            #expect(await first.waitForOutput("> "))
            await first.type(":count\r")
            #expect(await first.waitForOutput("count 0"), "got: \(first.output)")
            let mark = first.outputCount
            first.send("\u{1B}[A")  // Up: the line typed before
            #expect(await first.waitForOutput(":count", after: mark), "Up did not recall :count; got: \(first.output)")
            first.send("\r")
            #expect(await first.waitForOutput("count 0", after: mark))
            await first.type(":quit\r")
            #expect(await first.waitForExit(timeout: .seconds(3)) == 0)
        }
        let history = try String(contentsOf: data.appendingPathComponent("history"), encoding: .utf8)
        #expect(history.split(separator: "\n").map(String.init) == [":count", ":quit"])  // duplicates dropped

        let second = try PseudoTerminalProcess(["--data-dir", data.path])
        #expect(await second.waitForOutput("> "))
        let mark = second.outputCount
        second.send("\u{1B}[A\u{1B}[A")  // Up twice: :quit, then :count
        #expect(await second.waitForOutput(":count", after: mark), "got: \(second.output(after: mark))")
        second.send([0x15, 0x04])  // Ctrl-U empties the line, Ctrl-D on the empty line quits
        #expect(await second.waitForExit(timeout: .seconds(3)) == 0)
    }

    @Test func ctrlCCancelsARequestToAServerThatNeverAnswersAndCtrlDQuitsAtOnce() async throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try SilentServer()
        let repl = try PseudoTerminalProcess(
            ["--data-dir", data.path, "--server", "http://127.0.0.1:\(server.port)", "--timeout", "60"])
        #expect(await repl.waitForOutput("> "))
        await repl.type(":fetch\r")
        #expect(await server.waitForConnection(timeout: .seconds(5)), "the fetch never connected")
        let mark = repl.outputCount
        repl.send([0x03])  // Ctrl-C
        let cancelled = await repl.waitForOutput("cancelled", after: mark, timeout: .seconds(2))
        #expect(cancelled, "got: \(repl.output(after: mark))")
        #expect(await server.waitForClose(timeout: .seconds(2)), "cancelling did not close the connection")

        await repl.type(":fetch\r")
        #expect(await server.waitForConnection(timeout: .seconds(5)))
        let start = ContinuousClock.now
        repl.send([0x04])  // Ctrl-D while the server hangs
        #expect(await repl.waitForExit(timeout: .seconds(3)) == 0)
        #expect(ContinuousClock.now - start < .seconds(1), "Ctrl-D took \(ContinuousClock.now - start)")
    }

    /// Piped, `:quit` lets the work before it finish, so a script's answers are printed: `--timeout` bounds the
    /// wait for a hung server, the line that got no answer fails, and the exit status says so.
    @Test func aScriptAgainstAHungServerEndsAfterTheTimeoutWithStatus1() async throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try SilentServer()
        let start = ContinuousClock.now
        let run = try await REPLProcess.run(
            ["--data-dir", data.path, "--server", "http://127.0.0.1:\(server.port)", "--timeout", "1"],
            input: Data(":fetch\n:quit\n:count\n".utf8), timeout: .seconds(10))
        #expect(ContinuousClock.now - start < .seconds(4), "took \(ContinuousClock.now - start)")
        #expect(run.status == 1, "the fetch got no answer: a failed line")
        #expect(run.stderr.contains("within 1 s"), "stderr: \(run.stderr)")
        #expect(!run.stdout.contains("count"), "a line after :quit ran: \(run.stdout)")
    }
}

/// A TCP server on 127.0.0.1 that accepts connections and never answers: a hung server.
final class SilentServer: Sendable {
    let port: Int
    private let listener: Int32
    private let accepted = Locked<[Int32]>([])
    private let connected = DispatchSemaphore(value: 0)

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard listener >= 0, bound == 0, listen(listener, 16) == 0 else {
            throw PseudoTerminalProcess.Failure(description: "could not listen on 127.0.0.1")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                _ = fcntl(connection, F_SETFD, FD_CLOEXEC)  // not inherited by the REPL it serves
                accepted.withLock { $0.append(connection) }
                connected.signal()
            }
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for connection in accepted.withLock({ $0 }) { close(connection) }
    }

    /// Waits for the next connection (on a thread of its own: see ``offThePool(_:)``).
    func waitForConnection(timeout: Duration) async -> Bool {
        await offThePool { [connected] in
            connected.wait(timeout: .now() + Double(timeout.components.seconds)) == .success
        }
    }

    /// Waits until a connection accepted so far is closed by the client (read returns 0).
    func waitForClose(timeout: Duration) async -> Bool {
        await offThePool { [self] in blockingWaitForClose(timeout: timeout) }
    }

    private func blockingWaitForClose(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            for connection in accepted.withLock({ $0 }) {
                var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
                if poll(&descriptor, 1, 0) > 0 {
                    var byte: UInt8 = 0
                    // The request's bytes come first; a closed connection reads 0 (or fails, once reset).
                    while true {
                        let count = recv(connection, &byte, 1, Int32(MSG_DONTWAIT))
                        if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { return true }
                        if count < 0 { break }
                    }
                }
            }
            usleep(10_000)
        }
        return false
    }
}
