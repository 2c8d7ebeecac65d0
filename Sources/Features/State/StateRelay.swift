import Streams

/// A value guarded by a lock whose every change is published, in order, with the latest value last.
///
/// Changes are made under the lock; publishing happens after it is released (never calling out under a
/// lock). Publishing is serialized: while one thread publishes, changes made by other threads (or
/// re-entrantly by a subscriber) are picked up by that thread's loop, so subscribers never see an older
/// value after a newer one; intermediate values may be skipped under contention.
///
/// `stage` changes the value without publishing, for callers that must change it inside their own critical
/// section; they call `publish()` once that section is over.
final class StateRelay<State>: @unchecked Sendable {
    private struct Guarded {
        var state: State
        var version: UInt64 = 0
        var publishedVersion: UInt64 = 0
        var isPublishing = false
    }

    private let guarded: Locked<Guarded>
    private let subject: CurrentValueSubject<State, Never>

    /// A relay holding `initial`, already published.
    init(_ initial: State) {
        guarded = Locked(Guarded(state: initial))
        subject = CurrentValueSubject(initial)
    }

    /// The latest value (possibly not yet published).
    var value: State { guarded.withLock { $0.state } }

    /// The published values: the current one at once on subscription, then every change.
    var publisher: AnyPublisher<State, Never> { subject.eraseToAnyPublisher() }

    /// Changes the value with `body` (under the lock; `body` must not call out), then publishes.
    @discardableResult
    func update<Result>(_ body: (inout State) -> Result) -> Result {
        let result = stage(body)
        publish()
        return result
    }

    /// Changes the value with `body` under the lock, without publishing. Call ``publish()`` afterwards.
    @discardableResult
    func stage<Result>(_ body: (inout State) -> Result) -> Result {
        guarded.withLock { guarded in
            guarded.version &+= 1
            return body(&guarded.state)
        }
    }

    /// Publishes the latest value if it was not published yet (unless another thread is publishing, in
    /// which case that thread publishes it).
    func publish() {
        let starts = guarded.withLock { guarded -> Bool in
            guard !guarded.isPublishing else { return false }
            guarded.isPublishing = true
            return true
        }
        guard starts else { return }
        while let next = nextToPublish() {
            subject.send(next)
        }
    }

    private func nextToPublish() -> State? {
        guarded.withLock { guarded -> State? in
            guard guarded.publishedVersion != guarded.version else {
                guarded.isPublishing = false
                return nil
            }
            guarded.publishedVersion = guarded.version
            return guarded.state
        }
    }
}
