extension Publisher {
    /// Logs every event that passes, one line each, in Combine's format — to `stream`, or to standard output.
    ///
    /// Lines (after `"prefix: "` when `prefix` is not empty): `receive subscription: (…)`, `request max: (n)` or
    /// `request unlimited`, `receive value: (…)` followed, when the subscriber returned more demand, by that demand
    /// (`request max: (n) (synchronous)`), `receive finished`, `receive error: (…)`, `receive cancel`.
    ///
    /// - Demand, completion, cancellation: passed through unchanged.
    /// - Threading: a line is written on the thread of its event; writes to `stream` never overlap.
    ///
    /// ```swift
    /// let c = [1].publisher.print("numbers").sink { _ in }
    /// // numbers: receive subscription: (Sequence)   (Combine shows the sequence itself: ([1]))
    /// // numbers: request unlimited
    /// // numbers: receive value: (1)
    /// // numbers: receive finished
    /// ```
    public func print(_ prefix: String = "", to stream: (any TextOutputStream)? = nil) -> Publishers.Print<Self> {
        Publishers.Print(upstream: self, prefix: prefix, to: stream)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/print(_:to:)``.
    public struct Print<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are logged.
        public let upstream: Upstream
        /// What each line starts with (followed by `": "` when not empty).
        public let prefix: String
        /// Where the lines go; standard output when `nil`.
        public let stream: (any TextOutputStream)?

        /// Logs `upstream`'s events.
        public init(upstream: Upstream, prefix: String, to stream: (any TextOutputStream)? = nil) {
            self.upstream = upstream
            self.prefix = prefix
            self.stream = stream
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let log = PrintLog(prefix: prefix, stream: stream)
            // `handleEvents`' stage logs the subscription, the requests and the cancel; not the demand returned from
            // a value call, which `PrintSubscriber` logs as `(synchronous)`.
            upstream.receive(
                subscriber: HandleEventsStage(
                    downstream: PrintSubscriber(downstream: subscriber, log: log),
                    receiveSubscription: { log.write("receive subscription: (\($0))") }, receiveOutput: nil,
                    receiveCompletion: nil,
                    hooks: HandleEventsHooks(
                        receiveCancel: { log.write("receive cancel") }, receiveRequest: { log.write(Self.request($0)) }),
                    reportsReturnedDemand: false))
        }

        static func request(_ demand: Subscribers.Demand) -> String {
            if let max = demand.max { "request max: (\(max))" } else { "request unlimited" }
        }
    }
}

/// The lines of one `print` subscription. Sound as `@unchecked Sendable`: the stream is written only under
/// `lock` (a stream is user code, but it is never handed a subscriber, so it cannot call back into the
/// pipeline while the lock is held).
final class PrintLog: @unchecked Sendable {
    /// A concrete stream around the caller's, so `print(_:to:)` can write to it.
    private struct Target: TextOutputStream {
        var stream: any TextOutputStream
        mutating func write(_ string: String) { stream.write(string) }
    }

    private let prefix: String
    /// Written only under `lock`.
    private var target: Target?
    private let lock = Lock()

    init(prefix: String, stream: (any TextOutputStream)?) {
        self.prefix = prefix.isEmpty ? "" : "\(prefix): "
        self.target = stream.map(Target.init)
    }

    func write(_ line: String) {
        lock.withLock {
            if var target {
                Swift.print(prefix + line, to: &target)
                self.target = target
            } else {
                Swift.print(prefix + line)
            }
        }
    }
}

/// Logs values, the demand the downstream returns for each, and the completion; everything else passes
/// through `handleEvents` before it.
struct PrintSubscriber<Downstream: Subscriber>: Subscriber {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    let downstream: Downstream
    let log: PrintLog
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }

    func receive(_ input: Input) -> Subscribers.Demand {
        log.write("receive value: (\(input))")
        let demand = downstream.receive(input)
        // As Combine's: the demand a value returns is logged only when there is some.
        if demand > .none { log.write("\(Publishers.Print<Empty<Never, Never>>.request(demand)) (synchronous)") }
        return demand
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: log.write("receive finished")
        case .failure(let error): log.write("receive error: (\(error))")
        }
        downstream.receive(completion: completion)
    }
}
