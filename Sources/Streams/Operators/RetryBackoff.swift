/// How long ``Publisher/retry(maxRetries:backoff:scheduler:shouldRetry:)`` waits before each
/// re-subscription.
///
/// Retries are numbered from 1: retry `k` is the `k`-th re-subscription after a failure.
/// - ``constant(_:)`` waits the same duration before every retry.
/// - ``exponential(initial:multiplier:maxDelay:)`` waits `initial * multiplier^(k - 1)` before retry `k`
///   (so `initial`, `initial * multiplier`, `initial * multiplier²`, …), never more than `maxDelay`.
///
/// Every delay is clamped to `0 ... maxDelay` (or, without `maxDelay`, `0 ... 10⁹ seconds`, about 31
/// years, so the deadline arithmetic of any scheduler cannot overflow). A zero or negative delay
/// re-subscribes at the scheduler's next turn.
///
/// ```swift
/// let backoff = RetryBackoff.exponential(initial: .milliseconds(100), maxDelay: .seconds(2))
/// backoff.delay(beforeRetry: 3)   // 0.4 seconds
/// ```
public enum RetryBackoff: Equatable, Hashable, Sendable {
    /// The same delay before every retry.
    case constant(Duration)
    /// `initial * multiplier^(k - 1)` before retry `k`, capped at `maxDelay` when given.
    case exponential(initial: Duration, multiplier: Double = 2, maxDelay: Duration? = nil)

    /// The longest delay when no `maxDelay` is given: 10⁹ seconds.
    @usableFromInline
    static let ceiling = Duration.seconds(1_000_000_000)

    /// The delay before retry number `retry` (1 for the first re-subscription). Numbers below 1 count as 1.
    ///
    /// ```swift
    /// RetryBackoff.constant(.seconds(1)).delay(beforeRetry: 5)   // 1 second
    /// ```
    @inlinable
    public func delay(beforeRetry retry: Int) -> Duration {
        switch self {
        case .constant(let delay):
            return Self.clamp(delay, to: Self.ceiling)
        case .exponential(let initial, let multiplier, let maxDelay):
            let cap = min(maxDelay ?? Self.ceiling, Self.ceiling)
            let factor = Self.power(multiplier, max(retry, 1) - 1)
            // Estimate in seconds first, so an enormous factor saturates instead of overflowing `Duration`.
            let estimate = Self.seconds(initial) * factor
            guard estimate.isFinite, estimate < Self.seconds(cap) else {
                return estimate.isNaN ? .zero : (estimate < 0 ? .zero : max(cap, .zero))
            }
            return Self.clamp(initial * factor, to: cap)
        }
    }

    @inlinable
    static func clamp(_ delay: Duration, to cap: Duration) -> Duration {
        max(.zero, min(delay, cap))
    }

    @inlinable
    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// `base^exponent` by squaring (exact for small integer bases, saturating to infinity).
    @inlinable
    static func power(_ base: Double, _ exponent: Int) -> Double {
        var result = 1.0
        var square = base
        var remaining = exponent
        while remaining > 0 {
            if remaining & 1 == 1 { result *= square }
            remaining >>= 1
            if remaining > 0 { square *= square }
        }
        return result
    }
}
