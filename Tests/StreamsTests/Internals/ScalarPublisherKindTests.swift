import Testing

@testable import Streams

/// `ScalarPublisherKind` names the inner publishers `flatMap` may read instead of subscribing to: exactly `Just`,
/// `setFailureType(to:)` over a `Just`, `Result.Publisher` and `Future`, and reads their value (none from a failed
/// result or a future not fulfilled with a success).
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

    @Test func aFutureIsScalarAndItsValueIsReadOnlyOnceFulfilledWithASuccess() {
        #expect(ScalarPublisherKind(of: Future<Int, TestFailure>.self) == .future)
        let kind = ScalarPublisherKind(of: Future<Int, TestFailure>.self)
        #expect(kind.output(of: Future<Int, TestFailure> { $0(.success(3)) }) == 3)
        #expect(kind.output(of: Future<Int, TestFailure> { $0(.failure(.boom)) }) == nil)
        let later = Locked<Future<Int, TestFailure>.Promise?>(nil)
        let pending = Future<Int, TestFailure> { promise in later.withLock { $0 = promise } }
        #expect(kind.output(of: pending) == nil)
        later.withLock { $0 }?(.success(4))
        #expect(kind.output(of: pending) == 4)
    }

    @Test func aDeferredFutureIsMadeOnceAndThenRead() {
        let made = Locked(0)
        let deferred = Deferred {
            made.withLock { $0 += 1 }
            return Future<Int, TestFailure> { $0(.success(5)) }
        }
        let kind = ScalarPublisherKind(of: type(of: deferred))
        #expect(kind == .deferredFuture)
        #expect(kind.output(of: deferred) == nil)  // never read without making it
        #expect(made.withLock { $0 } == 0)
        let future = kind.madeFuture(of: deferred)
        #expect(made.withLock { $0 } == 1)
        #expect(future?.fulfilledValue == 5)
        #expect(ScalarPublisherKind.future.madeFuture(of: Future<Int, Never> { $0(.success(1)) }) == nil)
        #expect(ScalarPublisherKind(of: Deferred<Just<Int>>.self) == .none)
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
