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
}
