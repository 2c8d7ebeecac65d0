/// A number written where a `Duration` is expected means seconds, as with Combine's scheduler strides:
/// `debounce(for: 0.8, scheduler: s)` waits 0.8 s, `delay(for: 1, scheduler: s)` one second.
///
/// `.seconds(0.5)` and `.milliseconds(300)` already work (they are `Duration`'s own); this lets Combine code
/// with bare numbers compile unchanged. It applies wherever `Streams` is imported.
///
/// ```swift
/// let search = query.debounce(for: 0.3, scheduler: scheduler)
/// ```
extension Duration: @retroactive ExpressibleByIntegerLiteral, @retroactive ExpressibleByFloatLiteral {
    /// `value` seconds.
    public init(integerLiteral value: Int64) { self = .seconds(value) }

    /// `value` seconds (to the attosecond `Duration.seconds(_:)` keeps).
    public init(floatLiteral value: Double) { self = .seconds(value) }
}
