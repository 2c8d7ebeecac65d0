import Streams
import StreamsTesting
import Testing

/// `share()` is, in behaviour, `multicast { PassthroughSubject() }.autoconnect()` — as in Combine, where it is
/// built that way. Streams gives `share()` its own engine (one subject core and no per-subscriber stage, for
/// fan-out speed), so this suite runs the same random scripts against both and compares everything observable:
/// each subscriber's events, and what the upstream sees (subscriptions, requests, cancels).
@Suite struct ShareAsMulticastTests {
    private enum Boom: Error { case boom }

    /// A re-subscribable upstream: each subscription gets a fresh subject, driven by the script; the log
    /// records what the shared publisher does to its upstream.
    private final class Upstream: @unchecked Sendable {
        var subjects: [PassthroughSubject<Int, Boom>] = []
        var log: [String] = []

        var publisher: AnyPublisher<Int, Boom> {
            Deferred { [self] () -> AnyPublisher<Int, Boom> in
                let subject = PassthroughSubject<Int, Boom>()
                subjects.append(subject)
                let index = subjects.count
                log.append("subscribe #\(index)")
                return
                    subject
                    .handleEvents(
                        receiveCancel: { [self] in log.append("cancel #\(index)") },
                        receiveRequest: { [self] in log.append("request #\(index) \($0)") }
                    )
                    .eraseToAnyPublisher()
            }.eraseToAnyPublisher()
        }

        func send(_ value: Int) { subjects.last?.send(value) }
        func send(completion: Subscribers.Completion<Boom>) { subjects.last?.send(completion: completion) }
    }

    private enum Step: CustomStringConvertible {
        case subscribe(initial: Subscribers.Demand?, perValue: Subscribers.Demand, cancelOnValue: Int?, cancelAtOnce: Bool)
        case request(subscriber: Int, Subscribers.Demand)
        case cancel(subscriber: Int)
        case send(Int)
        case finish
        case fail

        var description: String {
            switch self {
            case .subscribe(let initial, let perValue, let cancelOnValue, let cancelAtOnce):
                "subscribe(initial: \(initial.map { "\($0)" } ?? "none"), perValue: \(perValue), cancelOnValue: "
                    + "\(cancelOnValue.map(String.init) ?? "none"), cancelAtOnce: \(cancelAtOnce))"
            case .request(let subscriber, let demand): "request(\(subscriber), \(demand))"
            case .cancel(let subscriber): "cancel(\(subscriber))"
            case .send(let value): "send(\(value))"
            case .finish: "finish"
            case .fail: "fail"
            }
        }
    }

    private static func demand(_ random: inout SeededRandom) -> Subscribers.Demand {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: .none
        case 1: .max(1)
        case 2: .max(Int.random(in: 2...4, using: &random))
        default: .unlimited
        }
    }

    private static func script(seed: UInt64) -> [Step] {
        var random = SeededRandom(state: seed)
        var subscribers = 0
        var steps: [Step] = []
        for _ in 0..<Int.random(in: 4...24, using: &random) {
            let roll = Int.random(in: 0..<100, using: &random)
            if subscribers == 0 || roll < 25 {
                let initial = demand(&random)
                steps.append(
                    .subscribe(
                        initial: initial == .none ? nil : initial, perValue: demand(&random),
                        cancelOnValue: Int.random(in: 0..<4, using: &random) == 0
                            ? Int.random(in: 1...3, using: &random) : nil,
                        cancelAtOnce: Int.random(in: 0..<10, using: &random) == 0))
                subscribers += 1
            } else if roll < 40 {
                let demand = demand(&random)
                steps.append(
                    .request(
                        subscriber: Int.random(in: 0..<subscribers, using: &random),
                        demand == .none ? .max(1) : demand))
            } else if roll < 55 {
                steps.append(.cancel(subscriber: Int.random(in: 0..<subscribers, using: &random)))
            } else if roll < 93 {
                steps.append(.send(Int.random(in: 0..<100, using: &random)))
            } else if roll < 97 {
                steps.append(.finish)
            } else {
                steps.append(.fail)
            }
        }
        return steps
    }

    /// Runs `steps` against the publisher `make` builds over a fresh upstream; returns one line per event.
    private static func run(
        _ steps: [Step], _ make: (AnyPublisher<Int, Boom>) -> AnyPublisher<Int, Boom>
    ) -> [String] {
        let upstream = Upstream()
        let shared = make(upstream.publisher)
        var subscribers: [HandWrittenSubscriber<Int, Boom>] = []
        for step in steps {
            upstream.log.append("> \(step)")
            switch step {
            case .subscribe(let initial, let perValue, let cancelOnValue, let cancelAtOnce):
                let subscriber = HandWrittenSubscriber<Int, Boom>(
                    initial: initial, perValue: perValue, cancelOnValue: cancelOnValue,
                    cancelOnSubscription: cancelAtOnce)
                subscribers.append(subscriber)
                shared.subscribe(subscriber)
            case .request(let index, let demand): subscribers[index].request(demand)
            case .cancel(let index): subscribers[index].cancel()
            case .send(let value): upstream.send(value)
            case .finish: upstream.send(completion: .finished)
            case .fail: upstream.send(completion: .failure(.boom))
            }
        }
        return upstream.log
            + subscribers.enumerated().map { index, subscriber in
                "subscriber \(index): \(subscriber.events.map(\.description).joined(separator: " "))"
            }
    }

    @Test(arguments: 0..<400)
    func shareBehavesAsMulticastThroughAPassthroughSubjectWithAutoconnect(seed: Int) {
        let steps = Self.script(seed: UInt64(seed))
        let viaShare = Self.run(steps) { $0.share().eraseToAnyPublisher() }
        let viaMulticast = Self.run(steps) {
            $0.multicast { PassthroughSubject<Int, Boom>() }.autoconnect().eraseToAnyPublisher()
        }
        #expect(viaShare == viaMulticast, "seed \(seed): \(steps)")
    }
}
