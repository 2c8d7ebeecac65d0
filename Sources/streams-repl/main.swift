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

/// Writes `text` to `descriptor` completely (retrying short writes and interruptions).
func writeText(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written < 0 {
            if errno == EINTR { continue }
            return  // stdout or stderr closed: nothing more can be shown
        }
        bytes = bytes.dropFirst(written)
    }
}

/// Parses the options, opens the store, starts the session and serves stdin until the session ends.
///
/// A nonisolated function, not top-level code: top-level code runs on the main actor, and its closures would
/// assert that they run there, while these run on the session's queue and the reader thread.
func runREPL() -> Never {
    let environment = ProcessInfo.processInfo.environment
    let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
    let options: REPLOptions
    do {
        options = try REPLOptions.parse(Array(CommandLine.arguments.dropFirst()), environment: environment, home: home)
    } catch {
        writeText(StartupMessage.options(error) + "\n", to: STDERR_FILENO)
        exit(2)
    }
    switch options.action {
    case .help:
        writeText(REPLOptions.usage + "\n", to: STDOUT_FILENO)
        exit(0)
    case .version:
        writeText(REPLOptions.versionLine + "\n", to: STDOUT_FILENO)
        exit(0)
    case .run:
        break
    }

    signal(SIGPIPE, SIG_IGN)
    let queue = DispatchQueue(label: "streams-repl.session")
    let isInteractive = isatty(STDIN_FILENO) == 1
    let lines = PassthroughSubject<InputLine, Never>()

    let store: FeatureStore
    do {
        store = try FeatureStore(directory: options.dataDirectory)
    } catch {
        writeText(StartupMessage.store(error, directory: options.dataDirectory) + "\n", to: STDERR_FILENO)
        exit(1)
    }

    let session: Session
    do {
        session = try Session(
            input: lines, store: store, scheduler: queue, source: options.server.map { .remote($0) } ?? .local,
            isInteractive: isInteractive)
    } catch {
        writeText(StartupMessage.session(error) + "\n", to: STDERR_FILENO)
        exit(1)
    }

    // The session escapes every line it publishes (TerminalText), so outside text is printed safely here.
    let printing = session.output.sink(
        receiveCompletion: { _ in exit(0) },
        receiveValue: { line in
            switch line {
            case .output(let text): writeText(text + "\n", to: STDOUT_FILENO)
            case .error(let text): writeText(text + "\n", to: STDERR_FILENO)
            case .prompt(let text): writeText(text, to: STDOUT_FILENO)
            }
        })

    // Ctrl-C: the store is written synchronously and atomically, so leaving at once loses nothing.
    signal(SIGINT, SIG_IGN)
    let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: queue)
    interrupt.setEventHandler {
        if isInteractive { writeText("\n", to: STDOUT_FILENO) }
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
