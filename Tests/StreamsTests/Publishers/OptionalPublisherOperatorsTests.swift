import Streams
import StreamsTesting
import Testing

/// Combine's overloads for `Optional.Publisher` (`Sources/Streams/Publishers/OptionalPublisherOperators.swift`):
/// the types Combine returns, and for a value what the streaming operator publishes (checked against it,
/// type-erased). For `nil`, Combine's summaries publish nothing (OpenCombine's tests pin it), where the streaming
/// operators publish `false`, `true`, `0` or the initial result.
@Suite struct OptionalPublisherOperatorsTests {
    @Test func theOverloadsReturnCombinesTypes() {
        let some = Optional(3).publisher
        let _: Optional<Bool>.Publisher = some.allSatisfy { $0 > 0 }
        let _: Optional<[Int]>.Publisher = some.collect()
        let _: Optional<String>.Publisher = some.compactMap { String($0) }
        let _: Optional<Bool>.Publisher = some.contains(3)
        let _: Optional<Bool>.Publisher = some.contains { $0 > 2 }
        let _: Optional<Int>.Publisher = some.count()
        let _: Optional<Int>.Publisher = some.dropFirst()
        let _: Optional<Int>.Publisher = some.drop { $0 > 2 }
        let _: Optional<Int>.Publisher = some.filter { $0 > 2 }
        let _: Optional<Int>.Publisher = some.first()
        let _: Optional<Int>.Publisher = some.first { $0 > 2 }
        let _: Empty<Int, Never> = some.ignoreOutput()
        let _: Optional<Int>.Publisher = some.last()
        let _: Optional<Int>.Publisher = some.last { $0 > 2 }
        let _: Optional<String>.Publisher = some.map { String($0) }
        let _: Optional<Int>.Publisher = some.max()
        let _: Optional<Int>.Publisher = some.min(by: <)
        let _: Optional<Int>.Publisher = some.output(at: 0)
        let _: Optional<Int>.Publisher = some.output(in: 0...3)
        let _: Optional<Int>.Publisher = some.prefix(1)
        let _: Optional<Int>.Publisher = some.prefix { $0 > 2 }
        let _: Optional<Int>.Publisher = some.reduce(1, +)
        let _: Optional<Int>.Publisher = some.removeDuplicates()
        let _: Optional<Int>.Publisher = some.removeDuplicates(by: ==)
        let _: Just<Int> = some.replaceEmpty(with: 0)
        let _: Optional<Int>.Publisher = some.replaceError(with: 0)
        let _: Optional<Int>.Publisher = some.retry(2)
        let _: Optional<Int>.Publisher = some.scan(1, +)
    }

    @Test(arguments: [1, 3])
    func aValuePublishesWhatTheStreamingOperatorPublishes(value: Int) {
        let some = Optional(value).publisher
        let streaming = some.eraseToAnyPublisher()
        #expect(deliveredEvents(some.allSatisfy { $0 > 2 }) == deliveredEvents(streaming.allSatisfy { $0 > 2 }))
        #expect(deliveredEvents(some.collect()) == deliveredEvents(streaming.collect()))
        #expect(
            deliveredEvents(some.compactMap { $0 > 2 ? $0 : nil })
                == deliveredEvents(streaming.compactMap { $0 > 2 ? $0 : nil }))
        #expect(deliveredEvents(some.contains(3)) == deliveredEvents(streaming.contains(3)))
        #expect(deliveredEvents(some.count()) == deliveredEvents(streaming.count()))
        #expect(deliveredEvents(some.dropFirst()) == deliveredEvents(streaming.dropFirst()))
        #expect(deliveredEvents(some.drop { $0 > 2 }) == deliveredEvents(streaming.drop { $0 > 2 }))
        #expect(deliveredEvents(some.filter { $0 > 2 }) == deliveredEvents(streaming.filter { $0 > 2 }))
        #expect(deliveredEvents(some.last { $0 > 2 }) == deliveredEvents(streaming.last { $0 > 2 }))
        #expect(deliveredEvents(some.map { $0 * 2 }) == deliveredEvents(streaming.map { $0 * 2 }))
        #expect(deliveredEvents(some.output(at: 1)) == deliveredEvents(streaming.output(at: 1)))
        #expect(deliveredEvents(some.output(in: 0..<0)) == deliveredEvents(streaming.output(in: 0..<0)))
        #expect(deliveredEvents(some.output(in: 0...2)) == deliveredEvents(streaming.output(in: 0...2)))
        #expect(deliveredEvents(some.prefix(0)) == deliveredEvents(streaming.prefix(0)))
        #expect(deliveredEvents(some.reduce(10, -)) == deliveredEvents(streaming.reduce(10, -)))
        #expect(deliveredEvents(some.scan(10, -)) == deliveredEvents(streaming.scan(10, -)))
        #expect(deliveredEvents(some.replaceEmpty(with: 9)) == deliveredEvents(streaming.replaceEmpty(with: 9)))
    }

    @Test func nilPublishesNothingButItsSummariesAreCombinesNotTheStreamingOnes() {
        let none = Optional<Int>.none.publisher
        let finishedOnly = deliveredEvents(Empty<Int, Never>())
        #expect(deliveredEvents(none.map { $0 * 2 }) == finishedOnly)
        #expect(deliveredEvents(none.filter { _ in true }) == finishedOnly)
        #expect(deliveredEvents(none.first()) == finishedOnly)
        // Combine's overloads publish no summary of no value...
        #expect(deliveredEvents(none.contains(1)) == finishedOnly)
        #expect(deliveredEvents(none.allSatisfy { _ in false }) == finishedOnly)
        #expect(deliveredEvents(none.count()) == finishedOnly)
        #expect(deliveredEvents(none.reduce(7, +)) == finishedOnly)
        // ...where `collect` and `replaceEmpty` publish one.
        #expect(deliveredEvents(none.collect()) == deliveredEvents(Just([Int]())))
        #expect(deliveredEvents(none.replaceEmpty(with: 9)) == deliveredEvents(Just(9)))
        // The streaming operators, after type erasure, do publish a summary.
        #expect(deliveredEvents(none.eraseToAnyPublisher().count()) == deliveredEvents(Just(0)))
    }
}
