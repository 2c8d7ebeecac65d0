import Streams

/// A hot test publisher (a `PassthroughSubject` underneath) that records what its subscribers do:
/// how many subscribed, what they requested, how many cancelled or were completed.
final class CombiningProbe<Output, Failure: Error>: Publisher, @unchecked Sendable {
    let subject = PassthroughSubject<Output, Failure>()
    private(set) var subscribeCount = 0
    private(set) var cancelCount = 0
    private(set) var completionCount = 0
    private(set) var requests: [Subscribers.Demand] = []

    /// Subscriptions neither cancelled nor completed.
    var liveCount: Int { subscribeCount - cancelCount - completionCount }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscribeCount += 1
        subject.subscribe(Tap(probe: self, downstream: subscriber))
    }

    func send(_ value: Output) { subject.send(value) }
    func send(completion: Subscribers.Completion<Failure>) { subject.send(completion: completion) }

    private final class Tap<Downstream: Subscriber>: Subscriber, Subscription, @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        let probe: CombiningProbe
        let downstream: Downstream
        var upstream: (any Subscription)?
        var ended = false

        init(probe: CombiningProbe, downstream: Downstream) {
            self.probe = probe
            self.downstream = downstream
        }

        func receive(subscription: any Subscription) {
            upstream = subscription
            downstream.receive(subscription: self)
        }
        func receive(_ input: Output) -> Subscribers.Demand {
            let more = downstream.receive(input)
            if more > .none { probe.requests.append(more) }
            return more
        }
        func receive(completion: Subscribers.Completion<Failure>) {
            if !ended {
                ended = true
                probe.completionCount += 1
            }
            downstream.receive(completion: completion)
        }
        func request(_ demand: Subscribers.Demand) {
            probe.requests.append(demand)
            upstream?.request(demand)
        }
        func cancel() {
            if !ended {
                ended = true
                probe.cancelCount += 1
            }
            upstream?.cancel()
            upstream = nil
        }
    }
}

enum TestFailure: Error, Equatable {
    case boom
    case other
}
