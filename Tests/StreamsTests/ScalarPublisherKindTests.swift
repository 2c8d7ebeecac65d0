import Testing

@testable import Streams

/// `ScalarPublisherKind` names the inner publishers `flatMap` may read instead of subscribing to: exactly `Just`
/// and `setFailureType(to:)` over a `Just`, and reads their value.
@Suite struct ScalarPublisherKindTests {
    @Test func justAndJustWithAFailureTypeAreScalarAndTheirValueIsRead() {
        #expect(ScalarPublisherKind(of: Just<Int>.self) == .just)
        #expect(ScalarPublisherKind(of: Just<Int>.self).output(of: Just(7)) == 7)
        let typed = Just("a").setFailureType(to: TestFailure.self)
        #expect(ScalarPublisherKind(of: type(of: typed)) == .justWithFailure)
        #expect(ScalarPublisherKind(of: type(of: typed)).output(of: typed) == "a")
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
