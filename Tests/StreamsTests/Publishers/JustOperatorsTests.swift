import Streams
import StreamsTesting
import Testing

/// Combine's overloads for `Just` (`Sources/Streams/Publishers/JustOperators.swift`): the types Combine returns,
/// closures run once when the operator is applied, and what they publish is what the streaming operator publishes
/// over the same value (checked against it, type-erased), but for Combine's one quirk, `output(in: 0..<0)`.
@Suite struct JustOperatorsTests {
    static func neverFails(_ never: Never) -> TestError {}

    @Test func theOverloadsReturnCombinesTypes() {
        let just = Just(3)
        let _: Just<Bool> = just.allSatisfy { $0 > 0 }
        let _: Result<Bool, any Error>.Publisher = just.tryAllSatisfy { $0 > 0 }
        let _: Just<[Int]> = just.collect()
        let _: Optional<String>.Publisher = just.compactMap { String($0) }
        let _: Just<Bool> = just.contains(3)
        let _: Just<Bool> = just.contains { $0 > 2 }
        let _: Result<Bool, any Error>.Publisher = just.tryContains { $0 > 2 }
        let _: Just<Int> = just.count()
        let _: Optional<Int>.Publisher = just.dropFirst()
        let _: Optional<Int>.Publisher = just.drop { $0 > 2 }
        let _: Optional<Int>.Publisher = just.filter { $0 > 2 }
        let _: Just<Int> = just.first()
        let _: Optional<Int>.Publisher = just.first { $0 > 2 }
        let _: Empty<Int, Never> = just.ignoreOutput()
        let _: Just<Int> = just.last()
        let _: Optional<Int>.Publisher = just.last { $0 > 2 }
        let _: Just<String> = just.map { String($0) }
        let _: Result<String, any Error>.Publisher = just.tryMap { String($0) }
        let _: Result<Int, TestError>.Publisher = just.mapError(Self.neverFails)
        let _: Just<Int> = just.max()
        let _: Just<Int> = just.min(by: <)
        let _: Optional<Int>.Publisher = just.output(at: 0)
        let _: Optional<Int>.Publisher = just.output(in: 0...3)
        let _: Optional<Int>.Publisher = just.prefix(1)
        let _: Optional<Int>.Publisher = just.prefix { $0 > 2 }
        let _: Publishers.Sequence<[Int], Never> = just.prepend(1, 2)
        let _: Publishers.Sequence<[Int], Never> = just.append([4])
        let _: Result<Int, Never>.Publisher = just.reduce(1, +)
        let _: Result<Int, any Error>.Publisher = just.tryReduce(1, +)
        let _: Just<Int> = just.removeDuplicates()
        let _: Result<Int, any Error>.Publisher = just.tryRemoveDuplicates(by: ==)
        let _: Just<Int> = just.replaceEmpty(with: 0)
        let _: Just<Int> = just.replaceError(with: 0)
        let _: Just<Int> = just.retry(2)
        let _: Result<Int, Never>.Publisher = just.scan(1, +)
        let _: Result<Int, any Error>.Publisher = just.tryScan(1, +)
        let _: Result<Int, TestError>.Publisher = just.setFailureType(to: TestError.self)
    }

