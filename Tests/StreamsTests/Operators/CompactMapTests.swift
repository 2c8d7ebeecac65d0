import Streams
import StreamsTesting
import Testing

@Suite struct CompactMapTests {
    @Test func compactMapDropsNilsAndKeepsDemand() {
        let recorder = ["1", "x", "3", "y", "5"].publisher.compactMap { Int($0) }.record(demand: .max(2))
        #expect(recorder.values == [1, 3])
        recorder.request(.max(1))
        #expect(recorder.values == [1, 3, 5])
        #expect(recorder.isFinished)
    }
}
