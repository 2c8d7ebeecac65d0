// Shows debounce versus throttle on a TestScheduler: the same keystrokes, printed as marble timelines.
// Run: swift run debounce-vs-throttle   (virtual time: finishes at once)
import Streams
import StreamsTesting

let scheduler = TestScheduler(frameDuration: .milliseconds(100))  // one character = 100 ms
let keys = try scheduler.hot("-ab-c------de-f-g---|")

let debounced = keys.debounce(for: .milliseconds(300), scheduler: scheduler).record(on: scheduler)
let throttled = keys.throttle(for: .milliseconds(300), scheduler: scheduler, latest: true).record(on: scheduler)
let firstOfWindow = keys.throttle(for: .milliseconds(300), scheduler: scheduler, latest: false)
    .record(on: scheduler)
let input = keys.record(on: scheduler)
scheduler.run()

print("one character = 100 ms of virtual time; both operators use a 300 ms window\n")
print("keystrokes          \(input.marbles)")
print("debounce            \(debounced.marbles)   waits for 300 ms of quiet, then the last key")
print("throttle latest     \(throttled.marbles)   the first key at once, then the newest of each window")
print("throttle first      \(firstOfWindow.marbles)   the first key at once, then the first of each window")
