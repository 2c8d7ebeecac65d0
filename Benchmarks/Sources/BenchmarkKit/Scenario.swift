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

    // App-shaped scenarios: written as app code writes them (literal closures inline, no tuned variants).

    /// subject → map, filter, compactMap, scan, removeDuplicates, map, filter, handleEvents, map, map → sink.
    case tenStages = "ten-stages"
    /// subject → map → filter → map → sink, every stage (the subject too) `.eraseToAnyPublisher()`d.
    case chainErased = "chain-erased"
    /// Subscribe and cancel removeDuplicates → scan → compactMap → eraseToAnyPublisher → handleEvents → map.
    case subscribeCancelStateful = "subscribe-cancel-stateful"
    /// A search box: removeDuplicates → debounce (virtual time) → map to `Just` → switchToLatest.
    case search

    // One operator between a subject and a sink (merge and combineLatest: `merge`, `combine-latest`).

    /// subject → `scan` → sink.
    case stageScan = "stage-scan"
    /// subject → `removeDuplicates()` → sink; half of the values are repeats.
    case stageRemoveDuplicates = "stage-remove-duplicates"
    /// subject → `handleEvents(receiveOutput:)` → sink.
    case stageHandleEvents = "stage-handle-events"
    /// subject → `prefix(n)` with n far above the values sent → sink.
    case stagePrefix = "stage-prefix"
    /// subject → `dropFirst(10)` → sink.
    case stageDropFirst = "stage-drop-first"
    /// subject → `tryMap` → sink.
    case stageTryMap = "stage-try-map"
    /// subject → `setFailureType(to:)` → `catch` → sink.
    case stageCatch = "stage-catch"

    // The newer hot-path operators.

    /// subject → `tryFilter` → `tryCompactMap` → `tryScan` → sink.
    case tryChain = "try-chain"
    /// `last()` over a type-erased sequence publisher.
    case last
    /// `count()` over a type-erased sequence publisher.
    case count
    /// `contains(where:)` over a type-erased sequence publisher; only the last value matches.
    case containsWhere = "contains-where"
    /// `combineLatest` of four subjects.
    case combineLatest4 = "combine-latest-4"
    /// `zip` of four subjects.
    case zip4 = "zip-4"
    /// subject → `buffer(size:prefetch: .byRequest, whenFull: .dropOldest)` → a subscriber asking one at a time.
    case buffer

    // Depth scaling: subject → N × map → sink; the cost of one stage is (depth-20 − depth-1) ÷ 19.

    /// subject → 1 × map → sink.
    case depth1 = "depth-1"
    /// subject → 5 × map → sink.
    case depth5 = "depth-5"
    /// subject → 10 × map → sink.
    case depth10 = "depth-10"
    /// subject → 20 × map → sink.
    case depth20 = "depth-20"

    /// The depth-scaling scenarios and their number of `map` stages.
    public static let depths: [(scenario: Scenario, stages: Int)] = [
        (.depth1, 1), (.depth5, 5), (.depth10, 10), (.depth20, 20),
    ]

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
        case .subscribeCancelStateful: 100_000
        case .search: 500_000
        case .tenStages, .chainErased, .stageScan, .stageRemoveDuplicates, .stageHandleEvents, .stagePrefix,
            .stageDropFirst, .stageTryMap, .stageCatch, .tryChain, .last, .count, .containsWhere, .combineLatest4,
            .zip4, .buffer, .depth1, .depth5, .depth10, .depth20:
            1_000_000
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
        case .subscribeCancel, .subscribeCancelStateful: "per subscribe+cancel"
        case .shareFanOut: "per delivery"
        case .debounce, .search: "per input"
        case .tenStages, .chainErased, .stageScan, .stageRemoveDuplicates, .stageHandleEvents, .stagePrefix,
            .stageDropFirst, .stageTryMap, .stageCatch, .tryChain, .last, .count, .containsWhere, .combineLatest4,
            .zip4, .buffer, .depth1, .depth5, .depth10, .depth20:
            "per value"
        case .flatMap: "per inner Just"
        }
    }
}
