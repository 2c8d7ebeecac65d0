import Streams
import StreamsTesting
import Testing

/// `flatMap` and `switchToLatest` between publishers that cannot fail and ones that can.
@Suite struct FailureAdaptingTests {
    @Test func flatMapFromANeverFailingUpstreamIntoFailingInners() {
        let taps = PassthroughSubject<Int, Never>()
        let recorder = taps.flatMap { value -> AnyPublisher<Int, TestError> in
            value < 0
                ? Fail(error: .boom).eraseToAnyPublisher()
                : Just(value).setFailureType(to: TestError.self).eraseToAnyPublisher()
        }.record()
        taps.send(1)
        taps.send(-1)
        taps.send(2)
        #expect(recorder.events == [.value(1, at: .zero), .failure(.boom, at: .zero)])
    }

    @Test func flatMapFromAFailingUpstreamIntoNeverFailingInners() {
        let lines = PassthroughSubject<String, TestError>()
        let recorder = lines.flatMap { Just($0.count) }.record()
        lines.send("abc")
        lines.send(completion: .failure(.other(1)))
        #expect(recorder.events == [.value(3, at: .zero), .failure(.other(1), at: .zero)])
    }

    @Test func flatMapWhenNothingCanFail() {
        let recorder = [1, 2].publisher.flatMap { Just($0 * 10) }.record()
        #expect(recorder.values == [10, 20])
        #expect(recorder.isFinished)
    }

    @Test func switchToLatestFromANeverFailingUpstreamIntoFailingInners() {
        let queries = PassthroughSubject<String, Never>()
        let first = PassthroughSubject<String, TestError>()
        let second = PassthroughSubject<String, TestError>()
        let recorder = queries.map { $0 == "a" ? first : second }.switchToLatest().record()
        queries.send("a")
        first.send("result a")
        queries.send("b")
        first.send("stale")
        second.send("result b")
        second.send(completion: .failure(.boom))
        #expect(
            recorder.events == [
                .value("result a", at: .zero), .value("result b", at: .zero), .failure(.boom, at: .zero),
            ])
    }

    @Test func switchToLatestFromAFailingUpstreamIntoNeverFailingInners() {
        let outer = PassthroughSubject<Int, TestError>()
        let recorder = outer.map { Just($0) }.switchToLatest().record()
        outer.send(1)
        outer.send(2)
        outer.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(1, at: .zero), .value(2, at: .zero), .failure(.boom, at: .zero)])
    }

    @Test func switchToLatestWhenNothingCanFail() {
        let outer = PassthroughSubject<Just<Int>, Never>()
        let recorder = outer.switchToLatest().record()
        outer.send(Just(7))
        outer.send(completion: .finished)
        #expect(recorder.events == [.value(7, at: .zero), .finished(at: .zero)])
    }
}
