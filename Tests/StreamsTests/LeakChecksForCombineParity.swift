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

    private static func erase<P: Publisher>(_ publisher: P) -> AnyPublisher<String, any Error> where P.Failure == Never {
        publisher.map { "\($0)" }.setFailureType(to: (any Error).self).eraseToAnyPublisher()
    }

    private static func erase<P: Publisher>(_ publisher: P) -> AnyPublisher<String, any Error>
    where P.Failure == any Error {
        publisher.map { "\($0)" }.eraseToAnyPublisher()
    }

    @Test(arguments: Operator.allCases, LeakCheckEnding.allCases)
    func everyObjectIsFreed(_ op: Operator, _ ending: LeakCheckEnding) {
        let source = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<Int, Never>()
        let scheduler = TestScheduler()
        expectNoLeaks { tracker in
            let token = tracker.token("\(op) closure")
            let pipeline: AnyPublisher<String, any Error> =
                switch op {
                case .count: Self.erase(source.map { token($0) }.count())
                case .min: Self.erase(source.map { token($0) }.min())
                case .maxBy: Self.erase(source.max { token($0 < $1) })
                case .contains: Self.erase(source.contains { token($0 > 5) })
                case .allSatisfy: Self.erase(source.allSatisfy { token($0 < 5) })
                case .last: Self.erase(source.map { token($0) }.last())
                case .lastWhere: Self.erase(source.last { token($0 > 0) })
                case .tryFirst: Self.erase(source.tryFirst { token($0 > 5) })
                case .tryReduce: Self.erase(source.tryReduce(0) { token($0 + $1) })
                case .ignoreOutput: Self.erase(source.map { token($0) }.ignoreOutput().map(Self.absurd))
                case .dropWhile: Self.erase(source.drop { token($0 < 2) })
                case .prefixWhile: Self.erase(source.prefix { token($0 < 5) })
                case .tryFilter: Self.erase(source.tryFilter { token($0 > 0) })
                case .tryCompactMap: Self.erase(source.tryCompactMap { token(Optional($0)) })
                case .tryScan: Self.erase(source.tryScan(0) { token($0 + $1) })
                case .tryRemoveDuplicates: Self.erase(source.tryRemoveDuplicates { token($0 == $1) })
                case .replaceEmpty: Self.erase(source.map { token($0) }.replaceEmpty(with: 0))
                case .replaceNil: Self.erase(source.map { token(Optional($0)) }.replaceNil(with: 0))
                case .outputIn: Self.erase(source.map { token($0) }.output(in: 0..<5))
                case .dropUntilOutput: Self.erase(source.map { token($0) }.drop(untilOutputFrom: other))
                case .prefixUntilOutput: Self.erase(source.map { token($0) }.prefix(untilOutputFrom: other))
                case .combineLatest3: Self.erase(source.combineLatest(other, other) { token($0 + $1 + $2) })
                case .zip3: Self.erase(source.zip(other, other) { token($0 + $1 + $2) })
                case .merge3: Self.erase(source.map { token($0) }.merge(with: other, other))
                case .tryCatch:
                    Self.erase(source.setFailureType(to: TestError.self).tryCatch { _ in token(Just(0)) })
                case .print: Self.erase(source.map { token($0) }.print("leak", to: Discard()))
                case .buffer: Self.erase(source.map { token($0) }.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest))
                case .collectByTime:
                    Self.erase(source.map { token($0) }.collect(.byTimeOrCount(scheduler, .seconds(1), 2)))
                case .measureInterval: Self.erase(source.map { token($0) }.measureInterval(using: scheduler))
                case .multicastAutoconnect:
                    Self.erase(source.map { token($0) }.multicast { PassthroughSubject<Int, Never>() }.autoconnect())
                case .makeConnectable: Self.erase(source.map { token($0) }.makeConnectable().autoconnect())
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
