import Streams
import StreamsTesting
import Testing

/// `breakpoint(receiveSubscription:receiveOutput:receiveCompletion:)` and `breakpointOnError()` pass events
/// through when their closures say no.
@Suite struct BreakpointTests {
    @Test func aBreakpointThatNeverFiresChangesNothing() {
        var seen: [Int] = []
        let recorder = [1, 2, 3].publisher
            .breakpoint(
                receiveSubscription: { _ in false },
                receiveOutput: {
                    seen.append($0)
                    return false
                },
                receiveCompletion: { _ in false }
            )
            .breakpointOnError()
            .record(demand: .max(2))
        #expect(recorder.values == [1, 2])
        #expect(seen == [1, 2])
    }
}
