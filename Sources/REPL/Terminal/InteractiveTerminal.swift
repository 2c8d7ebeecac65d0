import Streams

/// The interactive REPL's front end: keys from the terminal in; a ``Session`` driven and the screen drawn.
///
/// It owns the ``LineEditor`` (with its history), the ``KeyDecoder`` and the ``TerminalScreen``, and connects
/// them to a session:
/// - Every edit of a line that is not a command is passed to ``Session/typing(_:)``, so the search view
///   model's own debounce decides when to search as the person types; the session's `.live` lines (the
///   results of what is typed) are drawn under the input line and replaced in place.
/// - Enter submits the line (the `submit` closure); it is echoed into the scrollback with the prompt. For a search
///   the live lines are cleared: the session prints the results into the scrollback (as soon as they are
///   there), so Enter keeps them.
/// - Output and errors (``show(_:)``) are printed above the prompt, and the prompt with the partial line is
///   redrawn under them. A bell is rung for a key that can do nothing.
/// - Ctrl-C cancels what is in flight (``Session/interrupt()``), else clears the line; on an empty line it
///   says how to leave, and a second Ctrl-C there quits. Ctrl-D on an empty line quits (``Session/quit()``).
///   Ctrl-L clears the screen. Tab completes commands and their arguments (``Session/completions(for:)``).
///   Ctrl-Z calls `suspend` (the program restores the terminal and stops; ``resumed()`` redraws after `fg`).
/// - Output arriving in a burst (a price list, the help) is drawn in one go: lines are queued and the queue is
///   drawn by one action, so the prompt is not redrawn under every line.
/// - History: every submitted line is added to the editor's history, saved to the history file (if any) at
///   once, so it survives a crash or a kill.
///
/// Threading: every method may be called from any thread (the terminal's reader, the session's output, the
/// window-size signal); each only schedules its work on `scheduler`, which must be serial, so the editor and
/// the screen are only touched there, in order, and nothing is called while a lock is held. `write` is called
/// on `scheduler`, with bytes to write to the terminal in order.
///
/// ```swift
/// let terminal = InteractiveTerminal(
///     session: session, scheduler: DispatchQueue(label: "terminal"), width: 80, height: 24,
///     history: HistoryFile(url: dataDirectory.appendingPathComponent("history")),
///     submit: { lines.send(.text($0)) }, write: { writeText($0, to: STDOUT_FILENO) })
/// terminal.start()
/// terminal.receive(bytesReadFromStdin)
/// ```
public final class InteractiveTerminal: Sendable {
    /// The editor, decoder and screen: touched only by work running on `scheduler`, one action at a time.
    private struct State {
        var editor: LineEditor
        var decoder = KeyDecoder()
        var screen: TerminalScreen
        /// Whether the last key was a Ctrl-C on an empty line with nothing to cancel (a second one quits).
        var isQuitArmed = false
        /// Whether the front end has stopped drawing (the session ended).
        var hasFinished = false
        /// Session output not drawn yet, in order; drawn together by one scheduled action.
        var pendingOutput: [OutputLine] = []
    }

    private let session: Session
    private let scheduler: any Scheduler
    private let historyFile: HistoryFile?
    private let submitLine: @Sendable (String) -> Void
    private let write: @Sendable (String) -> Void
    private let suspend: @Sendable () -> Void
    /// Guarded by its lock; only read and changed inside work scheduled on `scheduler` (never held while
    /// calling the session or `write`).
    private let state: Locked<State>

    /// The prompt drawn before the line.
    public static let prompt = Session.prompt

    /// The hint shown after a Ctrl-C on an empty line.
    public static let quitHint = "(press Ctrl-C again, or Ctrl-D, to quit)"

    /// A front end for `session`, drawing a `width` × `height` window.
    ///
    /// - Parameters:
    ///   - session: the session typed into (its output is passed to ``show(_:)`` by the caller).
    ///   - scheduler: a serial scheduler where all the front end's work runs.
    ///   - width: the window's width in columns.
    ///   - height: the window's height in rows.
    ///   - history: where the history is loaded from and saved to; `nil`: kept in memory only.
    ///   - submit: called with each submitted line, to pass it to the session's input.
    ///   - write: called with the bytes to write to the terminal, in order.
    ///   - suspend: called on Ctrl-Z (the program restores the terminal and stops itself); by default nothing.
    public init(
        session: Session, scheduler: any Scheduler, width: Int, height: Int, history: HistoryFile? = nil,
        submit: @escaping @Sendable (String) -> Void, write: @escaping @Sendable (String) -> Void,
        suspend: @escaping @Sendable () -> Void = {}
    ) {
        self.suspend = suspend
        self.session = session
        self.scheduler = scheduler
        self.historyFile = history
        self.submitLine = submit
        self.write = write
        let editor = LineEditor(history: EditHistory(entries: history?.load() ?? []))
        state = Locked(State(editor: editor, screen: TerminalScreen(width: width, height: height)))
    }

    /// Draws the prompt and tells the session the width of the window.
    public func start() {
        session.resize(width: state.withLock { $0.screen.width })
        scheduler.schedule { [self] in redraw() }
    }

    /// Bytes read from the terminal (keys, possibly several, possibly a part of one).
    public func receive(_ bytes: [UInt8]) {
        scheduler.schedule { [self] in
            let keys = state.withLock { $0.decoder.feed(bytes) }
            for key in keys { handle(key) }
        }
    }

