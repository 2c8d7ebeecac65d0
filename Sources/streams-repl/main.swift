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
    let isInteractive = isatty(STDIN_FILENO) == 1
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
            isInteractive: isInteractive)
    } catch {
        _ = writeText(StartupMessage.session(error) + "\n", to: STDERR_FILENO)
        exit(1)
    }

    // The session escapes every line it publishes (TerminalText), so outside text is printed safely here.
    let printing = session.output.sink(
        receiveCompletion: { _ in exit(0) },
        receiveValue: { line in
            switch line {
            case .output(let text): show(text + "\n", on: STDOUT_FILENO)
            case .error(let text): show(text + "\n", on: STDERR_FILENO)
            case .prompt(let text): show(text, on: STDOUT_FILENO)
            }
        })

    // Ctrl-C: the store is written synchronously and atomically, so leaving at once loses nothing. Handled on
    // its own queue, so it works while the session's queue waits (for the store's lock, say).
    signal(SIGINT, SIG_IGN)
    let interrupt = DispatchSource.makeSignalSource(
        signal: SIGINT, queue: DispatchQueue(label: "streams-repl.interrupt"))
    interrupt.setEventHandler {
        if isInteractive { _ = writeText("\n", to: STDOUT_FILENO) }
        exit(130)
    }
    interrupt.resume()

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

    withExtendedLifetime((printing, interrupt, session)) {
        dispatchMain()
    }
}

runREPL()
