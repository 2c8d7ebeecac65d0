import Streams
import Testing

/// The subscriber `upstream.subscribe(subject)` and a relay's `subscribe(publisher)` attach (`SubjectRelay` in
/// `Sources/Streams/Core/Subject.swift`): values and, for a subject, the completion go on; a cancel stops them and
/// lets go of the subject.
@Suite struct SubjectRelayTests {
    @Test func aSubjectGetsTheValuesAndTheCompletion() {
        let probe = SimpleProbe<Int, ProbeError>()
        let subject = PassthroughSubject<Int, ProbeError>()
        let recorder = subject.record()
        let link = probe.subscribe(subject)
        _ = probe.send(1)
        _ = probe.send(2)
        probe.send(completion: .failure(.other))
        #expect(recorder.values == [1, 2])
        #expect(recorder.failure == .other)
        withExtendedLifetime(link) {}
    }

    @Test func afterACancelTheSubjectGetsNothingAndTheUpstreamIsCancelled() {
        let probe = SimpleProbe<Int, ProbeError>()
        let subject = PassthroughSubject<Int, ProbeError>()
        let recorder = subject.record()
        let link = probe.subscribe(subject)
        _ = probe.send(1)
        link.cancel()
        #expect(probe.cancelCount == 1)
        _ = probe.send(2)
        probe.send(completion: .finished)
        #expect(recorder.values == [1])
        #expect(!recorder.isFinished)
        link.cancel()
        #expect(probe.cancelCount == 1)
    }

    @Test func droppingTheCancellableCancels() {
        let probe = SimpleProbe<Int, Never>()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.record()
        do { _ = probe.subscribe(subject) }
        #expect(probe.cancelCount == 1)
        _ = probe.send(1)
        #expect(recorder.values.isEmpty)
    }

    /// The subject is held by the subscriber the upstream holds: an upstream that lets go of it on cancel (as
    /// Combine's do) lets go of the subject.
    @Test func aCancelLetsGoOfTheSubject() {
        let probe = SimpleProbe<Int, Never>(keepsSubscriber: false)
        weak var released: PassthroughSubject<Int, Never>?
        var link: AnyCancellable?
        do {
            let subject = PassthroughSubject<Int, Never>()
            released = subject
            link = probe.subscribe(subject)
        }
        #expect(released != nil)
        link?.cancel()
        #expect(released == nil)
    }

    @Test func aRelayIsAskedForUnlimitedAndIgnoresTheCompletion() {
        let probe = SimpleProbe<Int, Never>()
        let relay = PassthroughRelay<Int>()
        let recorder = relay.record()
        let link = relay.subscribe(probe)
        #expect(probe.requests == [.unlimited])
        _ = probe.send(5)
        probe.send(completion: .finished)
        relay.accept(6)
        #expect(recorder.values == [5, 6])
        #expect(!recorder.isFinished)
        withExtendedLifetime(link) {}
    }
}
