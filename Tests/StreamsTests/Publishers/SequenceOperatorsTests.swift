import Streams
import StreamsTesting
import Testing

/// What a publisher delivers to a subscriber that asks for everything, as text (so that publishers of different
/// types compare).
func deliveredEvents<P: Publisher>(_ publisher: P) -> [String] {
    publisher.record().events.map { "\($0)" }
}

/// Combine's eager overloads for `Publishers.Sequence` (`Sources/Streams/Publishers/SequenceOperators.swift`): the
/// types Combine returns, the closures run when the operator is applied, and what they publish is what the
/// streaming operator publishes over the same elements (checked against it, the sequence type-erased).
@Suite struct SequenceOperatorsTests {
    static let inputs: [[Int]] = [[], [4], [3, 1, 2, 2, 5, 1]]

    @Test func theOverloadsReturnCombinesTypes() {
        let numbers = [3, 1, 2].publisher
        let _: Result<Bool, Never>.Publisher = numbers.allSatisfy { $0 > 0 }
        let _: Result<Bool, any Error>.Publisher = numbers.tryAllSatisfy { $0 > 0 }
        let _: Result<[Int], Never>.Publisher = numbers.collect()
        let _: Publishers.Sequence<[String], Never> = numbers.compactMap { String($0) }
        let _: Result<Bool, Never>.Publisher = numbers.contains(2)
        let _: Result<Bool, Never>.Publisher = numbers.contains { $0 > 2 }
        let _: Result<Bool, any Error>.Publisher = numbers.tryContains { $0 > 2 }
        let _: Just<Int> = numbers.count()
        let _: Result<Int, TestError>.Publisher = numbers.setFailureType(to: TestError.self).count()
        let _: Publishers.Sequence<DropWhileSequence<[Int]>, Never> = numbers.drop { $0 > 2 }
        let _: Publishers.Sequence<DropFirstSequence<[Int]>, Never> = numbers.dropFirst()
        let _: Publishers.Sequence<[Int], Never> = numbers.filter { $0 > 1 }
        let _: Optional<Int>.Publisher = numbers.first()
        let _: Optional<Int>.Publisher = numbers.first { $0 > 1 }
        let _: Empty<Int, Never> = numbers.ignoreOutput()
        let _: Optional<Int>.Publisher = numbers.last()
        let _: Optional<Int>.Publisher = numbers.last { $0 > 1 }
        let _: Publishers.Sequence<[Int], Never> = numbers.map { $0 * 2 }
        let _: Optional<Int>.Publisher = numbers.max()
        let _: Optional<Int>.Publisher = numbers.min(by: >)
        let _: Optional<Int>.Publisher = numbers.output(at: 1)
        let _: Publishers.Sequence<[Int], Never> = numbers.output(in: 0..<2)
        let _: Publishers.Sequence<PrefixSequence<[Int]>, Never> = numbers.prefix(2)
        let _: Publishers.Sequence<[Int], Never> = numbers.prefix { $0 > 2 }
        let _: Publishers.Sequence<[Int], Never> = numbers.prepend(0).append(4, 5)
        let _: Publishers.Sequence<[Int], Never> = numbers.append([9]).prepend(numbers)
        let _: Result<Int, Never>.Publisher = numbers.reduce(0, +)
        let _: Result<Int, any Error>.Publisher = numbers.tryReduce(0, +)
        let _: Publishers.Sequence<[Int], Never> = numbers.removeDuplicates()
        let _: Publishers.Sequence<[Int?], Never> = [1, nil].publisher.replaceNil(with: 0)
        let _: Publishers.Sequence<[Int], Never> = numbers.scan(0, +)
        let _: Publishers.Sequence<[Int], TestError> = numbers.setFailureType(to: TestError.self)
    }

