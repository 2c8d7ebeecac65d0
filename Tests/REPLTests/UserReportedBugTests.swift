import Features
import Foundation
import Networking
import REPL
import Streams
import StreamsTesting
import Testing

/// A piped session over a catalogue of `count` products named "Car 1"…, answered on virtual time by a server
/// that sends **no** `X-Total-Count` header (as some servers do), so the client only knows a page is the last
/// when it is short — or empty.
private final class NoTotalHarness {
    let scheduler = TestScheduler()
    let input = PassthroughSubject<InputLine, Never>()
    let directory: URL
    let session: Session
    let recorder: TestRecorder<OutputLine, Never>
    private var taken = 0

    init(count: Int, names: (Int) -> String = { "Car \($0)" }) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("repl-bugs-\(UUID().uuidString)", isDirectory: true)
        let store = try FeatureStore(directory: directory)
        let catalogue = (1...count).map { index in
            Product(
                id: String(index), name: names(index), brand: "Ford", model: "ST", price: Decimal(index * 10),
                description: "", image: "", createdAt: Date(timeIntervalSince1970: TimeInterval(index)))
        }
        let route = ProductSearchRoute(catalogue: catalogue)
        let products = LocalRoute(.get, ProductSearchRoute.path) { request in
            var response = route.response(path: request.path, queryItems: request.queryItems)
            response.headers[ProductSearchRoute.totalCountHeader] = nil
            return response
        }
        let scheduler = self.scheduler
        let clients = ClientFactory(
            local: { LocalClient(latency: .milliseconds(100), scheduler: scheduler, routes: [products]) },
            remote: { _ in LocalClient(latency: .milliseconds(100), scheduler: scheduler, routes: [products]) })
        session = try Session(input: input, store: store, scheduler: scheduler, clients: clients)
        recorder = session.output.record(on: scheduler)
        session.start()
        scheduler.advance()
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    @discardableResult
    func run(_ lines: String...) -> [OutputLine] {
        for line in lines { input.send(.text(line)) }
        scheduler.run()
        let values = recorder.values
        defer { taken = values.count }
        return Array(values.dropFirst(taken))
    }
}

/// The bugs a user reported, each pinned by the test that failed before its fix.
@Suite struct UserReportedBugTests {
    // MARK: 1, 2: paging without X-Total-Count

    @Test func nextAfterAFullLastPageSaysThereIsNothingMoreWhenTheServerSendsNoTotal() throws {
        let harness = try NoTotalHarness(count: 8)
        let first = harness.run("car")
        #expect(first.errors.isEmpty)
        #expect(first.outputs.first == #"results for "car": 4+ products"#)
        #expect(first.outputs.last == "page 1, 4 shown (:next for more)")
        let second = harness.run(":next")
        #expect(second.outputs.count == 5)
        #expect(second.outputs.last == "page 2, 8 shown (:next for more)")  // full: the client cannot know
        // The page after the full last page is empty: one line says so (it printed nothing before the fix).
        let third = harness.run(":next")
        #expect(third == [.output(#"no more results for "car" (8 products)"#)])
        // The results are now the last page: another :next does not ask the server again.
        let fourth = harness.run(":next")
        #expect(fourth == [.error(#"no more results for "car" (8 products)"#)])
    }

    @Test func aShortLastPageWithoutATotalShowsTheExactCount() throws {
        let harness = try NoTotalHarness(count: 6)
        #expect(harness.run("car").outputs.first == #"results for "car": 4+ products"#)
        let second = harness.run(":next")
        #expect(second.outputs.last == "page 2, 6 of 6 shown (last page)")
        #expect(harness.run(":next") == [.error(#"no more results for "car" (6 products)"#)])
        // A single short page is the whole result: its header gives the exact count.
        #expect(harness.run("car 1").outputs.first == #"results for "car 1": 1 product"#)
    }

    @Test func theHeaderSaysWhatIsKnownWithoutATotal() {
        let product = Product(
            id: "1", name: "A", brand: "B", model: "C", price: 1, description: "", image: "",
            createdAt: Date(timeIntervalSince1970: 0))
        var results = SearchResults(
            query: ProductQuery(search: "x"), products: Array(repeating: product, count: 4), totalCount: nil,
            isLastPage: false)
        #expect(Renderer.searchHeader(results) == #"results for "x": 4+ products"#)
        results.isLastPage = true
        #expect(Renderer.searchHeader(results) == #"results for "x": 4 products"#)
        results.totalCount = 9
        #expect(Renderer.searchHeader(results) == #"results for "x": 9 products"#)
    }

    // MARK: 3: usage sentences

