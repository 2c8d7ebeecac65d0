/// Namespace for subscriber types and the types of the subscription handshake.
public enum Subscribers {}

extension Subscribers {
    /// How many more values a subscriber is ready to receive.
    ///
    /// Demand only grows by requests and by what `receive(_:)` returns, and shrinks by one for each
    /// value delivered. ``unlimited`` is sticky. Arithmetic saturates as in Combine: adding to `.unlimited`, or a
    /// sum or product beyond `Int.max`, gives `.unlimited`; subtraction never goes below `.none`, and anything
    /// subtracted from `.unlimited` leaves `.unlimited`. Where Combine traps on a negative result (`.max(1) - 5`,
    /// `.max(2) * -1`), the result is `.none`. Encoded as one unsigned integer, `.unlimited` as `Int.max + 1`, as
    /// Combine does.
    ///
    /// ```swift
    /// var demand = Subscribers.Demand.max(2)
    /// demand += 1            // .max(3)
    /// demand -= .unlimited   // .none
    /// ```
    public struct Demand: Equatable, Comparable, Hashable, Sendable, CustomStringConvertible {
        @usableFromInline
        let rawValue: UInt

        @inlinable
        init(rawValue: UInt) { self.rawValue = rawValue }

        /// As many values as the publisher can produce.
        @inlinable
        public static var unlimited: Demand { Demand(rawValue: .max) }

        /// No values: `.max(0)`.
        @inlinable
        public static var none: Demand { Demand(rawValue: 0) }

        /// At most `value` values. `value` must not be negative (a programming error, as in Combine).
        @inlinable
        public static func max(_ value: Int) -> Demand {
            precondition(value >= 0, "Subscribers.Demand.max: a demand cannot be negative")
            return Demand(rawValue: UInt(value))
        }

        /// The bounded count, or `nil` for ``unlimited``.
        @inlinable
        public var max: Int? { rawValue == .max ? nil : Int(clamping: rawValue) }

        /// A readable form: `unlimited` or `max(n)`.
        public var description: String { self == .unlimited ? "unlimited" : "max(\(rawValue))" }

        /// The sum of two demands, saturating at ``unlimited``.
        @inlinable
        public static func + (lhs: Demand, rhs: Demand) -> Demand {
            let (sum, overflow) = lhs.rawValue.addingReportingOverflow(rhs.rawValue)
            return overflow ? .unlimited : bounded(sum)
        }

        /// `raw` as a demand: `.unlimited` beyond `Int.max` (the largest bounded demand, as in Combine).
        @inlinable
        static func bounded(_ raw: UInt) -> Demand { raw > UInt(Int.max) ? .unlimited : Demand(rawValue: raw) }

        /// Adds `rhs` in place, saturating at ``unlimited``.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Demand) { lhs = lhs + rhs }

        /// Adds a count; a negative count subtracts (never below `.none`).
        @inlinable
        public static func + (lhs: Demand, rhs: Int) -> Demand {
            rhs < 0 ? lhs - Demand(rawValue: rhs.magnitude) : lhs + Demand(rawValue: UInt(rhs))
        }

        /// Adds a count in place.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Int) { lhs = lhs + rhs }

        /// The difference, clamped at `.none`. `.unlimited - x == .unlimited`; `x - .unlimited == .none`
        /// for a bounded `x`.
        @inlinable
        public static func - (lhs: Demand, rhs: Demand) -> Demand {
            if lhs == .unlimited { return .unlimited }
            if rhs == .unlimited { return .none }
            return lhs.rawValue > rhs.rawValue ? Demand(rawValue: lhs.rawValue - rhs.rawValue) : .none
        }

        /// Subtracts in place, clamped at `.none`.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Demand) { lhs = lhs - rhs }