    @Test(arguments: inputs)
    func eachPublishesWhatTheStreamingOperatorPublishes(elements: [Int]) {
        let eager = elements.publisher
        let streaming = elements.publisher.eraseToAnyPublisher()
        #expect(deliveredEvents(eager.allSatisfy { $0 > 1 }) == deliveredEvents(streaming.allSatisfy { $0 > 1 }))
        #expect(deliveredEvents(eager.collect()) == deliveredEvents(streaming.collect()))
        #expect(
            deliveredEvents(eager.compactMap { $0 > 1 ? $0 * 3 : nil })
                == deliveredEvents(streaming.compactMap { $0 > 1 ? $0 * 3 : nil }))
        #expect(deliveredEvents(eager.contains(2)) == deliveredEvents(streaming.contains(2)))
        #expect(deliveredEvents(eager.contains { $0 > 4 }) == deliveredEvents(streaming.contains { $0 > 4 }))
        #expect(deliveredEvents(eager.count()) == deliveredEvents(streaming.count()))
        #expect(deliveredEvents(eager.drop { $0 > 2 }) == deliveredEvents(streaming.drop { $0 > 2 }))
        #expect(deliveredEvents(eager.dropFirst(2)) == deliveredEvents(streaming.dropFirst(2)))
        #expect(deliveredEvents(eager.filter { $0 > 1 }) == deliveredEvents(streaming.filter { $0 > 1 }))
        #expect(deliveredEvents(eager.first()) == deliveredEvents(streaming.first()))
        #expect(deliveredEvents(eager.first { $0 < 3 }) == deliveredEvents(streaming.first { $0 < 3 }))
        #expect(deliveredEvents(eager.ignoreOutput()) == deliveredEvents(streaming.ignoreOutput()))
        #expect(deliveredEvents(eager.last()) == deliveredEvents(streaming.last()))
        #expect(deliveredEvents(eager.last { $0 < 3 }) == deliveredEvents(streaming.last { $0 < 3 }))
        #expect(deliveredEvents(eager.map { $0 * 2 }) == deliveredEvents(streaming.map { $0 * 2 }))
        #expect(deliveredEvents(eager.max()) == deliveredEvents(streaming.max()))
        #expect(deliveredEvents(eager.min()) == deliveredEvents(streaming.min()))
        #expect(deliveredEvents(eager.max(by: >)) == deliveredEvents(streaming.max(by: >)))
        #expect(deliveredEvents(eager.min(by: >)) == deliveredEvents(streaming.min(by: >)))
        #expect(deliveredEvents(eager.output(at: 2)) == deliveredEvents(streaming.output(at: 2)))
        #expect(deliveredEvents(eager.output(in: 1..<4)) == deliveredEvents(streaming.output(in: 1..<4)))
        #expect(deliveredEvents(eager.output(in: 2..<40)) == deliveredEvents(streaming.output(in: 2..<40)))
        #expect(deliveredEvents(eager.prefix(2)) == deliveredEvents(streaming.prefix(2)))
        #expect(deliveredEvents(eager.prefix { $0 > 2 }) == deliveredEvents(streaming.prefix { $0 > 2 }))
        #expect(deliveredEvents(eager.prepend(7, 8)) == deliveredEvents(streaming.prepend(7, 8)))
        #expect(deliveredEvents(eager.append(7, 8)) == deliveredEvents(streaming.append(7, 8)))
        #expect(deliveredEvents(eager.append(eager)) == deliveredEvents(streaming.append(streaming)))
        #expect(deliveredEvents(eager.prepend(eager)) == deliveredEvents(streaming.prepend(streaming)))
        #expect(deliveredEvents(eager.reduce(10, -)) == deliveredEvents(streaming.reduce(10, -)))
        #expect(deliveredEvents(eager.removeDuplicates()) == deliveredEvents(streaming.removeDuplicates()))
        #expect(deliveredEvents(eager.scan(10, -)) == deliveredEvents(streaming.scan(10, -)))
        #expect(
            deliveredEvents(eager.setFailureType(to: TestError.self))
                == deliveredEvents(streaming.setFailureType(to: TestError.self)))
    }

    @Test(arguments: inputs)
    func theThrowingFormsFailAsTheStreamingOperatorDoes(elements: [Int]) {
        let eager = elements.publisher
        let streaming = elements.publisher.eraseToAnyPublisher()
        func check(_ value: Int) throws -> Bool {
            if value == 2 { throw TestError.boom }
            return value > 0
        }
        #expect(deliveredEvents(eager.tryAllSatisfy(check)) == deliveredEvents(streaming.tryAllSatisfy(check)))
        #expect(
            deliveredEvents(eager.tryContains { try check($0) && $0 > 4 })
                == deliveredEvents(streaming.tryContains { try check($0) && $0 > 4 }))
        let sum: (Int, Int) throws -> Int = { total, value in try check(value) ? total + value : total }
        #expect(deliveredEvents(eager.tryReduce(0, sum)) == deliveredEvents(streaming.tryReduce(0, sum)))
    }

    @Test func replaceNilKeepsTheOptionalTypeAsInCombine() {
        let replaced = [1, nil, 3].publisher.replaceNil(with: 0)
        #expect(replaced.sequence == [1, 0, 3])
    }

    @Test func closuresRunWhenTheOperatorIsAppliedNotWhenSubscribed() {
        var calls = 0
        let mapped = [1, 2, 3].publisher.map { value -> Int in
            calls += 1
            return value * 2
        }
        #expect(calls == 3)
        #expect(mapped.sequence == [2, 4, 6])
        _ = mapped.sink { _ in }
        _ = mapped.sink { _ in }
        #expect(calls == 3)
    }

    @Test func theResultStillWaitsForDemand() {
        let recorder = [1, 2, 3].publisher.map { $0 * 10 }.record(demand: .max(2))
        #expect(recorder.events == [.value(10, at: .zero), .value(20, at: .zero)])
        let collected = [1, 2, 3].publisher.collect().record(demand: .none)
        #expect(collected.events.isEmpty)
    }

    @Test func prefixAndDropFirstStayLazySoAnEndlessSequenceWorks() {
        let recorder = (1...).publisher.dropFirst(2).prefix(3).record()
        #expect(
            recorder.events == [.value(3, at: .zero), .value(4, at: .zero), .value(5, at: .zero), .finished(at: .zero)])
    }

    @Test func positionsPastTheEndAreIgnoredNotATrap() {
        #expect([1, 2].publisher.output(in: 1..<9).sequence == [2])
        #expect([1, 2].publisher.output(in: 5..<9).sequence == [])
        #expect(deliveredEvents([1, 2].publisher.output(at: 5)) == deliveredEvents(Empty<Int, Never>()))
    }
}
