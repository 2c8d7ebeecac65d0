// Shows retry with exponential back-off against a publisher that fails twice, on virtual time.
// Run: swift run retry-backoff
import Streams
import StreamsTesting

struct ServerDown: Error, CustomStringConvertible {
    var description: String { "503 Service Unavailable" }
}

let scheduler = TestScheduler()
var attempts = 0
let flakyRequest = Deferred {
    attempts += 1
    let attempt = attempts
    print("t = \(scheduler.now.offset): attempt \(attempt)", terminator: "")
    if attempt <= 2 {
        print(" → fails")
        return Fail<String, ServerDown>(error: ServerDown()).eraseToAnyPublisher()
    }
    print(" → succeeds")
    return Just("200 OK").setFailureType(to: ServerDown.self).eraseToAnyPublisher()
}

let recorder =
    flakyRequest
    .retry(maxRetries: 3, backoff: .exponential(initial: .milliseconds(100)), scheduler: scheduler)
    .record(on: scheduler)
scheduler.run()
print("back-off waited 100 ms, then 200 ms; the subscriber saw only: \(recorder.events)")
