import Streams
import StreamsTesting
import Testing

/// `tryCatch`: a failure becomes the handler's publisher, or the error the handler throws.
@Suite struct TryCatchTests {
    @Test func aFailureContinuesWithTheReplacement() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = subject.tryCatch { _ in [8, 9].publisher }.record()
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.values == [1, 8, 9])
        #expect(recorder.isFinished)
    }

    @Test func aThrowingHandlerFailsWithWhatItThrew() {
        let recorder = Fail<Int, TestError>(error: .boom)
            .tryCatch { error -> Just<Int> in throw TestError.other(error == .boom ? 1 : 2) }
            .record()
        #expect(recorder.values.isEmpty)
        #expect(recorder.failure as? TestError == .other(1))
    }

    @Test func theReplacementGetsOnlyTheDemandLeft() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = subject.tryCatch { _ in [7, 8, 9].publisher }.record(demand: .max(2))
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.values == [1, 7])
        recorder.request(.max(5))
        #expect(recorder.values == [1, 7, 8, 9])
        #expect(recorder.isFinished)
    }

    @Test func theReplacementsFailureIsForwarded() {
        let recorder = Fail<Int, TestError>(error: .boom)
            .tryCatch { _ in Fail<Int, TestError>(error: .other(3)) }
            .record()
        #expect(recorder.failure as? TestError == .other(3))
    }
}
