import CMallocInfo

#if canImport(Glibc)
    import Glibc
#endif

/// Runs scenarios, times them and prints one result line per scenario.
///
/// A scenario body gets the number of operations to perform and returns a checksum of what it
/// observed (e.g. the sum of the values a sink received); `bench-report` refuses results whose
/// checksums differ between libraries, so every library provably did the same work.
public struct BenchmarkRunner {
    /// The library name printed in every line (`streams`, `opencombine`, `baseline`).
    public let library: String
    private let selected: Set<Scenario>

    /// A runner for `library`; runs the scenarios named on the command line, or all when none is.
    public init(library: String, arguments: [String] = Array(CommandLine.arguments.dropFirst())) {
        self.library = library
        let named = arguments.compactMap(Scenario.init(rawValue:))
        if named.count != arguments.count {
            let known = Scenario.allCases.map(\.rawValue).joined(separator: " ")
            print("unknown scenario in \(arguments); known: \(known)")
            exit(2)
        }
        selected = Set(named.isEmpty ? Scenario.allCases : named)
    }

    /// Whether `scenario` was selected.
    public func wants(_ scenario: Scenario) -> Bool { selected.contains(scenario) }

    /// Times `body` for `scenario`: a warm-up run with a tenth of the operations, then the measured run.
    public func time(_ scenario: Scenario, _ body: (Int) -> UInt64) {
        guard wants(scenario) else { return }
        _ = body(max(1, scenario.count / 10))
        let start = Clock.nanoseconds()
        let checksum = body(scenario.count)
        let elapsed = Clock.nanoseconds() - start
        report(scenario, value: Double(elapsed) / Double(scenario.count), checksum: checksum)
    }

    /// Times an `async` `body` for `scenario` (same protocol as ``time(_:_:)``).
    public func time(_ scenario: Scenario, _ body: (Int) async -> UInt64) async {
        guard wants(scenario) else { return }
        _ = await body(max(1, scenario.count / 10))
        let start = Clock.nanoseconds()
        let checksum = await body(scenario.count)
        let elapsed = Clock.nanoseconds() - start
        report(scenario, value: Double(elapsed) / Double(scenario.count), checksum: checksum)
    }

    /// Measures the memory that live subscriptions keep: `body` creates `count` subscriptions, keeps
    /// them alive (in storage the caller reserved beforehand, so it is not counted) and returns a checksum
    /// proving they are live. The heap and RSS growth is divided by the count; both memory scenarios come
    /// from this one measurement. The caller releases the subscriptions afterwards.
    /// Measures the heap growth alone for `scenario` (see ``measureMemory(_:)``).
    public func measureHeap(_ scenario: Scenario, _ body: (Int) -> UInt64) {
        guard wants(scenario) else { return }
        let count = scenario.count
        let heapBefore = Memory.heapBytes()
        let checksum = body(count)
        let heapAfter = Memory.heapBytes()
        report(scenario, value: Double(heapAfter - heapBefore) / Double(count), checksum: checksum)
    }

    public func measureMemory(_ body: (Int) -> UInt64) {
        guard wants(.memoryHeap) || wants(.memoryResident) else { return }
        let count = Scenario.memoryHeap.count
        let heapBefore = Memory.heapBytes()
        let residentBefore = Memory.residentBytes()
        let checksum = body(count)
        let heapAfter = Memory.heapBytes()
        let residentAfter = Memory.residentBytes()
        if wants(.memoryResident) {
            report(.memoryResident, value: Double(residentAfter - residentBefore) / Double(count), checksum: checksum)
        }
        if wants(.memoryHeap) {
            report(.memoryHeap, value: Double(heapAfter - heapBefore) / Double(count), checksum: checksum)
        }
    }

    /// Prints `RESULT<TAB>library<TAB>scenario<TAB>value<TAB>unit<TAB>checksum`.
    public func report(_ scenario: Scenario, value: Double, checksum: UInt64) {
        let line = ResultLine(
            library: library, scenario: scenario, value: value, checksum: checksum)
        print(line.text)
    }
}

/// A monotonic clock in nanoseconds.
public enum Clock {
    /// Nanoseconds on `CLOCK_MONOTONIC`.
    public static func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}

/// The process's memory, as the memory scenario reads it.
public enum Memory {
    /// Bytes in use on the malloc heap (`mallinfo2`: allocated arena bytes plus mmapped blocks).
    public static func heapBytes() -> Int {
        Int(c_malloc_heap_bytes())
    }

    /// Resident set size in bytes, from `/proc/self/statm` (its second field, in pages).
    public static func residentBytes() -> Int {
        guard let file = fopen("/proc/self/statm", "r") else { return 0 }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = fread(&buffer, 1, buffer.count, file)
        let fields = String(decoding: buffer[..<length], as: UTF8.self).split(separator: " ").compactMap { Int($0) }
        guard fields.count >= 2 else { return 0 }
        return fields[1] * sysconf(Int32(_SC_PAGESIZE))
    }
}
