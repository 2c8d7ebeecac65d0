// Shows the fetch counter: each completed fetch is counted in a store file that survives restarts until reset.
// Run: swift run fetch-counter   (a temporary store; bundled local client answering 200)
import Features
import Foundation
import Networking
import Streams
import StreamsTesting

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-counter-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }

let scheduler = TestScheduler()  // the request timeout runs on it; the local client answers at once

/// A fresh view model on the same directory: what a restarted app would create.
func makeViewModel() throws -> FetchCounterViewModel {
    FetchCounterViewModel(
        client: try LocalClient.features(), baseURL: FeatureEndpoint.localBaseURL,
        store: try FeatureStore(directory: directory), scheduler: scheduler)
}

var cancellables = Set<AnyCancellable>()
let first = try makeViewModel()
first.state.filter { !$0.isLoading }.sink { state in
    let status = state.lastStatusCode.map { "last answer HTTP \($0)" } ?? "no fetch yet"
    print("  count \(state.count), \(status)")
}.store(in: &cancellables)
print("fetching twice:")
first.fetch()
scheduler.advance()
first.fetch()
scheduler.advance()
cancellables.removeAll()

print("a new view model on the same store (an app restart) starts from the file:")
let second = try makeViewModel()
second.count.sink { print("  count \($0)") }.store(in: &cancellables)
print("reset:")
second.reset()
scheduler.advance()
print("store file: \(directory.appendingPathComponent(FeatureStore.fileName).lastPathComponent)")