    /// Called after a short quiet period following a lone ESC byte: it was the Escape key, not the start of
    /// a sequence.
    public func flushPendingEscape() {
        scheduler.schedule { [self] in
            let keys = state.withLock { $0.decoder.flushPendingEscape() }
            for key in keys { handle(key) }
        }
    }

    /// A line of the session's output: queued, and drawn with the lines that follow it at once (output and
    /// errors above the prompt, `.live` lines under it).
    public func show(_ line: OutputLine) {
        if case .prompt = line { return }  // the prompt is always drawn
        let isFirst = state.withLock { state -> Bool in
            state.pendingOutput.append(line)
            return state.pendingOutput.count == 1
        }
        if isFirst { scheduler.schedule { [self] in drawPendingOutput() } }
    }

    /// The terminal was given back after a suspension (`fg`): draws the block anew where the cursor is.
    public func resumed() {
        scheduler.schedule { [self] in
            emit(
                state.withLock { state in
                    guard !state.hasFinished else { return "" }
                    state.screen.forgetDrawing()
                    return state.screen.draw(Self.layout(state))
                })
        }
    }

    private func drawPendingOutput() {
        let bytes = state.withLock { state -> String in
            let lines = state.pendingOutput
            state.pendingOutput = []
            guard !state.hasFinished else { return "" }
            var above: [String] = []
            for line in lines {
                switch line {
                case .output(let text), .error(let text):
                    above += text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                case .live(let live):
                    state.screen.setLive(live)
                case .prompt:
                    break
                }
            }
            let layout = Self.layout(state)
            return above.isEmpty ? state.screen.draw(layout) : state.screen.print(above, above: layout)
        }
        emit(bytes)
    }

    /// The window's new size.
    public func resize(width: Int, height: Int) {
        session.resize(width: width)
        scheduler.schedule { [self] in
            state.withLock { $0.screen.resize(width: width, height: height) }
            redraw()
        }
    }

    /// Stops drawing: leaves the block on screen and moves to a new line (the session ended). `then` runs
    /// after the bytes are written (e.g. restoring the terminal and exiting).
    public func finish(then: @escaping @Sendable () -> Void = {}) {
        scheduler.schedule { [self] in
            let bytes = state.withLock { state -> String in
                guard !state.hasFinished else { return "" }
                state.hasFinished = true
                return state.screen.leave()
            }
            emit(bytes)
            then()
        }
    }

    // MARK: Keys

    private func handle(_ key: Key) {
        if key == .control("z") { return suspend() }
        let completions: (String) -> [String] = { [session] in session.completions(for: $0) }
        let (event, text) = state.withLock { state -> (EditorEvent, String) in
            let event = state.editor.handle(key, completions: completions)
            if event != .interrupt { state.isQuitArmed = false }
            return (event, state.editor.text)
        }
        switch event {
        case .edited:
            session.typing(text)
            redraw()
        case .moved:
            redraw()
        case .none:
            break
        case .bell:
            emit("\u{07}")
        case .submit(let line):
            submitted(line)
        case .interrupt:
            interrupted()
        case .endOfInput:
            session.quit()
        case .clearScreen:
            emit(state.withLock { $0.screen.clearScreen(Self.layout($0)) })
        case .showCompletions(let candidates):
            printAbove([candidates.joined(separator: "  ")])
        }
    }

    private func submitted(_ line: String) {
        let isSearch = !line.trimmingCharacters(in: .whitespaces).hasPrefix(":")
        let (bytes, history) = state.withLock { state -> (String, EditHistory) in
            // A search's results are printed by the session into the scrollback: the live lines go.
            if isSearch, !line.trimmingCharacters(in: .whitespaces).isEmpty { state.screen.setLive([]) }
            let echo = [Self.prompt + TerminalText.escaped(line)]
            return (state.screen.print(echo, above: Self.layout(state)), state.editor.history)
        }
        emit(bytes)
        if let historyFile {
            do {
                try historyFile.save(history.entries)
            } catch {
                printAbove(["\(error); the history is kept for this session only"])
            }
        }
        submitLine(line)
    }

    private func interrupted() {
        if session.interrupt() {
            state.withLock { $0.isQuitArmed = false }
            return
        }
        let step = state.withLock { state -> Int in
            if !state.editor.text.isEmpty {
                state.editor.clear()
                state.isQuitArmed = false
                return 0
            }
            if state.isQuitArmed { return 2 }
            state.isQuitArmed = true
            return 1
        }
        switch step {
        case 0:
            session.typing("")
            redraw()
        case 1:
            printAbove([Self.quitHint])
        default:
            session.quit()
        }
    }

    // MARK: Drawing

    private func redraw() {
        emit(
            state.withLock { state in
                state.hasFinished ? "" : state.screen.draw(Self.layout(state))
            })
    }

    private func printAbove(_ lines: [String]) {
        emit(
            state.withLock { state in
                state.hasFinished ? "" : state.screen.print(lines, above: Self.layout(state))
            })
    }

    private static func layout(_ state: State) -> EditorLayout {
        state.editor.layout(prompt: prompt, width: state.screen.width)
    }

    private func emit(_ bytes: String) {
        if !bytes.isEmpty { write(bytes) }
    }
}
