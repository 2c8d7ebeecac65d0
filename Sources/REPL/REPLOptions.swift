import Foundation

/// The command-line options of `streams-repl`, parsed from its arguments.
///
/// - `--server URL` (or `--server=URL`): use a remote server (an `http` or `https` address; a host name, an
///   IPv4 address or a bracketed IPv6 address such as `[::1]`; a port from 1 to 65535) instead of the bundled
///   data. The address is checked here, so a mistake is explained before anything is sent.
/// - `--data-dir PATH` (or `--data-dir=PATH`): where the count, favourites and basket are kept; by default
///   `$XDG_DATA_HOME/streams-repl`, else `~/.local/share/streams-repl`.
/// - `--timeout SECONDS` (or `--timeout=SECONDS`): how long a request, and a command waiting for its answer,
///   may take: a number of seconds above 0 and at most 3600, decimals allowed (default 5).
/// - `--bail`: piped mode stops at the first line that fails (exit status 1).
/// - `--help` / `-h` and `--version`: print and exit 0. Anything else is a ``REPLOptionsError`` (the tool
///   prints it with the usage on stderr and exits 2).
///
/// ```swift
/// let options = try REPLOptions.parse(["--server", "http://127.0.0.1:8080"], environment: [:], home: "/home/ada")
/// options.dataDirectory.path   // "/home/ada/.local/share/streams-repl"
/// ```
public struct REPLOptions: Equatable, Sendable {
    /// What the tool is asked to do.
    public enum Action: Equatable, Sendable {
        /// Run the REPL.
        case run
        /// Print ``REPLOptions/usage`` and exit 0.
        case help
        /// Print ``REPLOptions/versionLine`` and exit 0.
        case version
    }

    /// The tool's version.
    public static let version = "0.1.0"
    /// `streams-repl <version>`, what `--version` prints.
    public static let versionLine = "streams-repl \(version)"

    /// The one-line synopsis, the first line of ``usage``; a bad flag prints it on stderr under the problem.
    public static let synopsis =
        "usage: streams-repl [--server URL] [--data-dir PATH] [--timeout SECONDS] [--bail] [--help] [--version]"

    /// The usage text `--help` prints.
    public static let usage = """
        \(synopsis)

        A REPL over the Features view models: any line that is not a command searches the products;
        commands start with ':' (type :help for the list).

        options:
          --server URL       use the server at URL (http or https) instead of the bundled data
          --data-dir PATH    keep the count, favourites, basket and history in PATH
                             (default: $XDG_DATA_HOME/streams-repl, else ~/.local/share/streams-repl)
          --timeout SECONDS  how long a request, and a command waiting for its answer, may take
                             (above 0, at most 3600, decimals allowed; default 5)
          --bail             piped mode: stop at the first line that fails
          -h, --help         print this help and exit
          --version          print the version and exit

        interactive mode (stdin and stdout are a terminal):
          a line editor: arrows, Home/End, Ctrl-A/E/B/F/K/U/W/Y/L, Alt-B/F, Backspace/Delete; Up/Down walk
          the history (kept in the data directory), Ctrl-R searches it; Tab completes commands and their
          arguments. Typing a search shows its results under the line as you type (after a 500 ms pause);
          Enter keeps them. Ctrl-C cancels a request in flight, else clears the line; Ctrl-C twice on an empty
          line, Ctrl-D on an empty line, or :quit leaves at once; Ctrl-Z suspends. Output never breaks the
          line being typed. :trace on draws the search pipeline as a marble timeline.

        piped mode (stdin is not a terminal):
          one command or search per line, results on stdout, problems on stderr, in the order of the lines;
          nothing else is printed, so the output is stable for scripts. A command runs once the work it
          follows has finished (a search typed just before it runs at once, without the 500 ms pause). Every
          line runs; the exit status is 1 if any line failed (--bail stops at the first), 0 otherwise.

        server limits (--server):
          a request may take at most --timeout seconds (then it is cancelled and reported in one line) and its
          answer may be at most 10 MiB. A command waits at most --timeout seconds for its answer, then says
          so and goes on with the next line. http addresses are served by streams-repl's own HTTP client,
          https ones by URLSession.

        store limits (--data-dir):
          the store file may be at most 256 MiB: a larger one is not read (startup exits 1 saying so) and a
          change that would make it larger is refused. While another streams-repl holds the store's lock,
          streams-repl says so on stderr and waits up to 30 s (Ctrl-C works meanwhile), then gives up with one
          line: at startup it exits 1, in a session the change is not made and the REPL goes on. If stdout or
          stderr cannot be written (a full disk, a closed pipe), it says so and exits 1 without running more.
        """

    /// What to do.
    public var action: Action
    /// The server's address, or `nil` for the bundled data.
    public var server: URL?
    /// Where the store is kept.
    public var dataDirectory: URL
    /// How long a request, and a command waiting for its answer, may take.
    public var timeout: Duration
    /// Whether piped mode stops at the first line that fails.
    public var bail: Bool

    /// The longest `--timeout`: one hour.
    public static let maximumTimeout: Duration = .seconds(3600)

