// streams-repl: connects stdin, stdout and stderr to a REPL `Session` on a real-time scheduler.
// All the logic is in the REPL library; see README.md, "REPL".
import Dispatch
import Features
import Foundation
import REPL
import Streams

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes `text` to `descriptor` completely (retrying short writes and interruptions); `false` when it cannot
/// be written (a full disk, a closed descriptor, a reader that went away: `| head -1`).
func writeText(_ text: String, to descriptor: Int32) -> Bool {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written < 0 {
            if errno == EINTR { continue }
            return false
        }
        bytes = bytes.dropFirst(written)
    }
    return true
}

/// Writes `text` to `descriptor`, or, when it cannot be written, says so on stderr (if it can) and exits 1 at
/// once: nothing more can be shown, so nothing more is run (no further line changes the store).
func show(_ text: String, on descriptor: Int32) {
    guard !writeText(text, to: descriptor) else { return }
    let reason = String(cString: strerror(errno))
    let name = descriptor == STDOUT_FILENO ? "standard output" : "standard error"
    _ = writeText("streams-repl: cannot write to \(name) (\(reason)); stopping\n", to: STDERR_FILENO)
    exit(1)
}

/// Exits 1 when stdout or stderr is closed: the files the REPL opens would otherwise take their numbers, and
/// the output would go into them (the store's lock file, say).
func requireOutputDescriptors() {
    for descriptor in [STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) < 0 {
        let name = descriptor == STDOUT_FILENO ? "standard output" : "standard error"
        _ = writeText("streams-repl: \(name) is closed; nothing could be shown, so stopping\n", to: STDERR_FILENO)
        exit(1)
    }
}

/// Parses the options, opens the store, starts the session and serves stdin until the session ends.
///
/// A nonisolated function, not top-level code: top-level code runs on the main actor, and its closures would
/// assert that they run there, while these run on the session's queue and the reader thread.
func runREPL() -> Never {
    let environment = ProcessInfo.processInfo.environment
    let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
    requireOutputDescriptors()
    let options: REPLOptions
    do {
        options = try REPLOptions.parse(Array(CommandLine.arguments.dropFirst()), environment: environment, home: home)
    } catch {
        _ = writeText(StartupMessage.options(error) + "\n", to: STDERR_FILENO)
        exit(2)
    }
    switch options.action {
    case .help:
        show(REPLOptions.usage + "\n", on: STDOUT_FILENO)
        exit(0)
    case .version:
        show(REPLOptions.versionLine + "\n", on: STDOUT_FILENO)
        exit(0)
    case .run:
        break
    }

    signal(SIGPIPE, SIG_IGN)
    let queue = DispatchQueue(label: "streams-repl.session")
    // Interactive when a person types and reads: stdin and stdout are both terminals.
    let isInteractive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    let lines = PassthroughSubject<InputLine, Never>()

    // Another streams-repl holding the store's lock: say so on stderr and wait (bounded; Ctrl-C still works:
    // the wait sleeps between tries, and SIGINT is handled on its own queue).
    let lockWaiting = StoreLockWaiting(onWait: { message in
        _ = writeText(TerminalText.escaped("streams-repl: " + message) + "\n", to: STDERR_FILENO)
    })
    let store: FeatureStore
    do {
        store = try FeatureStore(directory: options.dataDirectory, lockWaiting: lockWaiting)
    } catch {
        _ = writeText(StartupMessage.store(error, directory: options.dataDirectory) + "\n", to: STDERR_FILENO)
        exit(1)
    }

    let session: Session
    do {
        session = try Session(
            input: lines, store: store, scheduler: queue, source: options.server.map { .remote($0) } ?? .local,
            isInteractive: isInteractive, timeout: options.timeout, bail: options.bail)
    } catch {
        _ = writeText(StartupMessage.session(error) + "\n", to: STDERR_FILENO)
        exit(1)
    }

    if isInteractive {
        runInteractive(session: session, lines: lines, dataDirectory: options.dataDirectory)
    } else {
        runPiped(session: session, lines: lines)
    }
}

