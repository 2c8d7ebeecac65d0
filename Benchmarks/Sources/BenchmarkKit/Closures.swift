/// The closures the scenarios pass to the operators: every library (and the baseline) gets the very
/// same closure values.
public enum Closures {
    /// `map` stage: multiplies by three.
    public static let triple: @Sendable (Int) -> Int = { $0 &* 3 }
    /// `filter` stage: keeps even numbers (half of the tripled values).
    public static let isEven: @Sendable (Int) -> Bool = { $0 & 1 == 0 }
    /// `map` stage: adds one.
    public static let increment: @Sendable (Int) -> Int = { $0 &+ 1 }
    /// `filter` stage: keeps positive numbers.
    public static let isPositive: @Sendable (Int) -> Bool = { $0 > 0 }
    /// `compactMap` stage: keeps positive numbers.
    public static let positiveOrNil: @Sendable (Int) -> Int? = { $0 > 0 ? $0 : nil }
    /// `scan` stage: a running sum.
    public static let add: @Sendable (Int, Int) -> Int = { $0 &+ $1 }
}
