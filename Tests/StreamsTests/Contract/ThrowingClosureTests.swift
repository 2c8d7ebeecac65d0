import StreamsTesting
import Testing

@testable import Streams

/// The contract every operator with a throwing closure keeps (the `try` forms: `tryMap`, `tryFilter`, `tryScan`,
/// `tryReduce`, `tryFirst(where:)`, …), checked on each: the closure's error fails the stream at once (a reducing
/// operator needs no demand for it), after cancelling upstream; the closure is not called again, nothing follows, and
/// the closure is released; an upstream failure arrives as `any Error` unchanged; and after a cancel nothing arrives
/// and the closure is released. What each operator computes is in its own test file.
@Suite struct ThrowingClosureTests {
    typealias Event = HandWrittenSubscriber<Int, any Error>.Event

    /// A throwing operator over a probe. `check` is what its closure calls with each value it is given: it throws
    /// `ProbeError.boom` for 2 (and keeps whatever it captures alive while the closure lives).
    struct ThrowingOperator: CustomTestStringConvertible, Sendable {
        let testDescription: String
        /// Publishes only at the end (a reducing operator): it asks `.unlimited` whatever the downstream asked.
        let reduces: Bool
        /// Publishes the 1 sent before the 2 that throws.
        let publishesTheOne: Bool
        let build:
            @Sendable (SimpleProbe<Int, ProbeError>, @escaping (Int) throws -> Void) -> AnyPublisher<Int, any Error>

        /// What a subscriber sees when 1 is sent and then `ending` happens: the 1 if the operator publishes as it
        /// goes, then `ending`'s event, if any.
        func events(afterOneThen ending: Event?) -> [Event] {
            [.subscription] + (publishesTheOne ? [.value(1)] : []) + (ending.map { [$0] } ?? [])
        }

        static func valueStage(
            _ name: String, publishesTheOne: Bool = true,
            _ build:
                @escaping @Sendable (SimpleProbe<Int, ProbeError>, @escaping (Int) throws -> Void)
                -> AnyPublisher<Int, any Error>
        ) -> Self { Self(testDescription: name, reduces: false, publishesTheOne: publishesTheOne, build: build) }

        static func reducing(
            _ name: String,
            _ build:
                @escaping @Sendable (SimpleProbe<Int, ProbeError>, @escaping (Int) throws -> Void)
                -> AnyPublisher<Int, any Error>
        ) -> Self { Self(testDescription: name, reduces: true, publishesTheOne: false, build: build) }
    }

    static let operators: [ThrowingOperator] = [
        .valueStage("tryMap") { probe, check in
            probe.tryMap { value in
                try check(value)
                return value
            }.eraseToAnyPublisher()
        },
        .valueStage("tryFilter") { probe, check in
            probe.tryFilter { value in
                try check(value)
                return true
            }.eraseToAnyPublisher()
        },
        .valueStage("tryCompactMap") { probe, check in
            probe.tryCompactMap { value in
                try check(value)
                return value
            }.eraseToAnyPublisher()
        },
        .valueStage("tryScan") { probe, check in
            probe.tryScan(0) { _, value in
                try check(value)
                return value
            }.eraseToAnyPublisher()
        },
        .valueStage("tryRemoveDuplicates") { probe, check in
            probe.tryRemoveDuplicates { _, value in
                try check(value)
                return false
            }.eraseToAnyPublisher()
        },
        .valueStage("tryDrop(while:)", publishesTheOne: false) { probe, check in
            probe.tryDrop { value in
                try check(value)
                return true  // still dropping: asked again for the 2
            }.eraseToAnyPublisher()
        },
        .valueStage("tryPrefix(while:)") { probe, check in
            probe.tryPrefix { value in
                try check(value)
                return true
            }.eraseToAnyPublisher()
        },
        .reducing("tryReduce") { probe, check in
            probe.tryReduce(0) { sum, value in
                try check(value)
                return sum + value
            }.eraseToAnyPublisher()
        },
        .reducing("tryContains(where:)") { probe, check in
            probe.tryContains { value in
                try check(value)
                return false
            }.map { $0 ? 1 : 0 }.eraseToAnyPublisher()
        },
        .reducing("tryAllSatisfy") { probe, check in
            probe.tryAllSatisfy { value in
                try check(value)
                return true
            }.map { $0 ? 1 : 0 }.eraseToAnyPublisher()
        },
        .reducing("tryMin(by:)") { probe, check in
            probe.tryMin { first, second in  // the order the two are passed in is the operator's
                try check(first)
                try check(second)
                return first < second
            }.eraseToAnyPublisher()
        },
        .reducing("tryMax(by:)") { probe, check in
            probe.tryMax { first, second in  // the order the two are passed in is the operator's
                try check(first)
                try check(second)
                return first < second
            }.eraseToAnyPublisher()
        },
        .reducing("tryFirst(where:)") { probe, check in
            probe.tryFirst { value in
                try check(value)
                return false
            }.eraseToAnyPublisher()
        },
        .reducing("tryLast(where:)") { probe, check in
            probe.tryLast { value in
                try check(value)
                return true
            }.eraseToAnyPublisher()
        },
    ]

