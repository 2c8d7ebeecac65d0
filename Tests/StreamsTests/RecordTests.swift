import Streams
import StreamsTesting
import Testing

/// `Record`, `Optional.publisher`, `Result.publisher`: replayed values as requested, then the completion.
@Suite struct RecordTests {
    @Test func aRecordReplaysItsValuesAsRequestedThenItsCompletion() {
        let record = Record<Int, TestError>(output: [1, 2, 3], completion: .failure(.boom))
        let recorder = record.record(demand: .max(2))
        #expect(recorder.values == [1, 2])
        #expect(recorder.completion == nil)
        recorder.request(.max(1))
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.failure == .boom)
        // Every subscriber gets the whole recording.
        #expect(record.record().values == [1, 2, 3])
    }

    @Test func anEmptyRecordCompletesWithoutDemand() {
        let failing = Record<Int, TestError>(output: [], completion: .failure(.boom)).record(demand: .none)
        #expect(failing.failure == .boom)
        let finishing = Record<Int, TestError>(output: [], completion: .finished).record(demand: .none)
        #expect(finishing.isFinished)
    }

    @Test func theRecordingClosureCollectsValuesAndIgnoresWhatFollowsTheCompletion() {
        let record = Record<String, TestError> { recording in
            recording.receive("a")
            recording.receive("b")
            recording.receive(completion: .failure(.other(1)))
            recording.receive("ignored")
            recording.receive(completion: .finished)
        }
        #expect(record.recording.output == ["a", "b"])
        let recorder = record.record()
        #expect(recorder.values == ["a", "b"])
        #expect(recorder.failure == .other(1))
        let unfinished = Record<Int, Never> { $0.receive(7) }
        #expect(unfinished.record().isFinished)
    }

    @Test func anOptionalPublishesItsValueOrJustFinishes() {
        let some: Int? = 4
        let none: Int? = nil
        let recorder = some.publisher.record(demand: .none)
        #expect(recorder.values.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.values == [4])
        #expect(recorder.isFinished)
        let empty = none.publisher.record(demand: .none)
        #expect(empty.values.isEmpty && empty.isFinished)
    }

    @Test func aResultPublishesItsSuccessOrFailsAtOnce() {
        let success = Result<Int, TestError>.success(1).publisher.record()
        #expect(success.values == [1] && success.isFinished)
        let failure = Result<Int, TestError>.failure(.boom).publisher.record(demand: .none)
        #expect(failure.values.isEmpty && failure.failure == .boom)
    }
}
