import Streams
import StreamsTesting
import Testing

/// The README's examples, run as tests so they cannot rot. (The quick start uses
/// `DispatchQueue.main` in the README; here the same pipeline runs on a `TestScheduler`.)
@Suite struct ReadmeExamplesTests {
    @Test func quickStartSearchesOnlyTheLastQuery() {
        let scheduler = TestScheduler()
        let searched = Locked<[String]>([])
        let query = PassthroughSubject<String, Never>()
        let cancellable =
            query
            .map { $0.lowercased() }
            .removeDuplicates()
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .sink { text in searched.withLock { $0.append(text) } }
        query.send("sw")
        query.send("Swift")
        scheduler.advance(by: .milliseconds(300))
        #expect(searched.withLock { $0 } == ["swift"])
        cancellable.cancel()
    }

    @Test func debounceKeepsTheLastOfABurst() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<String, Never>()
        let recorder = input.debounce(for: .milliseconds(500), scheduler: scheduler).record(on: scheduler)
        input.send("i")
        scheduler.advance(by: .milliseconds(100))
        input.send("ip")
        scheduler.advance(by: .milliseconds(500))
        #expect(recorder.events == [.value("ip", at: .milliseconds(600))])
    }

    // The marble guide ("Testing with marble diagrams"), step by step.

    /// The pipeline under test: drop repeated queries, wait for a pause in typing, search the latest query.
    private func searchResults(
        for queries: some Publisher<String, Never>, scheduler: any Scheduler,
        search: @escaping (String) -> AnyPublisher<String, Never>
    ) -> AnyPublisher<String, Never> {
        queries
            .removeDuplicates()
            .debounce(for: .milliseconds(500), scheduler: scheduler)
            .map(search)
            .switchToLatest()
            .eraseToAnyPublisher()
    }

    @Test func debouncedSearchOnMarbles() throws {
        let scheduler = TestScheduler(frameDuration: .milliseconds(100))  // one character = 100 ms
        let typing = try scheduler.hot(
            "-a-b-------c-d---------|", values: ["a": "s", "b": "sw", "c": "swi", "d": "swift"])
        let slowAnswer = try scheduler.cold("------------(x|)", values: ["x": "2 results for sw"])
        let fastAnswer = try scheduler.cold("---(y|)", values: ["y": "1 result for swift"])
        let answers = ["sw": slowAnswer, "swift": fastAnswer]

        let results = searchResults(for: typing, scheduler: scheduler) { query in
            answers[query]?.eraseToAnyPublisher() ?? Empty().eraseToAnyPublisher()
        }

        expectMarbles(results, "---------------------y-|", values: ["y": "1 result for swift"], on: scheduler)
        expectSubscriptions(slowAnswer, "--------^---------!")  // asked at 0.8 s, cancelled at 1.8 s
        expectSubscriptions(fastAnswer, "------------------^")
    }

    @Test func debouncedSearchFailureMessage() throws {
        let scheduler = TestScheduler(frameDuration: .milliseconds(100))
        let typing = try scheduler.hot(
            "-a-b-------c-d---------|", values: ["a": "s", "b": "sw", "c": "swi", "d": "swift"])
        let slowAnswer = try scheduler.cold("------------(x|)", values: ["x": "2 results for sw"])
        let fastAnswer = try scheduler.cold("---(y|)", values: ["y": "1 result for swift"])
        let answers = ["sw": slowAnswer, "swift": fastAnswer]
        let results = searchResults(for: typing, scheduler: scheduler) { query in
            answers[query]?.eraseToAnyPublisher() ?? Empty().eraseToAnyPublisher()
        }
        // The README shows this message: what a wrong expectation (no debounce in mind) prints.
        let comparison = compareMarbles(results, "------y-|", values: ["y": "1 result for swift"], on: scheduler)
        #expect(
            comparison.description == """
                Marble diagrams differ (1 frame = 100 ms):
                  expected  ------y-|
                  actual    ---------------------y-|
                event by event:
                  frame 6 (600 ms): expected y ("1 result for swift"), actual nothing
                  frame 8 (800 ms): expected | (finished), actual nothing
                  frame 21 (2100 ms): expected nothing, actual y ("1 result for swift")
                  frame 23 (2300 ms): expected nothing, actual | (finished)
                """)
    }
}
