import Streams
import StreamsTesting
import Testing

/// Combine's overloads for `Result.Publisher` (`Sources/Streams/Publishers/ResultPublisherOperators.swift`): the
/// types Combine returns, and what the streaming operator publishes over the same result (checked against it,
/// type-erased), for a success and for a failure, but for Combine's `ignoreOutput()`, whose type cannot fail.
@Suite struct ResultPublisherOperatorsTests {
    typealias Numbers = Result<Int, TestError>

    @Test func theOverloadsReturnCombinesTypes() {
        let success = Numbers.success(3).publisher
        let _: Result<Bool, TestError>.Publisher = success.allSatisfy { $0 > 0 }
        let _: Result<Bool, any Error>.Publisher = success.tryAllSatisfy { $0 > 0 }
        let _: Result<[Int], TestError>.Publisher = success.collect()
        let _: Result<Bool, TestError>.Publisher = success.contains(3)
        let _: Result<Bool, TestError>.Publisher = success.contains { $0 > 2 }
        let _: Result<Bool, any Error>.Publisher = success.tryContains { $0 > 2 }
        let _: Result<Int, TestError>.Publisher = success.count()
        let _: Result<Int, TestError>.Publisher = success.first()
        let _: Result<Int, TestError>.Publisher = success.last()
        let _: Empty<Int, TestError> = success.ignoreOutput()
        let _: Result<String, TestError>.Publisher = success.map { String($0) }
        let _: Result<String, any Error>.Publisher = success.tryMap { String($0) }
        let _: Result<Int, ProbeError>.Publisher = success.mapError { _ in ProbeError.boom }
        let _: Result<Int, TestError>.Publisher = success.max()
        let _: Result<Int, TestError>.Publisher = success.min(by: <)
        let _: Result<Int, any Error>.Publisher = success.tryMin(by: <)
        let _: Result<Int, any Error>.Publisher = success.tryMax(by: <)
        let _: Result<Int, TestError>.Publisher = success.reduce(1, +)
        let _: Result<Int, any Error>.Publisher = success.tryReduce(1, +)
        let _: Result<Int, TestError>.Publisher = success.removeDuplicates()
        let _: Result<Int, any Error>.Publisher = success.tryRemoveDuplicates(by: ==)
        let _: Result<Int, TestError>.Publisher = success.replaceEmpty(with: 0)
        let _: Result<Int, Never>.Publisher = success.replaceError(with: 0)
        let _: Result<Int, TestError>.Publisher = success.retry(2)
        let _: Result<Int, TestError>.Publisher = success.scan(1, +)
        let _: Result<Int, any Error>.Publisher = success.tryScan(1, +)
        let _: Result<Int, TestError>.Publisher = Result<Int, Never>.success(1).publisher.setFailureType(
            to: TestError.self)
    }

    @Test(arguments: [Numbers.success(1), .success(3), .failure(.boom)])
    func eachPublishesWhatTheStreamingOperatorPublishes(result: Numbers) {
        let eager = result.publisher
        let streaming = eager.eraseToAnyPublisher()
        #expect(deliveredEvents(eager.allSatisfy { $0 > 2 }) == deliveredEvents(streaming.allSatisfy { $0 > 2 }))
        #expect(deliveredEvents(eager.collect()) == deliveredEvents(streaming.collect()))
        #expect(deliveredEvents(eager.contains(3)) == deliveredEvents(streaming.contains(3)))
        #expect(deliveredEvents(eager.contains { $0 > 2 }) == deliveredEvents(streaming.contains { $0 > 2 }))
        #expect(deliveredEvents(eager.count()) == deliveredEvents(streaming.count()))
        #expect(deliveredEvents(eager.first()) == deliveredEvents(streaming.first()))
        #expect(deliveredEvents(eager.last()) == deliveredEvents(streaming.last()))
        #expect(deliveredEvents(eager.map { $0 * 2 }) == deliveredEvents(streaming.map { $0 * 2 }))
        #expect(
            deliveredEvents(eager.mapError { _ in ProbeError.other })
                == deliveredEvents(streaming.mapError { _ in ProbeError.other }))
        #expect(deliveredEvents(eager.max()) == deliveredEvents(streaming.max()))
        #expect(deliveredEvents(eager.min(by: >)) == deliveredEvents(streaming.min(by: >)))
        #expect(deliveredEvents(eager.reduce(10, -)) == deliveredEvents(streaming.reduce(10, -)))
        #expect(deliveredEvents(eager.scan(10, -)) == deliveredEvents(streaming.scan(10, -)))
        #expect(deliveredEvents(eager.removeDuplicates()) == deliveredEvents(streaming.removeDuplicates()))
        #expect(deliveredEvents(eager.replaceEmpty(with: 9)) == deliveredEvents(streaming.replaceEmpty(with: 9)))
        #expect(deliveredEvents(eager.replaceError(with: 9)) == deliveredEvents(streaming.replaceError(with: 9)))
        #expect(deliveredEvents(eager.retry(1)) == deliveredEvents(streaming.retry(1)))
        let thrower: (Int) throws -> Int = { value in
            if value > 2 { throw ProbeError.other }
            return value
        }
        #expect(deliveredEvents(eager.tryMap(thrower)) == deliveredEvents(streaming.tryMap(thrower)))
        #expect(
            deliveredEvents(eager.tryReduce(0) { try thrower($1) + $0 })
                == deliveredEvents(streaming.tryReduce(0) { try thrower($1) + $0 }))
        #expect(
            deliveredEvents(eager.tryScan(0) { try thrower($1) + $0 })
                == deliveredEvents(streaming.tryScan(0) { try thrower($1) + $0 }))
        #expect(
            deliveredEvents(eager.tryContains { try thrower($0) > 2 })
                == deliveredEvents(streaming.tryContains { try thrower($0) > 2 }))
    }

    @Test func ignoreOutputFinishesEvenForAFailureAsInCombine() {
        // Combine's overload returns an `Empty`, which cannot carry the failure.
        let failed = Numbers.failure(.boom).publisher
        #expect(deliveredEvents(failed.ignoreOutput()) == deliveredEvents(Empty<Int, TestError>()))
        #expect(
            deliveredEvents(failed.eraseToAnyPublisher().ignoreOutput())
                == deliveredEvents(Fail<Int, TestError>(error: .boom)))
    }

    @Test func theThrowingComparisonsCallTheirClosureWithTheValueTwice() {
        var pairs: [[Int]] = []
        let checked = Numbers.success(4).publisher.tryMax { a, b in
            pairs.append([a, b])
            throw ProbeError.boom
        }
        #expect(pairs == [[4, 4]])
        #expect(deliveredEvents(checked) == deliveredEvents(Fail<Int, any Error>(error: ProbeError.boom)))
        var calls = 0
        _ = Numbers.failure(.boom).publisher.tryMin { _, _ in
            calls += 1
            return true
        }
        #expect(calls == 0)
    }
}
