import Foundation
import REPL
import Testing

/// Command-line options: values, defaults, and every mistake.
@Suite struct REPLOptionsTests {
    private let home = "/home/ada"

    @Test func defaultsToTheBundledDataAndTheUsersDataDirectory() throws {
        let options = try REPLOptions.parse([], environment: [:], home: home)
        #expect(
            options
                == REPLOptions(
                    action: .run, server: nil,
                    dataDirectory: URL(fileURLWithPath: "/home/ada/.local/share/streams-repl")))
    }

    @Test func xdgDataHomeIsUsedWhenItIsAnAbsolutePath() throws {
        let absolute = try REPLOptions.parse([], environment: ["XDG_DATA_HOME": "/data"], home: home)
        #expect(absolute.dataDirectory.path == "/data/streams-repl")
        let relative = try REPLOptions.parse([], environment: ["XDG_DATA_HOME": "data"], home: home)
        #expect(relative.dataDirectory.path == "/home/ada/.local/share/streams-repl")
    }

    @Test func serverAndDataDirectoryTakeAValueInEitherForm() throws {
        let spaced = try REPLOptions.parse(
            ["--server", "http://127.0.0.1:8080", "--data-dir", "/tmp/x"], environment: [:], home: home)
        #expect(spaced.server == URL(string: "http://127.0.0.1:8080"))
        #expect(spaced.dataDirectory.path == "/tmp/x")
        let joined = try REPLOptions.parse(
            ["--server=https://example.com/api", "--data-dir=/tmp/y"], environment: [:], home: home)
        #expect(joined.server == URL(string: "https://example.com/api"))
        #expect(joined.dataDirectory.path == "/tmp/y")
    }

    @Test func helpAndVersionWinOverEverythingAfterThem() throws {
        #expect(try REPLOptions.parse(["--help", "--bogus"], environment: [:], home: home).action == .help)
        #expect(try REPLOptions.parse(["-h"], environment: [:], home: home).action == .help)
        #expect(try REPLOptions.parse(["--version"], environment: [:], home: home).action == .version)
        #expect(REPLOptions.versionLine == "streams-repl \(REPLOptions.version)")
        #expect(REPLOptions.usage.hasPrefix("usage: streams-repl [--server URL] [--data-dir PATH]"))
    }

    @Test(arguments: [
        (["--bogus"], REPLOptionsError.unknownOption("--bogus", suggestion: nil)),
        (["--sever", "x"], .unknownOption("--sever", suggestion: "--server")),
        (["--data-dri=/x"], .unknownOption("--data-dri=/x", suggestion: "--data-dir")),
        (["-x"], .unknownOption("-x", suggestion: nil)),
        (["--server"], .missingValue(option: "--server")),
        (["--data-dir"], .missingValue(option: "--data-dir")),
        (["--data-dir="], .missingValue(option: "--data-dir")),
        (["--server", "ftp://host"], .invalidServer("ftp://host", reason: "the scheme 'ftp' is not http or https")),
        (
            ["--server", "localhost:8080"],
            .invalidServer("localhost:8080", reason: "it does not start with http:// or https://")
        ),
        (["extra"], .unexpectedArgument("extra")),
    ])
    func mistakesAreTypedErrors(arguments: [String], error: REPLOptionsError) {
        #expect(throws: error) { try REPLOptions.parse(arguments, environment: [:], home: home) }
    }

    @Test func errorsReadAsOneLine() {
        #expect(
            REPLOptionsError.unknownOption("--sever", suggestion: "--server").description
                == "unknown option '--sever' (did you mean --server?)")
        #expect(REPLOptionsError.missingValue(option: "--server").description == "--server needs a value")
        #expect(
            REPLOptionsError.invalidServer("x", reason: "it does not start with http:// or https://").description
                == "cannot use 'x' as the server: it does not start with http:// or https:// "
                + "(give an http or https address, such as http://127.0.0.1:8080 or http://[::1]:8080)")
        #expect(
            REPLOptionsError.unexpectedArgument("x").description
                == "unexpected argument 'x' (streams-repl takes only options)")
    }
}

/// `--server` is checked up front: every mistake is a sentence naming it, never a URL-loading error code later.
@Suite struct ServerAddressOptionTests {
    private func parse(_ server: String) throws(REPLOptionsError) -> REPLOptions {
        try REPLOptions.parse(["--server", server], environment: [:], home: "/home/ada")
    }

    private func reason(_ server: String) -> String? {
        do {
            _ = try parse(server)
            return nil
        } catch {
            guard case .invalidServer(_, let reason) = error else { return "\(error)" }
            return reason
        }
    }

