/// The results of several runs, summarised per scenario and library: what `bench-report` prints.
public struct Summary {
    /// Median, minimum and maximum of one scenario for one library.
    public struct Figures: Equatable, Sendable {
        /// The median of the runs (the mean of the two middle ones for an even count).
        public let median: Double
        /// The fastest (smallest) run.
        public let minimum: Double
        /// The slowest (largest) run.
        public let maximum: Double
        /// How many runs.
        public let runs: Int

        /// The figures of `values` (not empty).
        public init(_ values: [Double]) {
            let sorted = values.sorted()
            let middle = sorted.count / 2
            median = sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
            minimum = sorted[0]
            maximum = sorted[sorted.count - 1]
            runs = sorted.count
        }
    }

    /// A problem that makes the results untrustworthy.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// Two results of one scenario observed different checksums: the libraries did different work.
        case checksumMismatch(Scenario, [String: UInt64])

        /// A readable explanation.
        public var description: String {
            switch self {
            case .checksumMismatch(let scenario, let checksums):
                let listed = checksums.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                return "\(scenario.rawValue): checksums differ (\(listed.joined(separator: ", "))): not the same work"
            }
        }
    }

    /// Figures per scenario and library.
    public let figures: [Scenario: [String: Figures]]

    /// Summarises `results`; throws if the checksums of one scenario differ.
    public init(_ results: [ResultLine]) throws {
        var values: [Scenario: [String: [Double]]] = [:]
        var checksums: [Scenario: [String: UInt64]] = [:]
        for result in results {
            values[result.scenario, default: [:]][result.library, default: []].append(result.value)
            if let known = checksums[result.scenario]?.values.first, known != result.checksum {
                checksums[result.scenario, default: [:]][result.library] = result.checksum
                throw Problem.checksumMismatch(result.scenario, checksums[result.scenario] ?? [:])
            }
            checksums[result.scenario, default: [:]][result.library] = result.checksum
        }
        figures = values.mapValues { $0.mapValues(Figures.init) }
    }

    /// The cost of one more `map` stage for `library`, in ns per value: the slope between the shallowest and
    /// the deepest depth-scaling scenario, `nil` unless both ran.
    public func nanosecondsPerStage(_ library: String) -> Double? {
        guard let shallowest = Scenario.depths.first, let deepest = Scenario.depths.last,
            let low = figures[shallowest.scenario]?[library], let high = figures[deepest.scenario]?[library]
        else { return nil }
        return (high.median - low.median) / Double(deepest.stages - shallowest.stages)
    }

    /// The ratio of two libraries' medians for `scenario`, if both ran it.
    public func ratio(_ scenario: Scenario, _ library: String, over other: String) -> Double? {
        guard let mine = figures[scenario]?[library], let theirs = figures[scenario]?[other], theirs.median > 0
        else { return nil }
        return mine.median / theirs.median
    }
}

/// The targets of issue 8, as issue 24 restates them: Streams time (or memory) ÷ OpenCombine's, median of the same
/// run.
public enum Target {
    /// The highest Streams/OpenCombine ratio the issue accepts for `scenario`, if it sets one.
    public static func streamsOverOpenCombine(_ scenario: Scenario) -> Double? {
        switch scenario {
        case .shareFanOut: 0.05
        // Per-value chains of any shape.
        case .chain, .sequence, .tenStages, .chainErased, .stageScan, .stageRemoveDuplicates, .stageHandleEvents,
            .stagePrefix, .stageDropFirst, .stageTryMap, .stageCatch, .stageReplaceError, .stageCollect,
            .stageReplaceEmpty, .stagePrefixUntilOutput, .currentValueSubject, .published, .multicast,
            .tryChain,
            .last, .count,
            .containsWhere, .zip4, .buffer, .depth1, .depth5, .depth10, .depth20, .mapKeyPath, .objectWillChange,
            .assign, .retryFeed, .switchToLive:
            0.10
        case .subscribeCancel, .subscribeCancelStateful, .subscribeCancelOneShot, .subscribeCancelFallible,
            .subscribeCancelCurrentValue:
            0.20
        // The issue sets debounce's; the other timing operators on virtual time are held to the same.
        case .debounce, .throttle, .timeout, .delay, .receiveOn: 0.25
        case .search: 0.20
        // flatMap-shaped: the issue's flatMap target.
        case .flatMap, .flatMapSerial, .switchToCached, .flatMapFuture: 0.12
        // Issue 8 set 0.5; issue 24 asks for 0.45 per live subscription.
        case .memoryHeap, .memoryResident, .memoryHeapStoredClosures, .memoryHeapStateful, .memoryHeapTimed: 0.45
        // No OpenCombine figure (merge, combineLatest) or no target set (values, sequence-collect).
        // Scaling curves: read as curves (flat = linear), not against a ratio.
        case .fanOut1, .fanOut10, .fanOut100, .fanOut10k, .live1k, .live10k, .live100k, .live1m, .liveMemory1k,
            .liveMemory10k, .liveMemory1m:
            nil
        case .merge, .combineLatest, .combineLatest4, .withLatestFrom, .values, .sequenceCollect: nil
        }
    }

    /// The highest Streams/baseline ratio the issue accepts for `scenario` (only the chain has one).
    public static func streamsOverBaseline(_ scenario: Scenario) -> Double? {
        scenario == .chain ? 3 : nil
    }
}
