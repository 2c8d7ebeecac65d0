import Streams
import StreamsTesting
import Testing

@Suite struct SinkTests {
    @Test func sinkReceivesValuesAndCompletion() {
        let events = Locked<[String]>([])
        let c = [1, 2].publisher.sink(
            receiveCompletion: { completion in events.withLock { $0.append("\(completion)") } },
            receiveValue: { value in events.withLock { $0.append("\(value)") } })
        #expect(events.withLock { $0 } == ["1", "2", "finished"])
        c.cancel()
    }
}
