import Foundation
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

    /// `print()` and test failures name the subscription as Combine does: "Once" for a success (not the `Just` it
    /// is delivered like), "Empty" for a failure.
    @Test func aResultsSubscriptionIsNamedAsInCombine() {
        let success = Result<Int, TestError>.success(1).publisher.record(demand: .none)
        #expect(success.subscription.map { "\($0)" } == "Once")
        #expect(success.values.isEmpty)
        success.request(.max(1))
        #expect(success.values == [1] && success.isFinished)
        let failure = Result<Int, TestError>.failure(.boom).publisher.record(demand: .none)
        #expect(failure.subscription.map { "\($0)" } == "Empty")
    }

    /// Combine's encoding: a record holds its `recording`, which holds its `output` and its `completion`; a decoded
    /// record replays the same events.
    @Test func aRecordEncodesAsCombineDoesAndDecodesToTheSameReplay() throws {
        let record = Record<Int, CodableFailure>(output: [1, 2], completion: .failure(CodableFailure(code: 9)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(record)
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"recording":{"completion":{"error":{"code":9},"success":false},"output":[1,2]}}"#)
        let decoded = try JSONDecoder().decode(Record<Int, CodableFailure>.self, from: data)
        let recorder = decoded.record()
        #expect(recorder.values == [1, 2])
        #expect(recorder.completion == .failure(CodableFailure(code: 9)))

        // A decoded recording is complete: what it is told afterwards is ignored, as for any finished recording.
        var recording = try JSONDecoder().decode(
            Record<Int, Never>.Recording.self, from: Data(#"{"output":[4],"completion":{"success":true}}"#.utf8))
        recording.receive(5)
        #expect(recording.output == [4])
        #expect(
            try String(decoding: encoder.encode(recording), as: UTF8.self)
                == #"{"completion":{"success":true},"output":[4]}"#)
    }

    struct CodableFailure: Error, Codable, Equatable { var code: Int }
}
