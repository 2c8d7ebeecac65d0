import Streams
import StreamsTesting
import Testing

/// The reducing, filtering, mapping and failure-adapting operators not covered by the other leak checks (the
/// `Equatable`/`Comparable` forms, the `try` variants, the key-path maps, the fused `map`/`filter`
/// overloads): each subscribed, fed, then cancelled or completed with its source kept alive outside the checked
/// body; the subscriber, the subscription it received and the closures' tokens must all be freed.
@Suite struct LeakChecksForReducingAndFiltering {
    enum Operator: String, CaseIterable, Sendable {
        case max, minBy, tryMinBy, tryMaxBy, containsValue, tryContains, tryAllSatisfy, first, tryLastWhere
        case tryDropWhile, tryPrefixWhile, collectAll, removeDuplicates, outputAt, mapKeyPath, mapKeyPath2
        case mapKeyPath3, mapThenMap, filterThenFilter, compactMapThenCompactMap, tryFilterThenFilter
        case tryCompactMapThenCompactMap, assertNoFailure, breakpointOnError, failures, setFailureTypeTwice
        case tryMapThrowing, mapErrorAfterFailure, scanThenTryScan, reduceIntoArray
    }

    struct Triple: Sendable {
        let a: Int
        let b: Int
        let c: Int
        init(_ value: Int) { (a, b, c) = (value, value * 2, value * 3) }
    }

    @Test(arguments: Operator.allCases, LeakCheckEnding.allCases)
    func everyObjectIsFreed(_ op: Operator, _ ending: LeakCheckEnding) {
        let source = PassthroughSubject<Int, Never>()
        let failing = PassthroughSubject<Int, TestError>()
        expectNoLeaks { tracker in
            let token = tracker.token("\(op) closure")
            let pipeline: AnyPublisher<String, any Error> =
                switch op {
                case .max: LeakCheckPipeline.erase(source.map { token($0) }.max())
                case .minBy: LeakCheckPipeline.erase(source.min { token($0 < $1) })
                case .tryMinBy: LeakCheckPipeline.erase(source.tryMin { token($0 < $1) })
                case .tryMaxBy: LeakCheckPipeline.erase(source.tryMax { token($0 < $1) })
                case .containsValue: LeakCheckPipeline.erase(source.map { token($0) }.contains(7))
                case .tryContains: LeakCheckPipeline.erase(source.tryContains { token($0 > 5) })
                case .tryAllSatisfy: LeakCheckPipeline.erase(source.tryAllSatisfy { token($0 < 5) })
                case .first: LeakCheckPipeline.erase(source.map { token($0) }.first())
                case .tryLastWhere: LeakCheckPipeline.erase(source.tryLast { token($0 > 0) })
                case .tryDropWhile: LeakCheckPipeline.erase(source.tryDrop { token($0 < 2) })
                case .tryPrefixWhile: LeakCheckPipeline.erase(source.tryPrefix { token($0 < 5) })
                case .collectAll: LeakCheckPipeline.erase(source.map { token($0) }.collect())
                case .removeDuplicates: LeakCheckPipeline.erase(source.map { token($0) }.removeDuplicates())
                case .outputAt: LeakCheckPipeline.erase(source.map { token($0) }.output(at: 1))
                case .mapKeyPath: LeakCheckPipeline.erase(source.map { token(Triple($0)) }.map(\.a))
                case .mapKeyPath2: LeakCheckPipeline.erase(source.map { token(Triple($0)) }.map(\.a, \.b).map { $0 + $1 })
                case .mapKeyPath3:
                    LeakCheckPipeline.erase(source.map { token(Triple($0)) }.map(\.a, \.b, \.c).map { $0 + $1 + $2 })
                case .mapThenMap: LeakCheckPipeline.erase(source.map { token($0) }.map { $0 + 1 })
                case .filterThenFilter: LeakCheckPipeline.erase(source.filter { token($0 > 0) }.filter { $0 < 10 })
                case .compactMapThenCompactMap:
                    LeakCheckPipeline.erase(source.compactMap { token(Optional($0)) }.compactMap { Optional($0) })
                case .tryFilterThenFilter: LeakCheckPipeline.erase(source.tryFilter { token($0 > 0) }.filter { $0 < 10 })
                case .tryCompactMapThenCompactMap:
                    LeakCheckPipeline.erase(source.tryCompactMap { token(Optional($0)) }.compactMap { Optional($0) })
                case .assertNoFailure: LeakCheckPipeline.erase(failing.map { token($0) }.assertNoFailure())
                case .breakpointOnError: LeakCheckPipeline.erase(failing.map { token($0) }.breakpointOnError())
                case .failures: LeakCheckPipeline.erase(failing.map { token($0) }.materialize().failures().map { "\($0)" })
                case .setFailureTypeTwice:
                    LeakCheckPipeline.erase(source.map { token($0) }.setFailureType(to: TestError.self).setFailureType(to: TestError.self))
                case .tryMapThrowing:
                    LeakCheckPipeline.erase(source.tryMap { value -> Int in if value > 5 { throw TestError.boom }; return token(value) })
                case .mapErrorAfterFailure: LeakCheckPipeline.erase(failing.mapError { token($0) })
                case .scanThenTryScan: LeakCheckPipeline.erase(source.scan(0) { token($0 + $1) }.tryScan(0) { $0 + $1 })
                case .reduceIntoArray: LeakCheckPipeline.erase(source.reduce([Int]()) { token($0 + [$1]) })
                }
            let recorder = tracker.record(pipeline)
            source.send(1)
            failing.send(1)
            source.send(2)
            failing.send(2)
            if ending == .cancel {
                recorder.cancel()
            } else {
                source.send(completion: .finished)
                failing.send(completion: .finished)
                #expect(recorder.completion != nil, "\(op) should have completed")
            }
        }
        withExtendedLifetime((source, failing)) {}
    }

