// Shows the debounced product search view model driven by scripted keystrokes, on virtual time.
// Run: swift run product-search   (bundled catalogue, 200 ms simulated latency, finishes at once)
import Features
import Foundation
import Networking
import Streams
import StreamsTesting

let scheduler = TestScheduler()
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("product-search-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }

let client = try LocalClient.features(latency: .milliseconds(200), scheduler: scheduler)
let search = ProductSearchViewModel(
    catalog: NetworkProductCatalog(client: client, baseURL: FeatureEndpoint.localBaseURL),
    store: try FeatureStore(directory: directory), scheduler: scheduler)

func describe(_ state: SearchState) -> String {
    switch state {
    case .idle: return "idle"
    case .hint(let text): return "hint: \(text)"
    case .loading(let query): return "loading \"\(query.search)\"…"
    case .empty(let query): return "no product matches \"\(query.search)\""
    case .failed(_, let message): return "failed: \(message)"
    case .results(let results):
        let names = results.products.map(\.name).joined(separator: ", ")
        let total = results.totalCount.map { " of \($0)" } ?? ""
        if results.isLoadingNextPage { return "loading page \(results.query.page + 1)…" }
        return "\(results.products.count)\(total) results\(results.isLastPage ? " (last page)" : ""): \(names)"
    }
}

let printer = search.state.sink { state in
    print("t = \(scheduler.now.offset.formatted()): \(describe(state))")
}

// The user types "a", then "au", "aud", "audi" 100 ms apart: one search, 500 ms after the last keystroke.
for (index, text) in ["a", "au", "aud", "audi"].enumerated() {
    scheduler.advance(to: SchedulerInstant(offset: .milliseconds(100 * index)))
    print("t = \(scheduler.now.offset.formatted()): typed \"\(text)\"")
    search.search(text)
}
scheduler.advance(by: .seconds(1))
print("t = \(scheduler.now.offset.formatted()): next page")
search.loadNextPage()
scheduler.advance(by: .seconds(1))
printer.cancel()

extension Duration {
    /// `0.8 s` style, for the narrative.
    func formatted() -> String {
        let milliseconds = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
        return "\(Double(milliseconds) / 1000) s"
    }
}
