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
        (["--server", "ftp://host"], .invalidServer("ftp://host")),
        (["--server", "localhost:8080"], .invalidServer("localhost:8080")),
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
            REPLOptionsError.invalidServer("x").description
                == "--server needs an http or https address with a host, not 'x'")
        #expect(
            REPLOptionsError.unexpectedArgument("x").description
                == "unexpected argument 'x' (streams-repl takes only options)")
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