/// Piped mode: lines from stdin, results on stdout, problems on stderr; exit status 1 when any line failed.
func runPiped(session: Session, lines: PassthroughSubject<InputLine, Never>) -> Never {
    // The session escapes every line it publishes (TerminalText), so outside text is printed safely here.
    let printing = session.output.sink(
        receiveCompletion: { [session] _ in exit(session.hadFailure ? 1 : 0) },
        receiveValue: { line in
            switch line {
            case .output(let text): show(text + "\n", on: STDOUT_FILENO)
            case .error(let text): show(text + "\n", on: STDERR_FILENO)
            case .prompt(let text): show(text, on: STDOUT_FILENO)
            case .live: break  // only in interactive mode
            }
        })

    // Ctrl-C (stdin is not a terminal, but a person may still press it): the store is written synchronously and
    // atomically, so leaving at once loses nothing. Handled on its own queue, so it works while the session's
    // queue waits (for the store's lock, say).
    let signals = handleSignals([SIGINT, SIGTERM, SIGHUP]) { signal in exit(128 + signal) }

    session.start()

    // stdin is read on its own thread: a blocking read never holds up the session.
    let reader = Thread {
        var decoder = LineDecoder()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            for line in decoder.feed(buffer[..<count]) { lines.send(line) }
        }
        for line in decoder.finish() { lines.send(line) }
        lines.send(completion: .finished)
    }
    reader.start()

    withExtendedLifetime((printing, signals, session)) {
        dispatchMain()
    }
}

/// Interactive mode: the line editor in raw mode, search as you type, output above the prompt.
func runInteractive(session: Session, lines: PassthroughSubject<InputLine, Never>, dataDirectory: URL) -> Never {
    guard TerminalMode.enterRawMode(STDIN_FILENO) else {
        runPiped(session: session, lines: lines)
    }
    let size = TerminalMode.windowSize(STDOUT_FILENO) ?? (80, 24)
    let terminal = InteractiveTerminal(
        session: session, scheduler: DispatchQueue(label: "streams-repl.terminal"), width: size.width,
        height: size.height, history: HistoryFile(url: dataDirectory.appendingPathComponent("history")),
        submit: { lines.send(.text($0)) }, write: { show($0, on: STDOUT_FILENO) },
        suspend: { kill(getpid(), SIGTSTP) })

    let printing = session.output.sink(
        receiveCompletion: { _ in
            terminal.finish {
                TerminalMode.restore()
                exit(0)
            }
        },
        receiveValue: { terminal.show($0) })

    // SIGTERM, SIGHUP, and SIGINT sent by another program (Ctrl-C itself arrives as a key in raw mode): restore
    // the terminal, then leave (the store is written synchronously and atomically, so nothing is lost).
    let signals = handleSignals([SIGINT, SIGTERM, SIGHUP]) { signal in
        TerminalMode.restore()
        _ = writeText("\n", to: STDOUT_FILENO)
        exit(128 + signal)
    }
    let resizing = handleSignals([SIGWINCH]) { _ in
        if let size = TerminalMode.windowSize(STDOUT_FILENO) { terminal.resize(width: size.width, height: size.height) }
    }
    // Ctrl-Z (a key in raw mode, turned into SIGTSTP by the terminal front end) or SIGTSTP from another program:
    // give the terminal back as it was, stop; after `fg` (SIGCONT) take it again and redraw.
    // SIGSTOP stops the process asynchronously (this thread may run on for a moment), so the handler waits for the
    // SIGCONT that `fg` sends before taking the terminal again.
    let continued = DispatchSemaphore(value: 0)
    let continuing = handleSignals([SIGCONT]) { _ in continued.signal() }
    let suspending = handleSignals([SIGTSTP]) { _ in
        while continued.wait(timeout: .now()) == .success {}  // forget a SIGCONT that came without a stop
        TerminalMode.restore()
        _ = writeText("\n", to: STDOUT_FILENO)
        kill(getpid(), SIGSTOP)
        continued.wait()
        _ = TerminalMode.enterRawMode(STDIN_FILENO)
        if let size = TerminalMode.windowSize(STDOUT_FILENO) { terminal.resize(width: size.width, height: size.height) }
        terminal.resumed()
    }

    session.start()
    terminal.start()

    // Keys are read on their own thread. A lone ESC is the Escape key when nothing follows it within 50 ms.
    let reader = Thread {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            terminal.receive(Array(buffer[..<count]))
            if buffer[count - 1] == 0x1B {
                var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
                if poll(&descriptor, 1, 50) == 0 { terminal.flushPendingEscape() }
            }
        }
        session.quit()  // the terminal went away
    }
    reader.start()

    withExtendedLifetime((printing, signals, resizing, suspending, continuing, session, terminal)) {
        dispatchMain()
    }
}

/// Runs `handler` on its own queue when one of `signals` arrives (instead of the default action).
func handleSignals(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) -> [any DispatchSourceSignal] {
    let queue = DispatchQueue(label: "streams-repl.signals")
    return signals.map { number in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
        source.setEventHandler { handler(number) }
        source.resume()
        return source
    }
}

runREPL()