    /// The `try` operators end by throwing: what they hold must go with the failure, and the upstream is cancelled.
    enum Thrower: String, CaseIterable, Sendable {
        case tryMap, tryFilter, tryCompactMap, tryScan, tryReduce, tryMin, tryContains, tryAllSatisfy, tryFirst
        case tryLast, tryDrop, tryPrefix, tryRemoveDuplicates
    }

    @Test(arguments: Thrower.allCases) func aThrowingClosureFreesEverything(_ op: Thrower) {
        let source = PassthroughSubject<Int, Never>()
        expectNoLeaks { tracker in
            let token = tracker.token("\(op) closure")
            @Sendable func check(_ value: Int) throws -> Bool {
                if value == 3 { throw TestError.boom }
                return token(true)
            }
            let pipeline: AnyPublisher<String, any Error> =
                switch op {
                case .tryMap: LeakCheckPipeline.erase(source.tryMap { _ = try check($0); return $0 })
                case .tryFilter: LeakCheckPipeline.erase(source.tryFilter { try check($0) })
                case .tryCompactMap: LeakCheckPipeline.erase(source.tryCompactMap { try check($0) ? $0 : nil })
                case .tryScan: LeakCheckPipeline.erase(source.tryScan(0) { _ = try check($1); return $0 + $1 })
                case .tryReduce: LeakCheckPipeline.erase(source.tryReduce(0) { _ = try check($1); return $0 + $1 })
                case .tryMin: LeakCheckPipeline.erase(source.tryMin { _ = try check($0) && check($1); return $0 < $1 })
                case .tryContains: LeakCheckPipeline.erase(source.tryContains { try !check($0) })
                case .tryAllSatisfy: LeakCheckPipeline.erase(source.tryAllSatisfy { try check($0) })
                case .tryFirst: LeakCheckPipeline.erase(source.tryFirst { try !check($0) })
                case .tryLast: LeakCheckPipeline.erase(source.tryLast { try check($0) })
                case .tryDrop: LeakCheckPipeline.erase(source.tryDrop { try check($0) })
                case .tryPrefix: LeakCheckPipeline.erase(source.tryPrefix { try check($0) })
                case .tryRemoveDuplicates: LeakCheckPipeline.erase(source.tryRemoveDuplicates { _ = try check($1); return $0 == $1 })
                }
            let recorder = tracker.record(pipeline)
            source.send(1)
            source.send(2)
            source.send(3)
            #expect(recorder.failure as? TestError == .boom, "\(op) should have failed")
        }
        withExtendedLifetime(source) {}
    }
}
