// Shows subjects and share(): two subscribers, one upstream subscription, each value computed once.
// Run: swift run subjects-and-share
import Streams

let prices = PassthroughSubject<Int, Never>()
let converted =
    prices
    .handleEvents(receiveSubscription: { _ in print("upstream subscribed (once)") })
    .map { cents -> String in
        print("  converting \(cents) (expensive work, done once per value)")
        return "€\(cents / 100).\(String(format2: cents % 100))"
    }
    .share()

var cancellables = Set<AnyCancellable>()
converted.sink { print("  screen shows \($0)") }.store(in: &cancellables)
converted.sink { print("  log writes \($0)") }.store(in: &cancellables)

print("sending 1999 and 250 to two subscribers:")
prices.send(1999)
prices.send(250)

let temperature = CurrentValueSubject<Int, Never>(21)
print("a CurrentValueSubject gives a new subscriber its current value at once:")
temperature.sink { print("  temperature is \($0)°C") }.store(in: &cancellables)
temperature.value = 23
print("done: \(cancellables.count) subscriptions, one upstream subscription to prices")

extension String {
    /// Two digits, zero-padded (no Foundation needed).
    init(format2 value: Int) { self = value < 10 ? "0\(value)" : "\(value)" }
}
