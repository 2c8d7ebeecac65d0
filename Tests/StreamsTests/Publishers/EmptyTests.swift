import Streams
import StreamsTesting
import Testing

@Suite struct EmptyTests {
    @Test func emptyFinishesAtOnceOrNever() {
        #expect(Empty<Int, Never>().record().isFinished)
        let silent = Empty<Int, Never>(completeImmediately: false).record()
        #expect(silent.events.isEmpty)
        #expect(silent.subscriptionCount == 1)
    }
}
