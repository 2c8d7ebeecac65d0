import Streams
import StreamsTesting
import Testing

@Suite struct FilterTests {
    @Test func filterGivesDroppedDemandBackUpstream() {
        let recorder = (1...10).publisher.filter { $0 > 5 }.record(demand: .max(2))
        #expect(recorder.values == [6, 7])
        #expect(recorder.completion == nil)
        recorder.request(.max(10))
        #expect(recorder.values == [6, 7, 8, 9, 10])
        #expect(recorder.isFinished)
    }
}
