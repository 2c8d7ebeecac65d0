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
    /// Memory per live subscription of another shape: a `CurrentValueSubject` → `removeDuplicates` → `scan` →
    /// `sink(receiveCompletion:receiveValue:)`, closures written as literals. Heap only.
    case memoryHeapStateful = "memory-heap-stateful"
    /// Memory per live subscription of a search box's pipeline, timing operators included: subject →
    /// `removeDuplicates` → `debounce` → `map` → `receive(on:)` → `sink` (a virtual-time scheduler that never runs).
    /// Heap only.
    case memoryHeapTimed = "memory-heap-timed"
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
    /// subject → `throttle(latest: true)` (virtual time) → sink: a stream of positions thinned to one per interval.
    case throttle
    /// subject → `timeout` (virtual time) → sink, values well within the interval: every value restarts the timer.
    case timeout
    /// subject → `delay` (virtual time) → sink: every value waits 5 ms.
    case delay
    /// subject → `receive(on:)` (virtual time) → sink: values sent in bursts of ten, delivered when the scheduler runs.
    case receiveOn = "receive-on"

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
    /// subject (that can fail) → `replaceError(with:)` → sink.
    case stageReplaceError = "stage-replace-error"
    /// subject → `collect(10)` (batches of ten) → sink.
    case stageCollect = "stage-collect"
    /// subject → `replaceEmpty(with:)` → sink.
    case stageReplaceEmpty = "stage-replace-empty"
    /// subject → `prefix(untilOutputFrom:)` a second subject that never fires (a lifetime signal) → sink.
    case stagePrefixUntilOutput = "stage-prefix-until-output"
    /// `CurrentValueSubject` → `map` → sink, the value set by `send`.
    case currentValueSubject = "current-value-subject"
    /// A view model's `@Published` property set by the app; `$property` → `map` → `removeDuplicates` → sink.
    case published = "published"
    /// subject → `multicast(subject:)` → `autoconnect()` → sink.
    case multicast = "multicast"

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
    /// Subscribe and cancel a one-shot lookup: compactMap → first → flatMap (a batch as an array's publisher,
    /// collected) → replaceEmpty → sink.
    case subscribeCancelOneShot = "subscribe-cancel-oneshot"
    /// Subscribe and cancel a request's pipeline before it answers: retry → catch (a fallback `Just`) → map → filter.
    case subscribeCancelFallible = "subscribe-cancel-fallible"
    /// Batches handled one at a time: `(0..<n).publisher` → `flatMap(maxPublishers: .max(1))` over each batch's
    /// array publisher → sink.
    case flatMapSerial = "flatmap-serial"

    // Shapes a sweep of new shapes found slow (issue 24's twenty-fourth round).

    /// Items (a struct with a `String`) → `map(\.price)` → `filter` → sink.
    case mapKeyPath = "map-key-path"
    /// An `ObservableObject`'s `@Published` property set; `objectWillChange` → sink.
    case objectWillChange = "object-will-change"
    /// A one-shot batch: an array of 100 numbers → `.publisher` → `collect()` → sink, per batch.
    case sequenceCollect = "sequence-collect"

    // Shapes a sweep of new shapes found slow (issue 24's twenty-ninth round).

    /// A lookup answered from a cache: a `String` subject → `map` to a `Just` of the cached count → `switchToLatest`
    /// → sink.
    case switchToCached = "switch-to-cached"
    /// Subscribe to a view model's state and cancel: a `CurrentValueSubject` of a `String` → `removeDuplicates` →
    /// `map` → sink (the kept value is delivered at once), then cancel.
    case subscribeCancelCurrentValue = "subscribe-cancel-current-value"

    // Shapes a sweep of new shapes found slow (issue 24's thirty-second round).

    /// A view's field bound to a stream: subject → `map` → `assign(to: \.percent, on: model)`, the model a class.
    case assign = "assign"
    /// A live feed that can fail, kept alive by retrying: subject → `retry(3)` → `catch` (a fallback `Just`) → `map`
    /// → sink, per value.
    case retryFeed = "retry-feed"

    // A shape a sweep of new shapes found slow (issue 24's thirty-fifth round).

    /// A screen that follows the selected room's live feed: a subject of feeds (each a `PassthroughSubject`) →
    /// `switchToLatest` → `map` → sink; a new feed every 100 values.
    case switchToLive = "switch-to-live"

    // Shapes added with the thirty-seventh round (issue 24).

    /// Details looked up for each id, answered from a cache: a subject of ids → `flatMap` over a
    /// `Deferred { Future { … } }` whose promise is kept at once → sink.
    case flatMapFuture = "flatmap-future"
    /// A save button that sends the form's latest text: taps (a subject) → `withLatestFrom` the text (a
    /// `CurrentValueSubject`, changed every 50 taps) → `map` → sink. Streams only: OpenCombine has no
    /// `withLatestFrom` (nor has Combine).
    case withLatestFrom = "with-latest-from"

    // Depth scaling: subject → N × map → sink; the cost of one stage is (depth-20 − depth-1) ÷ 19.

    /// subject → 1 × map → sink.
    case depth1 = "depth-1"
    /// subject → 5 × map → sink.
    case depth5 = "depth-5"
    /// subject → 10 × map → sink.
    case depth10 = "depth-10"
    /// subject → 20 × map → sink.
    case depth20 = "depth-20"

    // Fan-out scaling: one subject, `share()`, N subscribers (`share-fanout` is N = 1,000); ns per delivery.

    /// `share()` with 1 subscriber.
    case fanOut1 = "fanout-1"
    /// `share()` with 10 subscribers.
    case fanOut10 = "fanout-10"
    /// `share()` with 100 subscribers.
    case fanOut100 = "fanout-100"
    /// `share()` with 10,000 subscribers.
    case fanOut10k = "fanout-10000"

    // Live-subscription scaling: N subscriptions (subject → map → filter → sink) on one subject, stored in a
    // `Set<AnyCancellable>` as an app stores them; one value sent to all of them; the set emptied (every one
    // cancelled). ns per subscription, for the whole life of one. Memory: the heap each keeps while live
    // (`memory-heap` is N = 100,000).

    /// 1,000 live subscriptions.
    case live1k = "live-1k"
    /// 10,000 live subscriptions.
    case live10k = "live-10k"
    /// 100,000 live subscriptions.
    case live100k = "live-100k"
    /// 1,000,000 live subscriptions.
    case live1m = "live-1m"
    /// Heap per live subscription with 1,000 of them.
    case liveMemory1k = "live-memory-1k"
    /// Heap per live subscription with 10,000 of them.
    case liveMemory10k = "live-memory-10k"
    /// Heap per live subscription with 1,000,000 of them.
    case liveMemory1m = "live-memory-1m"

    /// The depth-scaling scenarios and their number of `map` stages.
    public static let depths: [(scenario: Scenario, stages: Int)] = [
        (.depth1, 1), (.depth5, 5), (.depth10, 10), (.depth20, 20),
    ]

    /// The fan-out scaling scenarios and their number of subscribers.
    public static let fanOuts: [(scenario: Scenario, subscribers: Int)] = [
        (.fanOut1, 1), (.fanOut10, 10), (.fanOut100, 100), (.shareFanOut, 1_000), (.fanOut10k, 10_000),
    ]

    /// The live-subscription scaling scenarios (time) and their number of subscriptions.
    public static let lives: [(scenario: Scenario, subscriptions: Int)] = [
        (.live1k, 1_000), (.live10k, 10_000), (.live100k, 100_000), (.live1m, 1_000_000),
    ]

    /// The live-subscription scaling scenarios (memory) and their number of subscriptions.
    public static let liveMemories: [(scenario: Scenario, subscriptions: Int)] = [
        (.liveMemory1k, 1_000), (.liveMemory10k, 10_000), (.memoryHeap, 100_000), (.liveMemory1m, 1_000_000),
    ]

    /// How many operations one run performs (the divisor of the figure).
    public var count: Int {
        switch self {
        case .memoryResident, .memoryHeap, .memoryHeapStoredClosures, .memoryHeapStateful, .memoryHeapTimed:
            100_000
        case .chain: 2_000_000
        case .sequence: 1_000_000
        case .subscribeCancel: 100_000
        case .shareFanOut: Self.fanOutSubscribers * Self.fanOutValues
        case .debounce, .throttle, .timeout, .delay, .receiveOn: 1_000_000
        case .flatMap: 500_000
        case .merge, .combineLatest: 1_000_000
        case .values: 200_000
        case .subscribeCancelStateful, .subscribeCancelOneShot, .subscribeCancelFallible,
            .subscribeCancelCurrentValue:
            100_000
        case .flatMapSerial: 1_000_000
        case .mapKeyPath, .objectWillChange: 1_000_000
        case .sequenceCollect: 100_000
        case .switchToCached: 1_000_000
        case .assign: 1_000_000
        case .retryFeed: 1_000_000
        case .switchToLive: 1_000_000
        case .flatMapFuture: 500_000
        case .withLatestFrom: 1_000_000
        case .search: 500_000
        case .tenStages, .chainErased, .stageScan, .stageRemoveDuplicates, .stageHandleEvents, .stagePrefix,
            .stageDropFirst, .stageTryMap, .stageCatch, .stageReplaceError, .stageCollect, .stageReplaceEmpty,
            .stagePrefixUntilOutput, .currentValueSubject, .published, .multicast,
            .tryChain, .last, .count,
            .containsWhere,
            .combineLatest4, .zip4, .buffer, .depth1, .depth5, .depth10, .depth20:
            1_000_000
        case .fanOut1, .fanOut10, .fanOut100, .fanOut10k: 1_000_000
        case .live1k, .liveMemory1k: 1_000
        case .live10k, .liveMemory10k: 10_000
        case .live100k: 100_000
        case .live1m, .liveMemory1m: 1_000_000
        }
    }

    /// The subscribers of a fan-out scenario (`nil` for the others).
    public var subscribers: Int? { Self.fanOuts.first { $0.scenario == self }?.subscribers }

    /// Subscribers of the `share()` fan-out scenario.
    public static let fanOutSubscribers = 1_000
    /// Values sent through the `share()` fan-out scenario (each reaches every subscriber).
    public static let fanOutValues = 1_000

    /// The unit of the figure.
    public var unit: String {
        switch self {
        case .memoryResident, .memoryHeap, .memoryHeapStoredClosures, .memoryHeapStateful, .memoryHeapTimed,
            .liveMemory1k, .liveMemory10k, .liveMemory1m:
            "B"
        default: "ns"
        }
    }

    /// What one operation is, for the table.
    public var operation: String {
        switch self {
        case .memoryResident, .memoryHeap, .memoryHeapStoredClosures, .memoryHeapStateful, .memoryHeapTimed,
            .liveMemory1k, .liveMemory10k, .liveMemory1m:
            "per live subscription"
        case .live1k, .live10k, .live100k, .live1m: "per subscription (subscribe, one value, cancel)"
        case .fanOut1, .fanOut10, .fanOut100, .fanOut10k: "per delivery"
        case .chain, .sequence, .merge, .combineLatest, .values: "per value"
        case .subscribeCancel, .subscribeCancelStateful, .subscribeCancelOneShot, .subscribeCancelFallible,
            .subscribeCancelCurrentValue:
            "per subscribe+cancel"
        case .shareFanOut: "per delivery"
        case .debounce, .search, .throttle, .timeout, .delay, .receiveOn: "per input"
        case .tenStages, .chainErased, .stageScan, .stageRemoveDuplicates, .stageHandleEvents, .stagePrefix,
            .stageDropFirst, .stageTryMap, .stageCatch, .stageReplaceError, .stageCollect, .stageReplaceEmpty,
            .stagePrefixUntilOutput, .currentValueSubject, .published, .multicast,
            .tryChain, .last, .count,
            .containsWhere,
            .combineLatest4, .zip4, .buffer, .depth1, .depth5, .depth10, .depth20:
            "per value"
        case .flatMap: "per inner Just"
        case .flatMapSerial: "per value"
        case .mapKeyPath: "per value"
        case .objectWillChange: "per change"
        case .sequenceCollect: "per batch of 100"
        case .switchToCached: "per value"
        case .assign: "per value"
        case .retryFeed: "per value"
        case .switchToLive: "per value"
        case .flatMapFuture: "per inner Future"
        case .withLatestFrom: "per tap"
        }
    }
}
