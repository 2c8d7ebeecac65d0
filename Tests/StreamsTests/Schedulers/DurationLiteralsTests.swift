import Streams
import StreamsTesting
import Testing

/// A bare number where a `Duration` is expected means seconds, as Combine's scheduler strides read it.
@Suite struct DurationLiteralsTests {
    /// Integer and floating-point literals are seconds, to `Duration`'s own precision.
    @Test func literalsAreSeconds() {
        let whole: Duration = 2
        let half: Duration = 0.5
        let small: Duration = 0.001
        let negative: Duration = -1
        #expect(whole == .seconds(2))
        #expect(half == .milliseconds(500))
        #expect(small == .milliseconds(1))
        #expect(negative == .seconds(-1))
    }

    /// The literal reaches an operator as Combine code writes it: `debounce(for: 0.3, …)` waits 300 ms.
    @Test func anOperatorReadsABareNumberAsSeconds() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.debounce(for: 0.3, scheduler: scheduler).record(on: scheduler)
        subject.send(1)
        scheduler.advance(by: .milliseconds(299))
        #expect(recorder.values.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.events == [.value(1, at: .milliseconds(300))])
    }
}
