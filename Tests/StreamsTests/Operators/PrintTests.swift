import Streams
import StreamsTesting
import Testing

/// `print(_:to:)` writes Combine's lines.
@Suite struct PrintTests {
    /// Collects what `print` writes.
    final class Lines: TextOutputStream, @unchecked Sendable {
        var text = ""
        func write(_ string: String) { text += string }
        var lines: [Substring] { text.split(separator: "\n") }
    }

    struct Stream: TextOutputStream {
        let lines: Lines
        mutating func write(_ string: String) { lines.write(string) }
    }

    @Test func printsEveryEventInCombinesFormat() {
        let lines = Lines()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = subject.print("nums", to: Stream(lines: lines)).record(demand: .max(1), demandPerValue: .max(1))
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.values == [1])
        #expect(
            lines.lines == [
                "nums: receive subscription: (PassthroughSubject)", "nums: request max: (1)",
                "nums: receive value: (1)", "nums: request max: (1) (synchronous)", "nums: receive error: (boom)",
            ])
    }

    /// As Combine's (its documentation's example): a value whose subscriber asks for nothing more is not followed by a
    /// `request max: (0) (synchronous)` line.
    @Test func withoutAPrefixLinesStartWithTheEventAndCancelIsLogged() {
        let lines = Lines()
        let subject = PassthroughSubject<String, Never>()
        let recorder = subject.print(to: Stream(lines: lines)).record()
        subject.send("a")
        recorder.cancel()
        #expect(
            lines.lines == [
                "receive subscription: (PassthroughSubject)", "request unlimited", "receive value: (a)",
                "receive cancel",
            ])
    }
}
