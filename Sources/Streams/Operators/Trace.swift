extension Publisher {
    /// Records every event of each subscription into `log`, under `name`, with the scheduler's time — to see a
    /// live pipeline as a timeline or as a marble diagram; the events themselves pass through unchanged.
    ///
    /// Recorded, in order, each just *before* it is passed on:
    /// - ``TraceEvent/Kind/subscription``: the upstream's subscription arrived;
    /// - ``TraceEvent/Kind/request(_:)``: the downstream called `request(_:)` (the demand, as asked);
    /// - ``TraceEvent/Kind/value(_:)``: a value, as `String(describing:)`;
    /// - ``TraceEvent/Kind/synchronousRequest(_:)``: the demand the downstream returned for a value, when it is
    ///   not `.none`;
    /// - ``TraceEvent/Kind/finished`` or ``TraceEvent/Kind/failure(_:)`` (the error's description);
    /// - ``TraceEvent/Kind/cancel``: the downstream cancelled before a completion.
    ///
    /// - Contract: like `handleEvents`, a pure pass-through. Values, completion, demand (requested and
    ///   returned) and cancellation reach the other side unchanged; nothing is requested or buffered. After a
    ///   cancel or the completion nothing more is passed on and nothing more is recorded, and the downstream,
    ///   `log` and `scheduler` are released.
    /// - Timing: each event is stamped with `scheduler.now` when it happens (read on the event's thread,
    ///   never scheduled). Use one clock for all the taps of a log: a `TestScheduler` in tests, the
    ///   pipeline's own scheduler in an app.
    /// - Threading: safe from any thread; `log` is locked only to append, and its `onEvent` hook runs on the
    ///   event's thread before the event is passed on, never under a lock.
    /// - Several subscriptions: each is numbered (``TraceEvent/subscription``, from 1) and rendered on its
    ///   own row.
    ///
    /// ```swift
    /// let log = TraceLog()
    /// let results = keystrokes
    ///     .trace("keys", to: log, scheduler: scheduler)
    ///     .debounce(for: .milliseconds(300), scheduler: scheduler)
    ///     .trace("results", to: log, scheduler: scheduler)
    /// // … later:
    /// print(log.marbleChart(frame: .milliseconds(100)))
    /// // keys     -a-b------c|
    /// // results  ------b----(c|)
    /// // where a = "f", b = "fo", c = "foc"
    /// ```
    ///
    /// - Parameters:
    ///   - name: the tap's name in `log` (several taps may share a log; taps given the same name count as
    ///     subscriptions of one tap).
    ///   - log: where the events go.
    ///   - scheduler: whose `now` stamps each event.
    public func trace(_ name: String, to log: TraceLog, scheduler: some Scheduler) -> Publishers.Trace<Self> {
        Publishers.Trace(upstream: self, name: name, log: log, scheduler: scheduler)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/trace(_:to:scheduler:)``.
    public struct Trace<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher observed.
        public let upstream: Upstream
        /// The tap's name in ``log``.
        public let name: String
        /// Where the events are recorded.
        public let log: TraceLog
        /// Whose `now` stamps each event.
        public let scheduler: any Scheduler

        /// Records `upstream`'s events into `log` under `name`, stamped with `scheduler.now`.
        public init(upstream: Upstream, name: String, log: TraceLog, scheduler: any Scheduler) {
            self.upstream = upstream
            self.name = name
            self.log = log
            self.scheduler = scheduler
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: TraceInner(
                    downstream: subscriber, tap: TraceTap(name: name, log: log, scheduler: scheduler)))
        }
    }
}

/// Where one subscription records: the log, the name, the clock, and the subscription's number once known.
struct TraceTap {
    let name: String
    let log: TraceLog
    let scheduler: any Scheduler
    /// Assigned by the log when the subscription is recorded.
    var subscription = 0

    /// Records `kind` now.
    func record(_ kind: TraceEvent.Kind) {
        log.record(kind, name: name, subscription: subscription, at: scheduler.now)
    }
}

/// The subscriber `trace` attaches upstream, and the downstream's subscription. Shared across threads: the
/// upstream subscription is held by `link`; `downstream` and `tap` are guarded by `link`'s lock and released together
/// at the completion or the first cancel.
final class TraceInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    /// The upstream subscription, and the one lock of this subscription: it guards every `var` below
    /// (`@exclusivity(unchecked)`: each access is under it, or in `init`).
    private let link = UpstreamLink()
    /// Guarded by `link`'s lock; `nil` once terminated.
    private var downstream: Downstream?
    /// Guarded by `link`'s lock; `nil` once terminated.
    private var tap: TraceTap?

    init(downstream: Downstream, tap: TraceTap) {
        self.downstream = downstream
        self.tap = tap
    }

    var description: String { "Trace" }

    /// The downstream and the tap while live.
    private func current() -> (Downstream, TraceTap)? {
        link.lock()
        defer { link.unlock() }
        guard let downstream, let tap else { return nil }
        return (downstream, tap)
    }

    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        guard let (downstream, tap) = current() else { return }
        var numbered = tap
        numbered.subscription = tap.log.record(.subscription, name: tap.name, subscription: nil, at: tap.scheduler.now)
        link.withLock {
            if self.tap != nil { self.tap = numbered }
        }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard let (downstream, tap) = current() else { return .none }
        tap.record(.value(String(describing: input)))
        let demand = downstream.receive(input)
        if demand > .none, let (_, tap) = current() {
            tap.record(.synchronousRequest(demand))
        }
        return demand
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish(), let (downstream, tap) = release() else { return }
        switch completion {
        case .finished: tap.record(.finished)
        case .failure(let error): tap.record(.failure(String(describing: error)))
        }
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        guard let (_, tap) = current() else { return }
        tap.record(.request(demand))
        link.request(demand)
    }

    func cancel() {
        guard let (_, tap) = release() else { return }
        tap.record(.cancel)
        link.cancel()
    }

    /// Takes the downstream and the tap, once: `nil` if already released.
    private func release() -> (Downstream, TraceTap)? {
        link.lock()
        let released = (downstream, tap)
        downstream = nil
        tap = nil
        link.unlock()
        guard let downstream = released.0, let tap = released.1 else { return nil }
        return (downstream, tap)
    }
}
