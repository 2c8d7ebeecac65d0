import FeatureServer
import Features
import Foundation
import LoopbackHTTPServer
import Networking
import Testing

/// The built `streams-repl` binary driven through pipes: stdout, stderr and exit status. Each run is bounded
/// (killed after a few seconds).
@Suite struct EndToEndTests {
    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("repl-e2e-\(UUID().uuidString)")
    }

    @Test func aSearchScriptPrintsOnlyResults() async throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let run = try await REPLProcess.run(["--data-dir", data.path], script: "fo\nfoc\nfocus\n:sort price-desc\n")
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(
            run.stdoutLines == [
                #"results for "focus": 5 products"#,
                "  id     name                           brand          model              price",
                "  #1     Bentley Focus                  Lamborghini    CTS                51.00",
                "  #10    Ford Focus                     Maserati       CTS               257.00",
                "  #24    Aston Martin Focus             Rolls Royce    Roadster          128.00",
                "  #54    Hyundai Focus                  Volkswagen     A4                355.00",
                "page 1 of 2, 4 of 5 shown (:next for more)",
                "sorting by price, highest first",
                #"results for "focus" (sorted by price, highest first): 5 products"#,
                "  id     name                           brand          model              price",
                "  #59    Honda Focus                    Honda          Fiesta            985.00",
                "  #54    Hyundai Focus                  Volkswagen     A4                355.00",
                "  #10    Ford Focus                     Maserati       CTS               257.00",
                "  #24    Aston Martin Focus             Rolls Royce    Roadster          128.00",
                "page 1 of 2, 4 of 5 shown (:next for more)",
            ])
    }

    @Test func paginationAppendsTheNextPageUntilTheLast() async throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let run = try await REPLProcess.run(["--data-dir", data.path], script: "focus\n:next\n:next")  // no final newline
        #expect(run.status == 1)  // a line failed (its error is on stderr): every line ran, the status says so
        #expect(
            run.stdoutLines.suffix(2) == [
                "  #59    Honda Focus                    Honda          Fiesta            985.00",
                "page 2 of 2, 5 of 5 shown (last page)",
            ])
        #expect(run.stderrLines == [#"no more results for "focus" (5 products)"#])
    }

    @Test func aServerWithoutATotalCountPagesToAnEmptyPageAndSaysThereIsNoMore() async throws {
        let catalogue = (1...8).map { index in
            Product(
                id: String(index), name: "Car \(index)", brand: "Ford", model: "ST", price: Decimal(index),
                description: "", image: "", createdAt: Date(timeIntervalSince1970: TimeInterval(index)))
        }
        let route = ProductSearchRoute(catalogue: catalogue)
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/products") { request in
            let items = URLComponents(string: "http://x/?" + request.query)?.queryItems ?? []
            let answer = route.response(path: request.path, queryItems: items)  // no X-Total-Count sent
            return .json(answer.body, status: answer.statusCode)
        }
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let run = try await REPLProcess.run(
            ["--server", server.baseURL.absoluteString, "--data-dir", data.path], script: "car\n:next\n:next\n:next\n")
        #expect(run.stdoutLines.first == #"results for "car": 4+ products"#)
        #expect(
            run.stdoutLines.suffix(2) == [
                "page 2, 8 shown (:next for more)", #"no more results for "car" (8 products)"#,
            ])
        let expectedCount = 13  // header, table header, 8 rows, 2 footers, the line saying there is no more
        #expect(run.stdoutLines.count == expectedCount)
        #expect(run.stderrLines == [#"no more results for "car" (8 products)"#])
    }

    @Test func theCountAndTheBasketPersistAcrossRunsUntilReset() async throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let first = try await REPLProcess.run(
            ["--data-dir", data.path], script: ":fetch\n:fetch\nford\n:cart add 10 2\n")
        #expect(first.status == 0)
        #expect(first.stdoutLines.prefix(2) == ["HTTP 200, count 1", "HTTP 200, count 2"])
        #expect(first.stdoutLines.last == "added 2 × #10 Ford Focus; basket total 514.00 (2 items)")
        let second = try await REPLProcess.run(["--data-dir", data.path], script: ":count\n:cart\n:fetch\n:reset\n")
        #expect(second.status == 0)
        #expect(
            second.stdoutLines == [
                "count 2", "basket:", "  #10    Ford Focus                    2 × 257.00      514.00",
                "total 514.00 (2 items)", "HTTP 200, count 3", "count reset to 0",
            ])
        let third = try await REPLProcess.run(["--data-dir", data.path], script: ":count\n")
        #expect(third.stdoutLines == ["count 0"])
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent(FeatureStore.fileName).path))
    }

    @Test func badFlagsPrintUsageOnStderrAndExit2() async throws {
        for arguments in [["--bogus"], ["--sever", "http://x"], ["--server"], ["--server", "nowhere"], ["extra"]] {
            let run = try await REPLProcess.run(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stdout == "")
            #expect(run.stderr.hasPrefix("streams-repl: "), "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("usage: streams-repl [--server URL] [--data-dir PATH]"))
            #expect(run.stderrLines.count == 3, "the problem, the synopsis, where to read more: \(run.stderr)")
        }
        let suggested = try await REPLProcess.run(["--sever", "http://x"])
        #expect(suggested.stderrLines.first == "streams-repl: unknown option '--sever' (did you mean --server?)")
    }

    @Test func helpAndVersionPrintOnStdoutAndExit0() async throws {
        let help = try await REPLProcess.run(["--help"])
        #expect(help.status == 0 && help.stderr == "")
        #expect(help.stdout.hasPrefix("usage: streams-repl"))
        let version = try await REPLProcess.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdoutLines == ["streams-repl 0.1.0"])
    }

    @Test func garbageLinesAreReportedAndTheRestIsRun() async throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        var input = Data(repeating: UInt8(ascii: "a"), count: 200_000)
        input += Data("\n".utf8) + Data([0x66, 0x6F, 0xFF, 0xC3, 0x0A]) + Data(":nope\nfocus\n".utf8)
        let run = try await REPLProcess.run(["--data-dir", data.path], input: input)
        #expect(run.status == 1)  // a line failed (its error is on stderr): every line ran, the status says so
        #expect(
            run.stderrLines == [
                "input line 1 is too long (200000 bytes; the limit is 4096) and was ignored",
                "input line 2 is not valid UTF-8 and was ignored",
                "unknown command ':nope' (type :help for the list)",
            ])
        #expect(run.stdoutLines.first == #"results for "focus": 5 products"#)
    }

    @Test func ctrlCExitsCleanlyAndKeepsWhatWasSaved() async throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let run = try await REPLProcess.run(
            ["--data-dir", data.path], input: Data(":fetch\n".utf8),
            interruption: .init(afterOutput: "HTTP 200, count 1\n"))
        #expect(run.status == 130)
        #expect(run.stdoutLines == ["HTTP 200, count 1"])
        #expect(run.stderr == "")
        let saved = try await REPLProcess.run(["--data-dir", data.path], script: ":count\n")
        #expect(saved.stdoutLines == ["count 1"])
    }

    @Test func anUnusableDataDirectoryIsFatal() async throws {
        let file = temporaryDirectory()
        try Data("not a directory".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try await REPLProcess.run(
            ["--data-dir", file.appendingPathComponent("store").path], script: ":count\n")
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix("streams-repl: cannot use the data directory \(file.path)/store: "))
    }

    @Test func aCorruptStoreIsFatalAndKeptAsideThenTheNextRunStartsEmpty() async throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try Data("{ not json".utf8).write(to: data.appendingPathComponent(FeatureStore.fileName))
        let run = try await REPLProcess.run(["--data-dir", data.path], script: ":count\n")
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr.contains("is unreadable"))
        #expect(run.stderr.contains("it was moved to"))
        let kept = try FileManager.default.contentsOfDirectory(atPath: data.path)
        let moved = try #require(kept.first { $0.hasPrefix(FeatureStore.fileName + ".corrupt-") })
        // One line saying the next start begins empty, and the command that restores the file instead.
        let store = data.appendingPathComponent(FeatureStore.fileName).path
        #expect(run.stderrLines.count == 1)
        #expect(run.stderr.contains("so the next start begins with an empty store"))
        #expect(run.stderr.hasSuffix("mv \(data.appendingPathComponent(moved).path) \(store)\n"))
        let next = try await REPLProcess.run(["--data-dir", data.path], script: ":count\n")
        #expect(next.status == 0)
        #expect(next.stdoutLines == ["count 0"])
    }

    @Test func aBadServerAddressIsExplainedBeforeAnythingIsSent() async throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let run = try await REPLProcess.run(
            ["--data-dir", data.path, "--server", "http://127.0.0.1:99999"], script: ":fetch\n")
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(
            run.stderrLines.first
                == "streams-repl: cannot use 'http://127.0.0.1:99999' as the server: the port 99999 is not a number "
                + "from 1 to 65535 (give an http or https address, such as http://127.0.0.1:8080 or http://[::1]:8080)")
        #expect(!run.stderr.contains("NSURLErrorDomain"))
    }

    @Test func aStoreWithControlCharactersInItsPathIsPrintedEscaped() async throws {
        let data = temporaryDirectory().appendingPathComponent("x\u{1B}]0;pwned\u{07}")
        defer { try? FileManager.default.removeItem(at: data.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try Data("{".utf8).write(to: data.appendingPathComponent(FeatureStore.fileName))
        let run = try await REPLProcess.run(["--data-dir", data.path], script: ":count\n")
        #expect(run.status == 1)
        #expect(!run.stderr.contains("\u{1B}") && run.stderr.contains(#"x\u{1B}]0;pwned\u{07}"#))
    }

    @Test func serverModeTalksHTTPToTheLoopbackServer() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        try server.serveFeatures()
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let run = try await REPLProcess.run(
            ["--server", server.baseURL.absoluteString, "--data-dir", data.path],
            script: "fo\nfocus\n:next\n:fetch\n:prices BTC2\n:users\n")
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdoutLines.first == #"results for "focus": 5 products"#)
        #expect(run.stdoutLines.contains("page 2 of 2, 5 of 5 shown (last page)"))
        #expect(run.stdoutLines.contains("HTTP 200, count 1"))
        #expect(run.stdoutLines.contains("  BTC2              1.80800715  new"))
        #expect(run.stdoutLines.last?.contains("Clementina DuBuque") == true)
        let searches = server.requests.filter { $0.path == "/products" }.map(\.query)
        #expect(searches.count == 2)
        #expect(searches.allSatisfy { $0.contains("search=focus") })
        #expect(server.requestCount("/status") == 1 && server.requestCount("/crypto") == 1)
        #expect(server.requestCount("/users") == 1)
    }

    @Test func serverModeReportsAServerErrorAndGoesOn() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/products") { _ in .text("database down", status: 500) }
        server.route("GET", "/status") { _ in .text("teapot", status: 418) }
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let run = try await REPLProcess.run(
            ["--server", server.baseURL.absoluteString, "--data-dir", data.path], script: "focus\n:fetch\n")
        #expect(run.status == 1)  // a line failed (its error is on stderr): every line ran, the status says so
        #expect(run.stderrLines == [#"search for "focus" failed: HTTP 500: database down (:retry to try again)"#])
        #expect(run.stdoutLines == ["HTTP 418, count 1"])
    }

    @Test func serverModeCutsOffAnEndlessAnswerAndGoesOn() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/crypto") { _ in
            .chunked { write in
                // Endless as far as the REPL can tell (bounded at 1 GiB for the test's sake).
                for _ in 0..<(1 << 18) { guard write(Data(repeating: 0x20, count: 4_096)) else { return } }
            }
        }
        server.route("GET", "/status") { _ in .text("teapot", status: 418) }
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let run = try await REPLProcess.run(
            ["--server", server.baseURL.absoluteString, "--data-dir", data.path], script: ":prices\n:fetch\n")
        #expect(run.status == 1)  // a line failed (its error is on stderr): every line ran, the status says so
        #expect(
            run.stderrLines.first
                == "prices could not be refreshed: the server's answer is larger than the 10 MiB this request allows; if such an answer is expected, raise the endpoint's maximumResponseSize (:refresh to try again)"
        )
        #expect(run.stdoutLines == ["HTTP 418, count 1"])
    }
}
