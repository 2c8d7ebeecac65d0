// Shows the subscription handshake and demand: a custom subscriber that asks for values two at a time.
// Run: swift run demand
import Streams

/// Requests two values when subscribed, and two more after every second value.
final class TwoAtATime: Subscriber {
    private var received = 0

    func receive(subscription: any Subscription) {
        print("1. subscribed: got the subscription, requesting 2")
        subscription.request(.max(2))
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        received += 1
        if received.isMultiple(of: 2) {
            print("   received \(input) → that was 2, requesting 2 more")
            return .max(2)
        }
        print("   received \(input)")
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        print("2. finished after \(received) values, requested in batches of 2")
    }
}

print("A publisher never sends more values than the subscriber asked for.")
(1...7).publisher
    .handleEvents(receiveRequest: { print("   upstream was asked for \($0)") })
    .subscribe(TwoAtATime())
