import Features
import Testing

@testable import REPL

/// The session's queue of waiting lines: first in, first out, in O(1) per line (a piped script of a million
/// lines used to take minutes: `Array.removeFirst()` moved every remaining line each time).
@Suite struct LineQueueTests {
    @Test func linesComeOutInOrderThroughCompactions() {
        var queue = LineQueue()
        var next = 0
        var expected = 0
        for round in 0..<300 {
            for _ in 0..<(round % 7 + 3) {
                queue.append(.text(String(next)))
                next += 1
            }
            for _ in 0..<(round % 5 + 1) {
                guard let line = queue.removeFirst() else { break }
                #expect(line == .text(String(expected)))
                expected += 1
            }
        }
        while let line = queue.removeFirst() {
            #expect(line == .text(String(expected)))
            expected += 1
        }
        #expect(expected == next)
        #expect(queue.isEmpty && queue.first == nil)
    }

    @Test func aMillionLinesQueuedThenTakenRunInLinearTime() {
        var queue = LineQueue()
        for index in 0..<1_000_000 { queue.append(.text(String(index & 1023))) }
        var taken = 0
        while queue.removeFirst() != nil { taken += 1 }
        #expect(taken == 1_000_000)
        queue.append(.text("x"))
        queue.removeAll()
        #expect(queue.count == 0)
    }

    @Test func theHelpDocumentsTheStoreLimits() {
        #expect(REPLOptions.usage.contains("\(FeatureStore.maximumFileSize >> 20) MiB"))
        #expect(REPLOptions.usage.contains("waits up to \(StoreLockWaiting.defaultTimeout.components.seconds) s"))
    }
}
