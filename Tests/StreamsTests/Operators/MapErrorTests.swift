import Streams
import StreamsTesting
import Testing

@Suite struct MapErrorTests {
    private struct Wrapped: Error, Equatable { let inner: ProbeError }

    @Test func mapErrorTransformsTheFailureAndKeepsValues() {
        let subject = PassthroughSubject<Int, ProbeError>()
        let recorder = subject.mapError { Wrapped(inner: $0) }.record()
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(1, at: .zero), .failure(Wrapped(inner: .boom), at: .zero)])
    }

    @Test func mapErrorLeavesFinishedAlone() {
        var calls = 0
        let recorder = [1].publisher.setFailureType(to: ProbeError.self).mapError { error -> Wrapped in
            calls += 1
            return Wrapped(inner: error)
        }.record()
        #expect(recorder.events == [.value(1, at: .zero), .finished(at: .zero)])
        #expect(calls == 0)
    }

    @Test func mapErrorPassesDemandThrough() {
        let recorder = (1...4).publisher.setFailureType(to: ProbeError.self).mapError { $0 }.record(demand: .max(2))
        #expect(recorder.values == [1, 2])
        #expect(recorder.completion == nil)
    }

    @Test func setFailureTypeRetypesWithoutChangingEvents() {
        let typed: AnyPublisher<Int, ProbeError> = Just(1).setFailureType(to: ProbeError.self).eraseToAnyPublisher()
        let recorder = typed.record()
        #expect(recorder.events == [.value(1, at: .zero), .finished(at: .zero)])
    }
}