        /// Subtracts a count; a negative count adds, except that a result beyond `Int.max` is `.none`, not
        /// `.unlimited` (Combine's integer arithmetic overflows there; OpenCombine's tests pin it).
        @inlinable
        public static func - (lhs: Demand, rhs: Int) -> Demand {
            guard rhs < 0 else { return lhs - Demand(rawValue: UInt(rhs)) }
            if lhs == .unlimited { return .unlimited }
            let sum = lhs.rawValue + rhs.magnitude  // at most Int.max + 2^63 = UInt.max: no overflow
            return sum > UInt(Int.max) ? .none : Demand(rawValue: sum)
        }

        /// Subtracts a count in place.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Int) { lhs = lhs - rhs }

        /// Multiplies a bounded demand, saturating at ``unlimited``; `.unlimited * n == .unlimited`.
        @inlinable
        public static func * (lhs: Demand, rhs: Int) -> Demand {
            if lhs == .unlimited { return .unlimited }
            if rhs <= 0 { return .none }
            let (product, overflow) = lhs.rawValue.multipliedReportingOverflow(by: UInt(rhs))
            return overflow ? .unlimited : bounded(product)
        }

        /// Multiplies in place.
        @inlinable
        public static func *= (lhs: inout Demand, rhs: Int) { lhs = lhs * rhs }

        /// Orders demands; ``unlimited`` is the largest.
        @inlinable
        public static func < (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue < rhs.rawValue }

        /// Compares with a count; ``unlimited`` is larger than any count.
        @inlinable
        public static func < (lhs: Demand, rhs: Int) -> Bool { rhs >= 0 && lhs.rawValue < UInt(rhs) }
        /// Compares with a count.
        @inlinable
        public static func <= (lhs: Demand, rhs: Int) -> Bool { rhs >= 0 && lhs.rawValue <= UInt(rhs) }
        /// Compares with a count.
        @inlinable
        public static func > (lhs: Demand, rhs: Int) -> Bool { rhs < 0 || lhs.rawValue > UInt(rhs) }
        /// Compares with a count.
        @inlinable
        public static func >= (lhs: Demand, rhs: Int) -> Bool { rhs < 0 || lhs.rawValue >= UInt(rhs) }
        /// Compares a count with a demand.
        @inlinable
        public static func < (lhs: Int, rhs: Demand) -> Bool { rhs > lhs }
        /// Compares a count with a demand.
        @inlinable
        public static func > (lhs: Int, rhs: Demand) -> Bool { rhs < lhs }
        /// Compares a count with a demand.
        @inlinable
        public static func <= (lhs: Int, rhs: Demand) -> Bool { rhs >= lhs }
        /// Compares a count with a demand.
        @inlinable
        public static func >= (lhs: Int, rhs: Demand) -> Bool { rhs <= lhs }
        /// Whether the demand is exactly `rhs` values (never true for ``unlimited``).
        @inlinable
        public static func == (lhs: Demand, rhs: Int) -> Bool { rhs >= 0 && lhs.rawValue == UInt(rhs) }
        /// Whether the demand is not exactly `rhs` values.
        @inlinable
        public static func != (lhs: Demand, rhs: Int) -> Bool { !(lhs == rhs) }
        /// Whether `lhs` is the bounded demand `rhs` (never for ``unlimited``).
        @inlinable
        public static func == (lhs: Int, rhs: Demand) -> Bool { rhs == lhs }
        /// Whether `lhs` is not the demand `rhs`.
        @inlinable
        public static func != (lhs: Int, rhs: Demand) -> Bool { rhs != lhs }
    }
}

/// A demand is one unsigned integer, `.unlimited` being `Int.max + 1` (Combine's encoding); any larger number
/// decodes as `.unlimited`, and a negative one fails to decode.
extension Subscribers.Demand: Codable {
    /// Decodes a demand from one unsigned integer.
    public init(from decoder: any Decoder) throws {
        self = Self.bounded(try decoder.singleValueContainer().decode(UInt.self))
    }

    /// Encodes the demand as one unsigned integer (`.unlimited` as `Int.max + 1`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self == .unlimited ? UInt(Int.max) + 1 : rawValue)
    }
}