    @Test(arguments: [
        (":fav add", "usage: :fav add ID (an id from the results, e.g. :fav add 3)"),
        (":fav remove", "usage: :fav remove ID (an id from :favs, e.g. :fav remove 3)"),
        (":fav", "usage: :fav ID, :fav add ID or :fav remove ID (an id from the results, e.g. :fav 3)"),
        (":fav add 1 2", "usage: :fav add ID (an id from the results, e.g. :fav add 3)"),
        (":fav add ?!", "'?!' is not a product id; usage: :fav add ID (an id from the results, e.g. :fav add 3)"),
        (
            ":cart add",
            "usage: :cart add ID [QTY] (an id from the results and a quantity from 1 to 999, e.g. :cart add 3 2)"
        ),
        (
            ":cart set 3",
            "usage: :cart quantity ID QTY (an id from :cart and a quantity from 0 to 999, 0 removing it, "
                + "e.g. :cart quantity 3 2)"
        ),
        (":cart remove", "usage: :cart remove ID (an id from :cart, e.g. :cart remove 3)"),
        (":cart show all", "usage: :cart show (it takes no arguments)"),
        (":sort", "usage: :sort price|price-desc|newest|oldest|none (one order, e.g. :sort price)"),
        (
            ":source",
            "usage: :source local|URL (local for the bundled data, or a server's address, "
                + "e.g. :source http://127.0.0.1:8080)"
        ),
        (":help a b", "usage: :help [COMMAND] (a command's name, e.g. :help cart)"),
    ])
    func aMissingOrMalformedArgumentGetsAUsageSentence(line: String, message: String) {
        #expect(throws: CommandError(message)) { try CommandParser.parse(line) }
    }

    @Test func favAddWithoutAnIDIsAUsageNotAnUnknownProduct() throws {
        let harness = try SessionHarness()
        harness.run("ford")
        let output = harness.run(":fav add")
        #expect(output.errors == ["usage: :fav add ID (an id from the results, e.g. :fav add 3)"])
        #expect(harness.store.snapshot.favourites.isEmpty)
    }

    @Test func setIsAnotherNameForQuantity() throws {
        #expect(try CommandParser.parse(":cart set 3 2") == .command(.cart(.setQuantity(productID: "3", quantity: 2))))
        #expect(try CommandParser.parse(":fav add #3") == .command(.favourite(.add(productID: "3"))))
    }

    // MARK: 4: quantities

    @Test(arguments: [
        (":cart add 3 1000", "quantity must be a whole number from 1 to 999, got 1000"),
        (":cart add 3 0", "quantity must be a whole number from 1 to 999, got 0"),
        (":cart add 3 -2", "quantity must be a whole number from 1 to 999, got -2"),
        (":cart add 3 9223372036854775807", "quantity must be a whole number from 1 to 999, got 9223372036854775807"),
        (":cart add 3 99999999999999999999", "quantity must be a whole number from 1 to 999, got 99999999999999999999"),
        (":cart add 3 2.5", "quantity must be a whole number from 1 to 999, got '2.5'"),
        (":cart quantity 3 1000", "quantity must be a whole number from 0 to 999 (0 removes the product), got 1000"),
        (":cart set 3 x", "quantity must be a whole number from 0 to 999 (0 removes the product), got 'x'"),
    ])
    func quantitiesOutsideOneTo999AreRefusedByTheParser(line: String, message: String) {
        #expect(throws: CommandError(message)) { try CommandParser.parse(line) }
    }

