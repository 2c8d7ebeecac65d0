#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Streams

/// Puts a terminal in raw mode for the line editor and restores it, once, on every way out.
///
/// Raw mode: no echo, no line buffering (each key arrives as it is typed), Ctrl-C, Ctrl-Z and Ctrl-\ arrive
/// as bytes instead of signals, no flow control (Ctrl-S, Ctrl-Q) and no CR-to-LF translation on input.
/// Output processing stays on, so a line printed by anything else still starts at the left margin. Bracketed
/// paste is switched on (`ESC [ ? 2004 h` on `output`), so a pasted text arrives as one `Key.paste` instead of
/// keys (a pasted newline does not submit the line); restoring switches it off.
///
/// ``enterRawMode(_:output:)`` saves the terminal's settings and registers ``restore()`` with `atexit`, so a normal
/// `exit` from anywhere restores the terminal; the REPL also calls ``restore()`` from its SIGTERM, SIGHUP and
/// SIGINT handlers before exiting. Restoring twice is harmless (the second call does nothing).
///
/// ```swift
/// guard TerminalMode.enterRawMode(STDIN_FILENO) else { /* not a terminal: piped mode */ }
/// defer { TerminalMode.restore() }
/// ```
public enum TerminalMode {
    /// The descriptor and its settings before raw mode, while raw mode is on.
    private static let saved = Locked<(descriptor: Int32, output: Int32, settings: termios)?>(nil)
    /// Whether ``restore()`` is registered with `atexit` (once per process, however often raw mode is entered).
    private static let isRegistered = Locked(false)

    /// Switches the terminal on `descriptor` to raw mode and bracketed paste on `output`; `false` (nothing
    /// changed) when it is not a terminal or its settings cannot be read or changed.
    public static func enterRawMode(_ descriptor: Int32, output: Int32 = STDOUT_FILENO) -> Bool {
        var original = termios()
        guard isatty(descriptor) == 1, tcgetattr(descriptor, &original) == 0 else { return false }
        var raw = original
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(descriptor, TCSAFLUSH, &raw) == 0 else { return false }
        saved.withLock { $0 = (descriptor, output, original) }
        let register = isRegistered.withLock { registered -> Bool in
            defer { registered = true }
            return !registered
        }
        if register { atexit { TerminalMode.restore() } }
        send(output, bracketedPasteOn)
        return true
    }

    /// Restores the settings saved by ``enterRawMode(_:output:)``; does nothing when raw mode is off.
    public static func restore() {
        guard let (descriptor, output, settings) = saved.withLock({ saved in defer { saved = nil }; return saved })
        else { return }
        send(output, bracketedPasteOff)
        var original = settings
        _ = tcsetattr(descriptor, TCSAFLUSH, &original)
    }

    private static let bracketedPasteOn = "\u{1B}[?2004h"
    private static let bracketedPasteOff = "\u{1B}[?2004l"

    /// Writes `text` to `descriptor` (best effort: a terminal that went away is not an error here).
    private static func send(_ descriptor: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// The size of the terminal on `descriptor` in columns and rows, or `nil` when it is not a terminal or
    /// reports no size.
    public static func windowSize(_ descriptor: Int32) -> (width: Int, height: Int)? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }
}
