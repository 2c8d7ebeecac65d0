import Dispatch
@testable import Streams
import Testing

/// The subscription a subject (and `share()`) gives each subscriber hands the subscriber its subscription where
/// the conduit holds it, without a copy. A cancel or a completion that arrives during that hand-over (from
/// inside it, or from another thread) must leave the release of the subscriber to the hand-over: the conduit is
/// often the subscriber's only owner, and freeing it mid-call would free what is running.
@Suite struct SubjectConduitTests {
    /// Logs its hand-over and its release; `during` runs inside `receive(subscription:)` (and waits for it).
    final class Witness: Subscriber, @unchecked Sendable {
        typealias Input = Int
        typealias Failure = Never
        /// The subscription, sent to another thread: sound because `cancel()` may be called from any thread.
        struct Handed: @unchecked Sendable { let subscription: any Subscription }

        /// A `PassthroughSubject`'s (or `share()`'s) conduit, which keeps no value, and a `CurrentValueSubject`'s.
        typealias Conduit = SubjectConduit<
            Int, Never, Witness, Int?, Subscribers.Completion<Never>?, EmptySlot<Int>, HeldDownstream<Witness>
        >
        typealias KeepingConduit = SubjectConduit<
            Int, Never, Witness, Int?, Subscribers.Completion<Never>?, Int?, HeldDownstream<Witness>
        >

        let log: Locked<[String]>
        let during: @Sendable (Handed) -> Void
        /// Set only on the subscribing thread, read by `deinit`: tells a release mid-call from a later one.
        var inside = false

        /// Whether the subscription handed over is the subject's conduit itself (`false` behind an operator).
        let subscribesDirectly: Bool

        init(log: Locked<[String]>, subscribesDirectly: Bool = true, during: @escaping @Sendable (Handed) -> Void) {
            self.log = log
            self.subscribesDirectly = subscribesDirectly
            self.during = during
        }

        func receive(subscription: any Subscription) {
            inside = true
            during(Handed(subscription: subscription))
            inside = false
            // White-box, since a debug build's callers hold copies of the subscriber that hide an early release:
            // the conduit must still hold this subscriber when the hand-over ends.
            let holds: Bool? =
                if let conduit = subscription as? Conduit {
                    conduit.downstream.with({ _ in true }) != nil
                } else if let conduit = subscription as? KeepingConduit {
                    conduit.downstream.with({ _ in true }) != nil
                } else {
                    nil
                }
            switch holds {
            case false?: log.withLock { $0.append("dropped during the hand-over") }
            case nil where subscribesDirectly: log.withLock { $0.append("not a subject's conduit") }
            default: break
            }
            log.withLock { $0.append("returned") }
        }
        func receive(_ input: Int) -> Subscribers.Demand {
            log.withLock { $0.append("value \(input)") }
            return .none
        }
        func receive(completion: Subscribers.Completion<Never>) {
            log.withLock { $0.append(inside ? "completion inside the hand-over" : "completion") }
        }
        deinit { log.withLock { $0.append(inside ? "released inside the hand-over" : "released") } }
    }

    /// Runs `body` on another thread and waits for it.
    static func elsewhere(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            body()
            done.signal()
        }
        done.wait()
    }

    @Test func aCancelFromAnotherThreadDuringTheHandOverReleasesTheSubscriberAfterIt() {
        for _ in 0..<50 {
            let log = Locked<[String]>([])
            let subject = PassthroughSubject<Int, Never>()
            subject.subscribe(Witness(log: log) { handed in Self.elsewhere { handed.subscription.cancel() } })
            subject.send(1)
            #expect(log.withLock { $0 } == ["returned", "released"])
        }
    }

    @Test func aCancelFromInsideTheHandOverReleasesTheSubscriberAfterIt() {
        let log = Locked<[String]>([])
        let subject = CurrentValueSubject<Int, Never>(0)
        subject.subscribe(Witness(log: log) { handed in handed.subscription.cancel() })
        subject.send(1)
        #expect(log.withLock { $0 } == ["returned", "released"])
    }

    @Test func aCompletionFromAnotherThreadDuringTheHandOverArrivesAfterItThenReleases() {
        for _ in 0..<50 {
            let log = Locked<[String]>([])
            let subject = PassthroughSubject<Int, Never>()
            subject.subscribe(Witness(log: log) { _ in Self.elsewhere { subject.send(completion: .finished) } })
            #expect(log.withLock { $0 } == ["returned", "completion", "released"])
        }
    }

    @Test func aCancelThenACompletionDuringTheHandOverReleaseOnceAfterIt() {
        // The completion finds the conduit cancelled but still handing over: nothing is delivered, and the
        // release waits for the hand-over.
        let log = Locked<[String]>([])
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.share()
        let first = shared.sink { _ in }
        shared.subscribe(
            Witness(log: log) { handed in
                Self.elsewhere {
                    handed.subscription.cancel()
                    subject.send(completion: .finished)
                }
            })
        #expect(log.withLock { $0 } == ["returned", "released"])
        first.cancel()
    }

    @Test func aStructSubscriberChainIsReleasedOnceAfterACancelDuringTheHandOver() {
        // `map`'s subscriber is a struct in the conduit: its closure (and what that captures) goes with it.
        final class Token: Sendable {
            let log: Locked<[String]>
            init(log: Locked<[String]>) { self.log = log }
            deinit { log.withLock { $0.append("closure released") } }
        }
        for _ in 0..<50 {
            let log = Locked<[String]>([])
            let subject = PassthroughSubject<Int, Never>()
            let token = Token(log: log)
            let mapped = subject.map { [token] value in withExtendedLifetime(token) { value } }
            let witness = Witness(log: log, subscribesDirectly: false) { handed in
                Self.elsewhere { handed.subscription.cancel() }
            }
            mapped.subscribe(witness)
            log.withLock { $0.append("subscribed") }
            _ = consume witness
            _ = consume mapped
            _ = consume token
            #expect(log.withLock { $0 } == ["returned", "subscribed", "released", "closure released"])
        }
    }
}
