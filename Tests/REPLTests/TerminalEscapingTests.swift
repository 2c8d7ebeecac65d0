import Features
import Foundation
import Networking
import REPL
import Streams
import StreamsTesting
import Testing

/// `TerminalText` on its own: what is escaped, what is kept.
@Suite struct TerminalTextTests {
    @Test func controlCharactersAreShownVisibly() {
        #expect(TerminalText.escaped("\u{1B}]0;pwned\u{07}") == #"\u{1B}]0;pwned\u{07}"#)
        #expect(TerminalText.escaped("\u{1B}[2J\u{1B}[H") == #"\u{1B}[2J\u{1B}[H"#)
        #expect(TerminalText.escaped("ok\rfake") == #"ok\u{0D}fake"#)
        #expect(TerminalText.escaped("one\ntwo\tthree") == #"one\u{0A}two\u{09}three"#)
        #expect(TerminalText.escaped("\u{00}\u{7F}\u{9B}31m") == #"\u{00}\u{7F}\u{9B}31m"#)
    }

    @Test func bidirectionalOverridesAndSeparatorsAreShownVisibly() {
        for value in Array(0x202A...0x202E) + Array(0x2066...0x2069) + [0x200E, 0x200F, 0x061C, 0x2028, 0x2029] {
            let scalar = Unicode.Scalar(UInt32(value)).map { String(Character($0)) } ?? ""
            let text = "a" + scalar + "b"
            #expect(TerminalText.escaped(text) == "a\\u{" + String(value, radix: 16, uppercase: true) + "}b")
            #expect(!TerminalText.isSafe(text))
        }
        #expect(TerminalText.escaped("\u{202E}gpj.exe") == #"\u{202E}gpj.exe"#)
    }

    @Test func printableUnicodeIsKept() {
        for text in [
            "Café Škoda Łódź", "東京 ドライブ", "🚗 👩‍👩‍👧‍👦 🏳️‍🌈 ❤️", "e\u{301}", "שלום", "مرحبا",
            #"C:\path\u{1B}"#, "× … ≥ —",
        ] {
            #expect(TerminalText.escaped(text) == text)
            #expect(TerminalText.isSafe(text))
        }
    }

    @Test func escapingTwiceEqualsEscapingOnce() {
        let text = "\u{1B}]0;x\u{07}\u{202E}Café 🚗\r\n"
        #expect(TerminalText.escaped(TerminalText.escaped(text)) == TerminalText.escaped(text))
    }
}