    @Test func addingBeyond999IsRefusedAndNothingOverflows() throws {
        let harness = try SessionHarness()
        harness.run("ford")
        #expect(harness.run(":cart add 10 999").errors.isEmpty)
        let output = harness.run(":cart add 10 1")
        #expect(
            output.errors == [
                "cannot add 1 more of product 10: the basket already holds 999, and a product's quantity can be at "
                    + "most 999 (set it instead, or check out first)"
            ])
        #expect(harness.store.snapshot.basket.quantity(ofProductID: "10") == 999)
        #expect(harness.run(":cart set 10 5").outputs == ["#10 Ford Focus: quantity 5; basket total 1285.00 (5 items)"])
    }

    @Test func unknownIDsAreNamed() throws {
        let harness = try SessionHarness()
        harness.run("ford")
        #expect(
            harness.run(":cart add 42").errors == [
                "no product with id 42 in the results, the favourites or the basket (search for it first, or check "
                    + "the id)"
            ])
        #expect(
            harness.run(":cart remove #42").errors == ["product 42 is not in the basket (:cart lists what is in it)"])
        #expect(harness.run(":fav remove 42").errors == ["product 42 is not a favourite (:favs lists them)"])
    }

    // MARK: 7: control characters

    @Test func controlCharactersInProductNamesAndInputAreEscapedEverywhere() throws {
        let hostile = "Evil\u{1B}[2J\u{07}Car\r\u{202E}gnp"
        let harness = try NoTotalHarness(count: 2) { $0 == 1 ? hostile : "Car \($0)" }
        let search = "car\u{1B}]0;title\u{07}\u{202E}"
        var lines = harness.run(search)
        lines += harness.run("car")
        lines += harness.run(":fav 1", ":favs", ":cart add 1", ":cart", ":history")
        let texts = lines.map { line -> String in
            switch line {
            case .output(let text), .error(let text), .prompt(let text): text
            case .live(let texts): texts.joined()
            }
        }
        for text in texts {
            #expect(TerminalText.isSafe(text), "\(text)")
        }
        let escapedName = #"Evil\u{1B}[2J\u{07}Car\u{0D}\u{202E}gnp"#
        #expect(texts.contains { $0.hasPrefix("  #1     " + #"Evil\u{1B}[2J\u{07}Car"#) })  // a row, cut to fit
        #expect(texts.contains { $0.hasPrefix("added #1 " + escapedName) })  // :fav
        #expect(texts.contains { $0.hasPrefix(#"no products match "car\u{1B}]0;title\u{07}\u{202E}""#) })
        #expect(texts.contains { $0.hasSuffix("  " + #"car\u{1B}]0;title\u{07}\u{202E}"#) })  // :history
    }

    // MARK: 8: the products table

    @Test func theTableHasAHeaderAlignedColumnsAndTruncatedNames() throws {
        let harness = try NoTotalHarness(count: 3) { index in
            [
                "Car with a very long name that does not fit in its column at all", "Car 日本語の車の名前がとても長いです",
                "Car 🚗",
            ][index - 1]
        }
        let lines = harness.run("car").outputs
        #expect(lines.count == 6)
        #expect(lines[1] == Renderer.productTableHeader())
        #expect(lines[1].hasPrefix("  id     name "))
        #expect(lines[1].hasSuffix("price"))
        let table = Array(lines[1...4])
        // Every line is as wide (in terminal columns) as the header, and the prices end in the same column.
        for line in table {
            #expect(DisplayWidth.of(line) == DisplayWidth.of(lines[1]), "\(line)")
            #expect(DisplayWidth.of(line) <= 80)
        }
        #expect(lines[2].contains("Car with a very long name th…"))
        #expect(lines[3].contains("Car 日本語の車の名前がとて…") || lines[3].contains("…"))
        #expect(
            lines[2].hasSuffix("     10.00") && lines[3].hasSuffix("     20.00") && lines[4].hasSuffix("     30.00"))
    }

    @Test func rowsFitTheWidthGivenAndKeepTheirColumns() {
        let product = Product(
            id: "12", name: "Ford Focus Titanium Estate Edition", brand: "Maserati", model: "CTS",
            price: Decimal(string: "1257.5")!, description: "", image: "", createdAt: Date(timeIntervalSince1970: 0))
        for width in [70, 80, 120] {
            let row = Renderer.productRow(product, width: width)
            let header = Renderer.productTableHeader(width: width)
            // The line fills the width (less one column), except that the name column stops at 40.
            let expected = min(width - 1, 90)
            #expect(DisplayWidth.of(row) == expected, "\(row)")
            #expect(DisplayWidth.of(header) == expected)
            #expect(row.hasSuffix("1257.50"))
            #expect(
                row.range(of: "Maserati")?.lowerBound.utf16Offset(in: row)
                    == header.range(of: "brand")?.lowerBound.utf16Offset(in: header))
        }
        #expect(Renderer.productRow(product, width: 70).contains("Ford Focus Titaniu…"))
        #expect(Renderer.productRow(product, width: 120).contains("Ford Focus Titanium Estate Edition"))
        #expect(Renderer.productRow(product) == Renderer.productRow(product, width: 80))
    }
}

/// A store file that cannot be read stops `streams-repl` with the store's own sentence (no `--data-dir` advice:
/// the file, not the directory, needs fixing).
@Suite struct UnreadableStoreStartupTests {
    @Test func theStartupMessageIsTheStoresSentence() {
        let error = FeatureStoreError.unreadableFile(
            path: "/d/features-store.json",
            reason: "permission denied; fix its permissions (chmod 600 /d/features-store.json) and start again")
        #expect(
            StartupMessage.store(error, directory: URL(fileURLWithPath: "/d"))
                == "streams-repl: could not read the store file /d/features-store.json: permission denied; fix its "
                + "permissions (chmod 600 /d/features-store.json) and start again")
    }
}

/// Escaped text cut to a column is never cut inside an escape.
@Suite struct RendererCuttingTests {
    @Test func anEscapeIsKeptWholeOrDroppedWhole() {
        let product = Product(
            id: "1", name: "Saved\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[H", brand: "B", model: "M", price: 1,
            description: "", image: "", createdAt: Date(timeIntervalSince1970: 0))
        let row = Renderer.productRow(product)
        #expect(row.contains(#"Saved\u{1B}]0;pwned\u{07}…"#), "\(row)")
        #expect(!row.contains(#"\u{1…"#) && !row.contains(#"\…"#))
        #expect(TerminalText.isSafe(row))
    }
}