    @Test(arguments: [
        "http://[::1]:8080", "http://[::1]", "https://[2001:db8::42]:443/api", "http://[fe80::1%25eth0]:80",
        "http://127.0.0.1:8080", "http://localhost", "https://example.com/api", "http://my_host.internal:1",
        "http://example.com.:65535", "HTTP://EXAMPLE.COM",
    ])
    func goodAddressesAreAccepted(server: String) throws {
        #expect(try parse(server).server == URL(string: server))
    }

    @Test(arguments: [
        ("http://127.0.0.1:99999", "the port 99999 is not a number from 1 to 65535"),
        ("http://127.0.0.1:0", "the port 0 is not a number from 1 to 65535"),
        ("http://127.0.0.1:", "the ':' after the host must be followed by a port number"),
        ("http://127.0.0.1:8o", "the port 8o is not a number from 1 to 65535"),
        ("http://::1:8080", "an IPv6 address must be written in brackets, as in http://[::1]:8080"),
        ("http://[::1:8080", "the IPv6 address has no closing ']'"),
        ("http://[::g]:8080", "'::g' is not an IPv6 address"),
        ("http://[::1]x:8080", "only ':PORT' may follow the bracketed IPv6 address"),
        ("http://a..b", "the host 'a..b' has an empty part between dots"),
        ("http://exa mple.com", "an address cannot contain spaces or control characters"),
        ("http://bad\u{1B}]0;x\u{07}host", "an address cannot contain spaces or control characters"),
        ("http://exa$mple.com", "the host 'exa$mple.com' contains '$', which a host name cannot hold"),
        ("http://-bad.com", "the host name part '-bad' cannot start or end with '-'"),
        ("http://300.1.1.1", "'300.1.1.1' is not an IPv4 address (four numbers from 0 to 255)"),
        ("http://", "it has no host"),
        ("http://:8080", "it has no host"),
        ("ftp://host", "the scheme 'ftp' is not http or https"),
        ("localhost:8080", "it does not start with http:// or https://"),
        ("", "the address is empty"),
    ])
    func mistakesAreExplained(server: String, expected: String) {
        #expect(reason(server) == expected)
    }

    @Test func theMessageIsOneSentenceWithAnExample() {
        let error = REPLOptionsError.invalidServer(
            "http://127.0.0.1:99999", reason: "the port 99999 is not a number from 1 to 65535")
        #expect(
            error.description
                == "cannot use 'http://127.0.0.1:99999' as the server: the port 99999 is not a number from 1 to "
                + "65535 (give an http or https address, such as http://127.0.0.1:8080 or http://[::1]:8080)")
    }

    @Test func theSourceCommandExplainsABadAddressTheSameWay() throws {
        #expect(throws: CommandError(
            "cannot use 'http://127.0.0.1:99999' as the source: the port 99999 is not a number from 1 to 65535 "
                + "(usage: :source local|URL, e.g. :source http://127.0.0.1:8080)")) {
            try CommandParser.parse(":source http://127.0.0.1:99999")
        }
        let ipv6 = try #require(URL(string: "http://[::1]:8080"))
        #expect(try CommandParser.parse(":source http://[::1]:8080") == .command(.source(.remote(ipv6))))
    }
}

/// Raw bytes into lines: terminators, long lines, invalid UTF-8.
@Suite struct LineDecoderTests {
    @Test func splitsOnNewlinesAcrossChunksAndDropsCarriageReturns() {
        var decoder = LineDecoder()
        #expect(decoder.feed(Array("foc".utf8)) == [])
        #expect(decoder.feed(Array("us\r\n:next\n\nfo".utf8)) == [.text("focus"), .text(":next"), .text("")])
        #expect(decoder.finish() == [.text("fo")])
        #expect(decoder.finish() == [])
    }

    @Test func aLineLongerThanTheLimitIsReportedWithoutBeingKept() {
        var decoder = LineDecoder(maximumLineLength: 8)
        let lines = decoder.feed(Array("12345678\n123456789\nok\n".utf8))
        #expect(
            lines == [
                .text("12345678"),
                .unreadable(reason: "input line 2 is too long (9 bytes; the limit is 8) and was ignored"),
                .text("ok"),
            ])
        let huge = decoder.feed([UInt8](repeating: 65, count: 100_000)) + decoder.finish()
        #expect(
            huge == [.unreadable(reason: "input line 4 is too long (100000 bytes; the limit is 8) and was ignored")])
    }

    @Test func invalidUTF8IsReportedAndTheNextLineIsRead() {
        var decoder = LineDecoder()
        let lines = decoder.feed([0x66, 0xFF, 0xFE, 0x0A] + Array("café\n".utf8))
        #expect(lines == [.unreadable(reason: "input line 1 is not valid UTF-8 and was ignored"), .text("café")])
    }
}
