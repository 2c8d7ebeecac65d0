// Written once, compiled twice: ConformanceOpenCombine/Tap.swift is a symlink to this file.
import ConformanceModel

#if CONFORMANCE_STREAMS
    import Streams
#else
    import OpenCombine
#endif

/// Sits between the source and the first stage (only with `--upstream`) and logs what the pipeline does to
/// its source: `upstream subscribed` (once per subscription, so `retry` and `share` show), `upstream demand n`
/// (requests and demand returned for values, summed per tick, see `EventLog`; none once `.unlimited` was
/// given, which is sticky) and `upstream cancel`.
///
/// Values and completions pass through unchanged and unlogged: the subscriber's own lines show what
/// follows from them. Nothing is logged once the source has completed or the tap was cancelled (a late
/// request or cancel is a no-op under the contract, so the libraries may differ there harmlessly).
struct Tap: Publisher {
    typealias Output = Int
    typealias Failure = TestFailure

    let upstream: Stream
    let log: EventLog

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestFailure {
        upstream.subscribe(TapSubscription(downstream: subscriber, log: log))
    }
}

/// One subscription through a ``Tap``: the source's subscriber and the downstream's subscription.
private final class TapSubscription<Downstream: Subscriber>: Subscriber, Subscription
where Downstream.Input == Int, Downstream.Failure == TestFailure {
    typealias Input = Int
    typealias Failure = TestFailure

    private let downstream: Downstream
    private let log: EventLog
    private var upstream: (any Subscription)?
    /// The source completed or the tap was cancelled: nothing more is logged.
    private var isDone = false
    /// The source was given `.unlimited`: more demand changes nothing and is not logged.
    private var isUnlimited = false

    init(downstream: Downstream, log: EventLog) {
        self.downstream = downstream
        self.log = log
    }

    func receive(subscription: any Subscription) {
        log.note("upstream subscribed")
        upstream = subscription
        downstream.receive(subscription: self)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        let demand = downstream.receive(input)
        note(demand)
        return demand
    }

    func receive(completion: Subscribers.Completion<TestFailure>) {
        isDone = true
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        note(demand)
        upstream?.request(demand)
    }

    private func note(_ demand: Subscribers.Demand) {
        guard !isDone, !isUnlimited else { return }
        isUnlimited = demand == .unlimited
        log.noteUpstreamDemand(demand)
    }

    func cancel() {
        if !isDone { log.note("upstream cancel") }
        isDone = true
        upstream?.cancel()
        upstream = nil
    }
}
