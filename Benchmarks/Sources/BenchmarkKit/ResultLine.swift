/// One measurement as printed by a benchmark executable and read by `bench-report`.
///
/// The text form is tab-separated: `RESULT library scenario value unit checksum`.
public struct ResultLine: Equatable, Sendable {
    /// `streams`, `opencombine` or `baseline`.
    public let library: String
    /// Which scenario.
    public let scenario: Scenario
    /// Nanoseconds per operation, or bytes per subscription.
    public let value: Double
    /// What the scenario observed; equal across libraries when they did the same work.
    public let checksum: UInt64

    /// A result.
    public init(library: String, scenario: Scenario, value: Double, checksum: UInt64) {
        self.library = library
        self.scenario = scenario
        self.value = value
        self.checksum = checksum
    }

    /// Parses a line; `nil` for any line that is not a well-formed result.
    public init?(_ text: Substring) {
        let fields = text.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0] == "RESULT", let scenario = Scenario(rawValue: String(fields[2])),
            let value = Double(fields[3]), let checksum = UInt64(fields[5])
        else { return nil }
        self.init(library: String(fields[1]), scenario: scenario, value: value, checksum: checksum)
    }

    /// The printed form.
    public var text: String {
        let rounded = (value * 100).rounded() / 100
        return ["RESULT", library, scenario.rawValue, "\(rounded)", scenario.unit, "\(checksum)"]
            .joined(separator: "\t")
    }
}
