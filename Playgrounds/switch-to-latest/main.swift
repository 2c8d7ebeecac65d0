// Shows switchToLatest cancelling stale work: a slow answer to an old query never overwrites a newer one.
// Run: swift run switch-to-latest
import Streams
import StreamsTesting

let scheduler = TestScheduler()
let queries = PassthroughSubject<String, Never>()

/// A fake search whose answer takes longer for shorter queries.
func search(_ query: String) -> AnyPublisher<String, Never> {
    let latency = Duration.milliseconds(600 / query.count)
    print("t = \(scheduler.now.offset): searching \"\(query)\" (answer in \(latency))")
    return Just("results for \"\(query)\"")
        .delay(for: latency, scheduler: scheduler)
        .handleEvents(receiveCancel: { print("t = \(scheduler.now.offset): cancelled the search for \"\(query)\"") })
        .eraseToAnyPublisher()
}

let results = queries.map(search).switchToLatest().record(on: scheduler)
queries.send("s")
scheduler.advance(by: .milliseconds(100))
queries.send("swift")
scheduler.run()
print("shown: \(results.values)  (the slow answer for \"s\" never arrived)")