/// Every line the session prints is escaped, whatever field the outside text came in: product, brand and
/// model names, a server's error body, a decoding message, echoed input, stored favourites and basket, users,
/// currencies, the store's path in the banner.
@Suite struct SessionEscapingTests {
    /// An OSC title change followed by a screen clear and a fake line: what a hostile server would send.
    static let attack = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[H\r\u{202E}"
    /// How ``attack`` must be printed.
    static let shown = #"\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[H\u{0D}\u{202E}"#
    /// How ``attack`` is printed up to its CR, where a body or a command name is cut (white space).
    static let shownBeforeCR = #"\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[H"#
    /// The same in JSON.
    static let json = #"\u001b]0;pwned\u0007\u001b[2J\u001b[H\r\u202e"#

    static func product(_ id: String, name: String, brand: String, model: String) -> Product {
        Product(
            id: id, name: name, brand: brand, model: model, price: 10, description: attack, image: attack,
            createdAt: Date(timeIntervalSince1970: 1_700_000_000))
    }

    static let catalogue = [
        product("1", name: "Evil\(attack) Car", brand: "Brand\(attack)", model: "Model\(attack)"),
        product("2", name: "Café 🚗 Zoë", brand: "Škoda", model: "東京"),
    ]

    /// Routes answering with hostile text in every field the REPL prints.
    static func routes() throws -> [LocalRoute] {
        let search = ProductSearchRoute(catalogue: catalogue)
        let users = String(decoding: try BundledData.users.data(), as: UTF8.self)
            .replacingOccurrences(of: "Leanne Graham", with: "Leanne\(json)")
            .replacingOccurrences(of: "Sincere@april.biz", with: "mail\(json)@x")
            .replacingOccurrences(of: "Gwenborough", with: "City\(json)")
            .replacingOccurrences(of: #""username": "Bret""#, with: #""username": "Bret\#(json)""#)
        let crypto = #"[{"currency":"COIN\#(json)","price":"1.5"},{"currency":"BTC","price":"2"}]"#
        let html = "<html>\n<head><title>500 Internal Server Error</title></head>\n<body>\n"
            + "<h1>Internal Server Error\(attack)</h1>\n" + String(repeating: "<p>detail line</p>\n", count: 12)
            + "</body>\n</html>\n"
        return [
            LocalRoute(.get, ProductSearchRoute.path) { request in
                if request.queryValue("search") == "broken" {
                    let body = #"[{"id":"9","name":"x","brand":"b","model":"m","price":"1","description":"","#
                        + #""image":"","createdAt":"\#(json)"}]"#
                    return NetworkResponse(statusCode: 200, body: Data(body.utf8))
                }
                if request.queryValue("search") == "failing" {
                    return NetworkResponse(statusCode: 503, body: Data("busy\(attack)".utf8))
                }
                if request.queryValue("search") == "html" {
                    return NetworkResponse(statusCode: 500, body: Data(html.utf8))
                }
                return search.response(path: request.path, queryItems: request.queryItems)
            },
            LocalRoute(.get, StatusRoute.path) { request in
                StatusRoute.response(path: request.path, queryItems: request.queryItems)
            },
            LocalRoute(.get, "/users") { _ in NetworkResponse(statusCode: 200, body: Data(users.utf8)) },
            LocalRoute(.get, "/crypto") { _ in NetworkResponse(statusCode: 200, body: Data(crypto.utf8)) },
        ]
    }

    final class Harness {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<InputLine, Never>()
        let parent: URL
        let store: FeatureStore
        let session: Session
        let recorder: TestRecorder<OutputLine, Never>

        /// A session whose store lives in a directory named with ``attack`` and already holds a hostile
        /// favourite and basket line (as saved by an earlier run).
        init(interactive: Bool) throws {
            parent = FileManager.default.temporaryDirectory
                .appendingPathComponent("repl-escaping-\(UUID().uuidString)", isDirectory: true)
            let directory = parent.appendingPathComponent("store\(SessionEscapingTests.attack)", isDirectory: true)
            store = try FeatureStore(directory: directory)
            let saved = SessionEscapingTests.product(
                "7", name: "Saved\(SessionEscapingTests.attack)", brand: "B\(SessionEscapingTests.attack)",
                model: "M\(SessionEscapingTests.attack)")
            try store.addFavourite(saved)
            try store.addToBasket(saved, quantity: 2)
            let routes = try SessionEscapingTests.routes()
            let scheduler = self.scheduler
            let clients = ClientFactory(
                local: { LocalClient(latency: .milliseconds(10), scheduler: scheduler, routes: routes) },
                remote: { _ in LocalClient(latency: .milliseconds(10), scheduler: scheduler, routes: routes) })
            session = try Session(
                input: input, store: store, scheduler: scheduler, isInteractive: interactive, clients: clients)
            recorder = session.output.record(on: scheduler)
            session.start()
            scheduler.advance()
        }

        deinit { try? FileManager.default.removeItem(at: parent) }

        func run(_ lines: String...) {
            for line in lines { input.send(.text(line)) }
            scheduler.run()
        }

        var texts: [String] {
            recorder.values.flatMap { line in
                switch line {
                case .output(let text), .error(let text), .prompt(let text): [text]
                case .live(let lines): lines  // each live line is printed on its own row
                }
            }
        }
    }

    /// Runs every command that prints outside text and returns what was printed.
    private func printedLines(interactive: Bool) throws -> [String] {
        let harness = try Harness(interactive: interactive)
        let attack = Self.attack
        let lines = [
            ":favs", ":cart", "evil\(attack)", "car", ":fav 1", ":favs", ":cart add 1", ":cart", ":cart checkout",
            ":brand Brand\(attack)", ":model Model\(attack)", ":clear", "zzzz", "broken", "failing", "html", ":fetch",
            ":users", ":prices", ":prices COIN", ":prices zz\(attack)", ":nope\(attack)", ":sort \(attack)",
            ":cart add 1 \(attack)", ":fav remove \(attack)", ":help \(attack)", ":source \(attack)", ":history",
            ":source http://[::1]:8080",
        ]
        for line in lines { harness.run(line) }  // one at a time, so no search is debounced away
        harness.input.send(.unreadable(reason: "bad\(attack)"))
        harness.scheduler.run()
        return harness.texts
    }

    @Test(arguments: [false, true])
    func everyPrintedLineIsSafeForTheTerminal(interactive: Bool) throws {
        let lines = try printedLines(interactive: interactive)
        #expect(lines.count > 40)
        for line in lines {
            #expect(TerminalText.isSafe(line), "unescaped: \(line.debugDescription)")
        }
        let joined = lines.joined(separator: "\n")
        // Each field was printed — escaped, not dropped.
        for field in [
            "Evil\(Self.shown) Car", "Brand\(Self.shown)", "Model\(Self.shown)",  // search rows
            "#7     Saved\(Self.shown)",  // the basket saved by an earlier run, replayed
            #"#7     Saved\u{1B}]0;pwned\u{07}"#,  // favourites (in the table, the name is cut to fit its column)
            #"results for "evil\#(Self.shown)""#, "no products match",  // echoed search text
            "brand Brand\(Self.shown)", "model Model\(Self.shown)",  // echoed filters
            "Internal Server Error\(Self.shownBeforeCR)",  // an HTML error page (white space made one space)
            "busy\(Self.shownBeforeCR)",  // a search failure's body
            "\"\(Self.shown)\" is not an ISO 8601 date",  // a decoding message
            "Leanne\(Self.shown)", "@Bret\(Self.shown)", "mail\(Self.shown)@x", "City\(Self.shown)",  // users
            "COIN\(Self.shown)", #"no currency matches "zz\#(Self.shown)""#,  // currencies, echoed filter
            "':nope\(Self.shownBeforeCR)'", "bad\(Self.shown)",  // echoed commands, unreadable lines
            "   1  :favs",  // the history
        ] {
            #expect(joined.contains(field), "missing \(field.debugDescription)")
        }
        // Café, emoji and CJK stay as they are.
        #expect(joined.contains("Café 🚗 Zoë") && joined.contains("Škoda") && joined.contains("東京"))
        if interactive {
            #expect(lines.first?.contains("store: ") == true && lines.first?.contains("store\(Self.shown)") == true)
        }
    }

    @Test func anHTMLErrorPageIsOneShortLine() throws {
        let harness = try Harness(interactive: false)
        harness.run("html")
        let errors = harness.recorder.values.compactMap { line -> String? in
            if case .error(let text) = line { text } else { nil }
        }
        #expect(errors.count == 1)
        let line = try #require(errors.first)
        #expect(!line.contains("\n") && !line.contains("<"))
        #expect(
            line.hasPrefix(
                #"search for "html" failed: HTTP 500: 500 Internal Server Error Internal Server Error\u{1B}]0;pwned"#))
        #expect(line.count < 260)
        #expect(line.hasSuffix(" det… (:retry to try again)"))
    }
}
