// Shows a marble test written and run outside a test target: compareMarbles prints what matched or differed.
// Run: swift run marbles
import Streams
import StreamsTesting

let scheduler = TestScheduler()
let input = try scheduler.hot("-a-b------c|")
let debounced = input.debounce(for: scheduler.frames(3), scheduler: scheduler)

print("input      -a-b------c|   debounced by 3 frames")
print(compareMarbles(debounced, "------b----(c|)", on: scheduler))

let again = TestScheduler()
let retried = try again.cold("--#", "--a|", error: ExampleError())
print("\nAn expectation that is wrong on purpose (it forgets the failed first attempt):")
print(compareMarbles(retried.retry(1), "--a|", on: again))
print(compareSubscriptions(retried, ["^", "--^"]))

struct ExampleError: Error {}
