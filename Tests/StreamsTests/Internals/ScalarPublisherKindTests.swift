import Testing

@testable import Streams

/// `ScalarPublisherKind` names the inner publishers `flatMap` may read instead of subscribing to: exactly `Just`,
/// `setFailureType(to:)` over a `Just` and `Result.Publisher`, and reads their value (none from a failed result).
@Suite struct ScalarPublisherKindTests {
    @Test func justAndJustWithAFailureTypeAreScalarAndTheirValueIsRead() {
        #expect(ScalarPublisherKind(of: Just<Int>.self) == .just)
        #expect(ScalarPublisherKind(of: Just<Int>.self).output(of: Just(7)) == 7)
        let typed = Publishers.SetFailureType<Just<String>, TestFailure>(upstream: Just("a"))
        #expect(ScalarPublisherKind(of: type(of: typed)) == .justWithFailure)
        #expect(ScalarPublisherKind(of: type(of: typed)).output(of: typed) == "a")
    }

    @Test func aResultPublisherIsScalarAndOnlyASuccessIsRead() {
        // What `Just(x).setFailureType(to:)` returns, as in Combine.
        let typed: Result<String, TestFailure>.Publisher = Just("a").setFailureType(to: TestFailure.self)
        #expect(ScalarPublisherKind(of: type(of: typed)) == .result)
        #expect(ScalarPublisherKind(of: type(of: typed)).output(of: typed) == "a")
        let failed = Result<String, TestFailure>.Publisher(.failure(TestFailure.boom))
        #expect(ScalarPublisherKind(of: type(of: failed)).output(of: failed) == nil)
    }

    @Test func publishersThatMayDoAnythingElseAreNot() {
        #expect(ScalarPublisherKind(of: AnyPublisher<Int, Never>.self) == .none)
        #expect(ScalarPublisherKind(of: Empty<Int, Never>.self) == .none)
        #expect(ScalarPublisherKind(of: Publishers.Map<Just<Int>, Int>.self) == .none)
        #expect(ScalarPublisherKind(of: PassthroughSubject<Int, Never>.self) == .none)
        #expect(ScalarPublisherKind(of: Publishers.Sequence<[Int], Never>.self) == .none)
        #expect(ScalarPublisherKind.none.output(of: Just(1)) == nil)
    }
}
