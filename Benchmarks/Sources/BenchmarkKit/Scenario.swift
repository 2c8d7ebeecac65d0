/// The benchmark scenarios of issue 8, with their sizes, shared by every executable so that each library
/// runs exactly the same work.
///
/// Each scenario reports one figure per run: nanoseconds per operation (`ns`) or bytes per live
/// subscription (`B`). The operation is named by ``operation``.
public enum Scenario: String, CaseIterable, Sendable {
    /// 7. Memory per live subscription (subject → map → filter → sink), from the process's RSS.
    case memoryResident = "memory-rss"
    /// 7. Memory per live subscription (subject → map → filter → sink), from the malloc heap. The closures
    /// are literals, as app code writes them.
    case memoryHeap = "memory-heap"
    /// 7. The same, with the closures passed as stored values (`Closures.increment`): converting a stored
    /// `(Int) -> Int` to a generic operator's parameter makes the caller allocate a 48-byte reabstraction
    /// thunk per `map`/`filter` call, in every library alike. Heap only.
    case memoryHeapStoredClosures = "memory-heap-stored"
    /// 1. `PassthroughSubject` → `map` → `filter` → `map` → `sink`.
    case chain
    /// 2. `(0..<n).publisher` type-erased → `map` → `filter` → `sink`.
    case sequence
    /// 3. Subscribe and cancel a 5-operator chain on a subject.
    case subscribeCancel = "subscribe-cancel"
    /// 4. One subject, `share()`, 1,000 subscribers.
    case shareFanOut = "share-fanout"
    /// 5. `debounce` on a virtual-time scheduler; half of the inputs survive.
    case debounce
    /// 6. `flatMap` over inner `Just`s.
    case flatMap = "flatmap"
    /// 6. `merge` of two subjects.
    case merge
    /// 6. `combineLatest` of two subjects.
    case combineLatest = "combine-latest"
    /// 8. The `values` async bridge over a sequence publisher.
    case values

    /// How many operations one run performs (the divisor of the figure).
    public var count: Int {
        switch self {
        case .memoryResident, .memoryHeap, .memoryHeapStoredClosures: 100_000
        case .chain: 2_000_000
        case .sequence: 1_000_000
        case .subscribeCancel: 100_000
        case .shareFanOut: Self.fanOutSubscribers * Self.fanOutValues
        case .debounce: 1_000_000
        case .flatMap: 500_000
        case .merge, .combineLatest: 1_000_000
        case .values: 200_000
        }
    }

    /// Subscribers of the `share()` fan-out scenario.
    public static let fanOutSubscribers = 1_000
    /// Values sent through the `share()` fan-out scenario (each reaches every subscriber).
    public static let fanOutValues = 1_000

    /// The unit of the figure.
    public var unit: String {
        switch self {
        case .memoryResident, .memoryHeap, .memoryHeapStoredClosures: "B"
        default: "ns"
        }
    }

    /// What one operation is, for the table.
    public var operation: String {
        switch self {
        case .memoryResident, .memoryHeap, .memoryHeapStoredClosures: "per live subscription"
        case .chain, .sequence, .merge, .combineLatest, .values: "per value"
        case .subscribeCancel: "per subscribe+cancel"
        case .shareFanOut: "per delivery"
        case .debounce: "per input"
        case .flatMap: "per inner Just"
        }
    }
}
