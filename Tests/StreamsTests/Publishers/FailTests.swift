import Streams
import StreamsTesting
import Testing

@Suite struct FailTests {
    @Test func failFailsAtOnce() {
        let recorder = Fail<Int, TestError>(error: .boom).record(demand: .none)
        #expect(recorder.events == [.failure(.boom, at: .zero)])
    }
}
