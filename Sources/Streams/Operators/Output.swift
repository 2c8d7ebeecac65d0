extension Publisher {
    /// Republishes only the value at position `index` (0-based) of the upstream's values.
    ///
    /// The same as `output(in: index...index)`: see ``Publisher/output(in:)`` for the contract. As in
    /// Combine, the stream finishes when the value *after* the one at `index` arrives, not at once.
    /// - Precondition: `0 <= index < Int.max`.
    ///
    /// ```swift
    /// let c = (1...10).publisher.output(at: 5).sink { print($0) }   // 6
    /// ```
    @inlinable
    public func output(at index: Int) -> Publishers.Output<Self> {
        precondition(index >= 0, "output(at:): index must not be negative")
        precondition(index < .max, "output(at:): index must be less than Int.max")
        return Publishers.Output(upstream: self, range: index..<(index + 1))
    }

    /// Republishes the values whose positions (0-based) among the upstream's values are in `range`.
    ///
    /// - Values: those before the range are dropped, those in it republished. As in Combine, the stream
    ///   finishes when the first value *past* the range arrives: the upstream is cancelled and `.finished`
    ///   sent, without publishing that value. So it does not finish before the upstream sends one more value
    ///   or completes (unlike ``Publisher/prefix(_:)``, which finishes at its last value). An upstream
    ///   completion before then is forwarded.
    /// - Demand: passes straight through; a value dropped before the range asks upstream for one more in its
    ///   place (`.max(1)`, as in Combine).
    /// - Cancellation: cancels upstream; nothing reaches the subscriber after it.
    /// - Range: any `RangeExpression` of `Int` (`2..<5`, `2...4`, `..<3`, `2...`), taken relative to
    ///   `0..<Int.max`; its bounds must not be negative.
    ///
    /// ```swift
    /// let c = [1, 1, 2, 2, 2, 3, 4].publisher.output(in: 3...5).sink { print($0) }   // 2 2 3
    /// ```
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
        Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/output(at:)`` and ``Publisher/output(in:)``.
    ///
    /// (Combine's `prefix(_:)` returns this type too; here ``Publisher/prefix(_:)`` returns
    /// ``Publishers/Prefix``, which finishes at its last value.)
    public struct Output<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are selected.
        public let upstream: Upstream
        /// The positions (0-based) of the values republished.
        public let range: CountableRange<Int>

        /// Creates the operator. Neither bound of `range` may be negative.
        @inlinable
        public init(upstream: Upstream, range: CountableRange<Int>) {
            precondition(range.lowerBound >= 0, "output(in:): lowerBound must not be negative")
            precondition(range.upperBound >= 0, "output(in:): upperBound must not be negative")
            self.upstream = upstream
            self.range = range
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let countdown = StepState((untilStart: range.lowerBound, remaining: range.count))
            let inner = ValueStepStage<Output, Failure, S>(
                downstream: subscriber, name: .output,
                step: { value in
                    if countdown.value.untilStart > 0 {
                        countdown.value.untilStart -= 1
                        return .drop
                    }
                    guard countdown.value.remaining > 0 else { return .finish }
                    countdown.value.remaining -= 1
                    return .publish(value)
                })
            upstream.receive(subscriber: inner)
        }
    }
}

/// Equal when the upstreams are equal and the ranges are the same, as in Combine.
extension Publishers.Output: Equatable where Upstream: Equatable {}