    /// Options with every field given.
    public init(
        action: Action = .run, server: URL? = nil, dataDirectory: URL, timeout: Duration = Session.defaultTimeout,
        bail: Bool = false
    ) {
        self.action = action
        self.server = server
        self.dataDirectory = dataDirectory
        self.timeout = timeout
        self.bail = bail
    }

    /// Parses `arguments` (without the program's name); `environment` and `home` choose the default data
    /// directory.
    ///
    /// - Throws: ``REPLOptionsError`` for an unknown option, a missing value, an unusable server address (a bad
    ///   scheme, host or port) or an unexpected argument.
    public static func parse(
        _ arguments: [String], environment: [String: String], home: String
    ) throws(REPLOptionsError) -> REPLOptions {
        var options = REPLOptions(dataDirectory: defaultDataDirectory(environment: environment, home: home))
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            let (name, inlineValue) = split(argument)
            switch name {
            case "-h", "--help":
                options.action = .help
                return options
            case "--version":
                options.action = .version
                return options
            case "--server":
                let text = try value(of: name, inline: inlineValue, from: &remaining)
                options.server = try serverURL(text)
            case "--data-dir":
                let text = try value(of: name, inline: inlineValue, from: &remaining)
                guard !text.isEmpty else { throw .missingValue(option: name) }
                options.dataDirectory = URL(fileURLWithPath: text, isDirectory: true)
            case "--timeout":
                let text = try value(of: name, inline: inlineValue, from: &remaining)
                options.timeout = try timeout(text)
            case "--bail" where inlineValue == nil:
                options.bail = true
            default:
                if argument.hasPrefix("-") {
                    let known = ["--server", "--data-dir", "--timeout", "--bail", "--help", "--version"]
                    throw .unknownOption(argument, suggestion: Suggestion.closest(to: name, in: known))
                }
                throw .unexpectedArgument(argument)
            }
        }
        return options
    }

    /// `$XDG_DATA_HOME/streams-repl` when `XDG_DATA_HOME` is an absolute path (the XDG rule), else
    /// `<home>/.local/share/streams-repl`.
    public static func defaultDataDirectory(environment: [String: String], home: String) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("streams-repl")
        }
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local/share/streams-repl")
    }

    /// A server address: `http` or `https`, a host name, IPv4 address or bracketed IPv6 address, an optional
    /// port from 1 to 65535 (see `ServerAddress`).
    static func serverURL(_ text: String) throws(REPLOptionsError) -> URL {
        try ServerAddress.url(from: text)
    }

    /// A `--timeout` value: seconds, above 0 and at most 3600 (`"2.5"` is 2.5 s).
    static func timeout(_ text: String) throws(REPLOptionsError) -> Duration {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let seconds = Double(trimmed), seconds.isFinite,
            trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
        else { throw .invalidTimeout(text, reason: "it is not a number of seconds") }
        guard seconds > 0 else { throw .invalidTimeout(text, reason: "it must be more than 0 seconds") }
        guard seconds <= 3600 else { throw .invalidTimeout(text, reason: "it must be at most 3600 seconds (one hour)") }
        return .milliseconds(max(1, Int64((seconds * 1000).rounded())))
    }

    private static func split(_ argument: String) -> (name: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    private static func value(
        of name: String, inline: String?, from remaining: inout ArraySlice<String>
    ) throws(REPLOptionsError) -> String {
        if let inline { return inline }
        guard let next = remaining.popFirst() else { throw .missingValue(option: name) }
        return next
    }
}

/// Why the command line could not be understood; the tool prints ``description`` and the usage on stderr
/// and exits 2.
///
/// ```swift
/// REPLOptionsError.unknownOption("--sever", suggestion: "--server").description
/// // "unknown option '--sever' (did you mean --server?)"
/// ```
public enum REPLOptionsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An option the tool does not know, with the closest known one if any is close.
    case unknownOption(String, suggestion: String?)
    /// An option that needs a value came last (or with an empty value).
    case missingValue(option: String)
    /// `--server` was given something that is not a usable `http`/`https` address; `reason` says why (a port
    /// out of range, a malformed host…).
    case invalidServer(String, reason: String)
    /// A word that is not an option (the tool takes none).
    case unexpectedArgument(String)
    /// `--timeout` was given something that is not a usable number of seconds; `reason` says why.
    case invalidTimeout(String, reason: String)

    /// The most characters of an argument repeated in a message.
    static let maximumQuotedLength = 80

    /// One line explaining the problem.
    public var description: String {
        switch self {
        case .unknownOption(let option, let suggestion):
            "unknown option '\(option.prefix(Self.maximumQuotedLength))'"
                + (suggestion.map { " (did you mean \($0)?)" } ?? "")
        case .missingValue(let option): "\(option) needs a value"
        case .invalidServer(let text, let reason):
            "cannot use '\(text.prefix(Self.maximumQuotedLength))' as the server: \(reason) "
                + "(give an http or https address, such as http://127.0.0.1:8080 or http://[::1]:8080)"
        case .invalidTimeout(let text, let reason):
            "cannot use '\(text.prefix(Self.maximumQuotedLength))' as the timeout: \(reason) "
                + "(give a number of seconds such as 5 or 0.5, at most 3600)"
        case .unexpectedArgument(let argument):
            "unexpected argument '\(argument.prefix(Self.maximumQuotedLength))' (streams-repl takes only options)"
        }
    }
}
