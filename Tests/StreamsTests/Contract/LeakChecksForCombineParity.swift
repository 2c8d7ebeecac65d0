import Streams
import StreamsTesting
import Testing

/// The operators added for Combine parity, each subscribed, fed, then cancelled or completed with its sources
/// kept alive outside the checked body: the subscriber, the subscription it received and the closures'
/// tokens must all be freed.
@Suite struct LeakChecksForCombineParity {
    enum Operator: String, CaseIterable, Sendable {
        case count, min, maxBy, contains, allSatisfy, last, lastWhere, tryFirst, tryReduce, ignoreOutput
        case dropWhile, prefixWhile, tryFilter, tryCompactMap, tryScan, tryRemoveDuplicates, replaceEmpty
        case replaceNil, outputIn, dropUntilOutput, prefixUntilOutput, combineLatest3, zip3, merge3, tryCatch
        case print, buffer, collectByTime, measureInterval, multicastAutoconnect, makeConnectable
    }

    /// Writes nothing: `print`'s output is not what this checks.
    struct Discard: TextOutputStream {
        mutating func write(_ string: String) {}
    }

    /// `ignoreOutput`'s `Never` as an `Int`: never called (a `Never` has no values).
    private static func absurd(_ never: Never) -> Int {}

    @Test(arguments: Operator.allCases, LeakCheckEnding.allCases)
    func everyObjectIsFreed(_ op: Operator, _ ending: LeakCheckEnding) {
        let source = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<Int, Never>()
        let scheduler = TestScheduler()
        expectNoLeaks { tracker in
            let token = tracker.token("\(op) closure")
            let pipeline: AnyPublisher<String, any Error> =
                switch op {
                case .count: LeakCheckPipeline.erase(source.map { token($0) }.count())
                case .min: LeakCheckPipeline.erase(source.map { token($0) }.min())
                case .maxBy: LeakCheckPipeline.erase(source.max { token($0 < $1) })
                case .contains: LeakCheckPipeline.erase(source.contains { token($0 > 5) })
                case .allSatisfy: LeakCheckPipeline.erase(source.allSatisfy { token($0 < 5) })
                case .last: LeakCheckPipeline.erase(source.map { token($0) }.last())
                case .lastWhere: LeakCheckPipeline.erase(source.last { token($0 > 0) })
                case .tryFirst: LeakCheckPipeline.erase(source.tryFirst { token($0 > 5) })
                case .tryReduce: LeakCheckPipeline.erase(source.tryReduce(0) { token($0 + $1) })
                case .ignoreOutput: LeakCheckPipeline.erase(source.map { token($0) }.ignoreOutput().map(Self.absurd))
                case .dropWhile: LeakCheckPipeline.erase(source.drop { token($0 < 2) })
                case .prefixWhile: LeakCheckPipeline.erase(source.prefix { token($0 < 5) })
                case .tryFilter: LeakCheckPipeline.erase(source.tryFilter { token($0 > 0) })
                case .tryCompactMap: LeakCheckPipeline.erase(source.tryCompactMap { token(Optional($0)) })
                case .tryScan: LeakCheckPipeline.erase(source.tryScan(0) { token($0 + $1) })
                case .tryRemoveDuplicates: LeakCheckPipeline.erase(source.tryRemoveDuplicates { token($0 == $1) })
                case .replaceEmpty: LeakCheckPipeline.erase(source.map { token($0) }.replaceEmpty(with: 0))
                case .replaceNil: LeakCheckPipeline.erase(source.map { token(Optional($0)) }.replaceNil(with: 0))
                case .outputIn: LeakCheckPipeline.erase(source.map { token($0) }.output(in: 0..<5))
                case .dropUntilOutput: LeakCheckPipeline.erase(source.map { token($0) }.drop(untilOutputFrom: other))
                case .prefixUntilOutput: LeakCheckPipeline.erase(source.map { token($0) }.prefix(untilOutputFrom: other))
                case .combineLatest3: LeakCheckPipeline.erase(source.combineLatest(other, other) { token($0 + $1 + $2) })
                case .zip3: LeakCheckPipeline.erase(source.zip(other, other) { token($0 + $1 + $2) })
                case .merge3: LeakCheckPipeline.erase(source.map { token($0) }.merge(with: other, other))
                case .tryCatch:
                    LeakCheckPipeline.erase(source.setFailureType(to: TestError.self).tryCatch { _ in token(Just(0)) })
                case .print: LeakCheckPipeline.erase(source.map { token($0) }.print("leak", to: Discard()))
                case .buffer: LeakCheckPipeline.erase(source.map { token($0) }.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest))
                case .collectByTime:
                    LeakCheckPipeline.erase(source.map { token($0) }.collect(.byTimeOrCount(scheduler, .seconds(1), 2)))
                case .measureInterval: LeakCheckPipeline.erase(source.map { token($0) }.measureInterval(using: scheduler))
                case .multicastAutoconnect:
                    LeakCheckPipeline.erase(source.map { token($0) }.multicast { PassthroughSubject<Int, Never>() }.autoconnect())
                case .makeConnectable: LeakCheckPipeline.erase(source.map { token($0) }.makeConnectable().autoconnect())
                }
            let recorder = tracker.record(pipeline)
            other.send(1)
            source.send(1)
            source.send(2)
            other.send(2)
            scheduler.advance(by: .seconds(1))
            if ending == .cancel {
                recorder.cancel()
            } else {
                source.send(completion: .finished)
                other.send(completion: .finished)
                scheduler.advance(by: .seconds(1))
            }
        }
        withExtendedLifetime((source, other, scheduler)) {}
    }
}