    /// Records the values a closure was given; throws for 2.
    final class Checker: @unchecked Sendable {
        var seen: [Int] = []
        func check(_ value: Int) throws {
            seen.append(value)
            if value == 2 { throw ProbeError.boom }
        }
    }

    @Test(arguments: operators)
    func aThrowFailsAtOnceAfterCancellingUpstreamAndNothingFollows(operator: ThrowingOperator) {
        let probe = SimpleProbe<Int, ProbeError>()  // keeps its subscriber, as a sloppy publisher might
        let checker = Checker()
        let subscriber = HandWrittenSubscriber<Int, any Error>(initial: `operator`.reduces ? nil : .max(2))
        `operator`.build(probe, checker.check).subscribe(subscriber)
        probe.send(1)
        #expect(probe.cancelCount == 0)
        #expect(probe.send(2) == .none)  // the value that threw asks for nothing more
        #expect(probe.cancelCount == 1)
        let failed = `operator`.events(afterOneThen: .failure("boom"))
        #expect(subscriber.events == failed)
        probe.send(3)
        probe.send(completion: .finished)
        subscriber.request(.max(1))
        #expect(subscriber.events == failed)
        #expect(checker.seen.last == 2)  // and never called again
    }

    @Test(arguments: operators)
    func theClosureIsReleasedOnceItThrows(operator: ThrowingOperator) {
        let probe = SimpleProbe<Int, ProbeError>(keepsSubscriber: false)
        let subscriber = HandWrittenSubscriber<Int, any Error>(initial: .max(2))
        weak var released: Checker?
        do {
            let checker = Checker()
            released = checker
            `operator`.build(probe, checker.check).subscribe(subscriber)
        }
        probe.send(1)
        #expect(released != nil)
        probe.send(2)
        #expect(released == nil)
    }

    @Test(arguments: operators)
    func anUpstreamFailureArrivesUnchangedAsAnyError(operator: ThrowingOperator) {
        let probe = SimpleProbe<Int, ProbeError>()
        let subscriber = HandWrittenSubscriber<Int, any Error>(initial: .max(2))
        `operator`.build(probe, Checker().check).subscribe(subscriber)
        probe.send(1)
        probe.send(completion: .failure(.other))
        #expect(subscriber.events == `operator`.events(afterOneThen: .failure("other")))

        let recorded = SimpleProbe<Int, ProbeError>()
        let recorder = `operator`.build(recorded, Checker().check).record()
        recorded.send(completion: .failure(.other))
        #expect(recorder.failure as? ProbeError == .other)  // the upstream's error itself, not a wrapper
    }

    @Test(arguments: operators)
    func afterACancelNothingArrivesAndTheClosureIsReleased(operator: ThrowingOperator) {
        let probe = SimpleProbe<Int, ProbeError>(keepsSubscriber: false)
        let subscriber = HandWrittenSubscriber<Int, any Error>(initial: .max(2))
        weak var released: Checker?
        do {
            let checker = Checker()
            released = checker
            `operator`.build(probe, checker.check).subscribe(subscriber)
        }
        probe.send(1)
        subscriber.cancel()
        #expect(probe.cancelCount == 1)
        #expect(released == nil)
        probe.send(2)
        probe.send(completion: .finished)
        #expect(subscriber.events == `operator`.events(afterOneThen: nil))
    }
}
