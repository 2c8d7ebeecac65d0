/// Namespace for subscriber types and the types of the subscription handshake.
public enum Subscribers {}

extension Subscribers {
    /// How many more values a subscriber is ready to receive.
    ///
    /// Demand only grows by requests and by what `receive(_:)` returns, and shrinks by one for each
    /// value delivered. ``unlimited`` is sticky. Arithmetic saturates: adding to `.unlimited` or
    /// overflowing gives `.unlimited`; subtraction never goes below `.none`, and anything
    /// subtracted from `.unlimited` leaves `.unlimited`.
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
            return overflow ? .unlimited : Demand(rawValue: sum)
        }

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

        /// Subtracts a count; a negative count adds.
        @inlinable
        public static func - (lhs: Demand, rhs: Int) -> Demand {
            rhs < 0 ? lhs + Demand(rawValue: rhs.magnitude) : lhs - Demand(rawValue: UInt(rhs))
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
            return overflow ? .unlimited : Demand(rawValue: product)
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
    }
}
