import Features
import Foundation

/// The lines `streams-repl` prints on stderr when it cannot start: each one sentence saying what failed, why
/// and what to do, escaped for the terminal (``TerminalText``) since paths and arguments come from outside.
///
/// ```swift
/// StartupMessage.store(error, directory: options.dataDirectory)
/// // "streams-repl: the store file /d/features-store.json is unreadable (…); it was moved to …"
/// ```
public enum StartupMessage {
    /// A bad command line: the problem, then the usage (the tool exits 2).
    public static func options(_ error: REPLOptionsError) -> String {
        TerminalText.escaped("streams-repl: \(error)") + "\n" + REPLOptions.synopsis + "\n"
            + "(streams-repl --help explains every option)"
    }

    /// The store in `directory` cannot be opened (the tool exits 1). For a corrupt file: where it was moved,
    /// that the next start begins with an empty store, and the command that puts it back.
    public static func store(_ error: FeatureStoreError, directory: URL) -> String {
        let text: String
        switch error {
        case .corruptFile(let path, let movedTo, let reason):
            text =
                "the store file \(path) is unreadable (\(reason)); it was moved to \(movedTo), so the next start "
                + "begins with an empty store — to restore it instead, repair that file and move it back: "
                + "mv \(shellQuoted(movedTo)) \(shellQuoted(path))"
        case .unreadableFile:
            text = "\(error)"
        case .unsupportedVersion, .writeFailed, .storeLocked, .fileTooLarge, .danglingLink:
            text = "cannot use the data directory \(directory.path): \(error) (choose another with --data-dir PATH)"
        case .invalidQuantity, .quantityTooLarge, .notInBasket:
            text = "cannot use the data directory \(directory.path): \(error)"
        }
        return TerminalText.escaped("streams-repl: " + text)
    }

    /// The session cannot start (the bundled data cannot be read, say); the tool exits 1.
    public static func session(_ error: any Error) -> String {
        TerminalText.escaped("streams-repl: cannot start: \(error)")
    }

    /// `text` for a POSIX shell: as it is when it holds only safe characters, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let safe = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+:,@%".contains($0)) }
        return safe && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