    @Test(arguments: [1, 3])
    func eachPublishesWhatTheStreamingOperatorPublishes(value: Int) {
        let just = Just(value)
        let streaming = just.eraseToAnyPublisher()
        #expect(deliveredEvents(just.allSatisfy { $0 > 2 }) == deliveredEvents(streaming.allSatisfy { $0 > 2 }))
        #expect(deliveredEvents(just.collect()) == deliveredEvents(streaming.collect()))
        #expect(
            deliveredEvents(just.compactMap { $0 > 2 ? $0 : nil })
                == deliveredEvents(streaming.compactMap { $0 > 2 ? $0 : nil }))
        #expect(deliveredEvents(just.contains(3)) == deliveredEvents(streaming.contains(3)))
        #expect(deliveredEvents(just.contains { $0 > 2 }) == deliveredEvents(streaming.contains { $0 > 2 }))
        #expect(deliveredEvents(just.count()) == deliveredEvents(streaming.count()))
        #expect(deliveredEvents(just.dropFirst(0)) == deliveredEvents(streaming.dropFirst(0)))
        #expect(deliveredEvents(just.dropFirst()) == deliveredEvents(streaming.dropFirst()))
        #expect(deliveredEvents(just.drop { $0 > 2 }) == deliveredEvents(streaming.drop { $0 > 2 }))
        #expect(deliveredEvents(just.filter { $0 > 2 }) == deliveredEvents(streaming.filter { $0 > 2 }))
        #expect(deliveredEvents(just.first { $0 > 2 }) == deliveredEvents(streaming.first { $0 > 2 }))
        #expect(deliveredEvents(just.last { $0 > 2 }) == deliveredEvents(streaming.last { $0 > 2 }))
        #expect(deliveredEvents(just.ignoreOutput()) == deliveredEvents(streaming.ignoreOutput()))
        #expect(deliveredEvents(just.map { $0 * 2 }) == deliveredEvents(streaming.map { $0 * 2 }))
        #expect(deliveredEvents(just.min()) == deliveredEvents(streaming.min()))
        #expect(deliveredEvents(just.max(by: >)) == deliveredEvents(streaming.max(by: >)))
        #expect(deliveredEvents(just.output(at: 0)) == deliveredEvents(streaming.output(at: 0)))
        #expect(deliveredEvents(just.output(at: 1)) == deliveredEvents(streaming.output(at: 1)))
        #expect(deliveredEvents(just.output(in: 0...2)) == deliveredEvents(streaming.output(in: 0...2)))
        #expect(deliveredEvents(just.output(in: 1...2)) == deliveredEvents(streaming.output(in: 1...2)))
        #expect(deliveredEvents(just.prefix(0)) == deliveredEvents(streaming.prefix(0)))
        #expect(deliveredEvents(just.prefix(2)) == deliveredEvents(streaming.prefix(2)))
        #expect(deliveredEvents(just.prefix { $0 > 2 }) == deliveredEvents(streaming.prefix { $0 > 2 }))
        #expect(deliveredEvents(just.prepend(7, 8)) == deliveredEvents(streaming.prepend(7, 8)))
        #expect(deliveredEvents(just.append([7, 8])) == deliveredEvents(streaming.append([7, 8])))
        #expect(deliveredEvents(just.reduce(10, -)) == deliveredEvents(streaming.reduce(10, -)))
        #expect(deliveredEvents(just.scan(10, -)) == deliveredEvents(streaming.scan(10, -)))
        #expect(deliveredEvents(just.removeDuplicates()) == deliveredEvents(streaming.removeDuplicates()))
        #expect(
            deliveredEvents(just.setFailureType(to: TestError.self))
                == deliveredEvents(streaming.setFailureType(to: TestError.self)))
        let thrower: (Int) throws -> Int = { value in
            if value > 2 { throw TestError.boom }
            return value
        }
        #expect(deliveredEvents(just.tryMap(thrower)) == deliveredEvents(streaming.tryMap(thrower)))
        #expect(
            deliveredEvents(just.tryReduce(0) { try thrower($1) + $0 })
                == deliveredEvents(streaming.tryReduce(0) { try thrower($1) + $0 }))
        #expect(
            deliveredEvents(just.tryScan(0) { try thrower($1) + $0 })
                == deliveredEvents(streaming.tryScan(0) { try thrower($1) + $0 }))
        #expect(
            deliveredEvents(just.tryAllSatisfy { try thrower($0) > 0 })
                == deliveredEvents(streaming.tryAllSatisfy { try thrower($0) > 0 }))
    }

    @Test func closuresRunOnceWhenTheOperatorIsApplied() {
        var calls = 0
        let mapped = Just(2).map { value -> Int in
            calls += 1
            return value * 2
        }
        #expect(calls == 1)
        #expect(mapped.output == 4)
        _ = mapped.sink { _ in }
        #expect(calls == 1)
    }

    @Test func combinesQuirksAreKept() {
        // As in Combine (OpenCombine's tests pin it): a range that starts at 0 passes the value, even empty.
        #expect(deliveredEvents(Just(1).output(in: 0..<0)) == deliveredEvents(Just(1)))
        // The throwing duplicate check compares the one value with itself, so its error surfaces.
        var pairs: [[Int]] = []
        let checked = Just(5).tryRemoveDuplicates { a, b in
            pairs.append([a, b])
            throw TestError.boom
        }
        #expect(pairs == [[5, 5]])
        #expect(deliveredEvents(checked) == deliveredEvents(Fail<Int, any Error>(error: TestError.boom)))
    }

    @Test func theResultStillWaitsForDemand() {
        let recorder = Just(1).map { $0 + 1 }.record(demand: .none)
        #expect(recorder.events.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.events == [.value(2, at: .zero), .finished(at: .zero)])
    }
}
