extension Publisher {
    /// Replaces each `nil` value with `output`; other values are unwrapped and republished.
    ///
    /// - Demand and timing: one value out per value in, synchronously, on the upstream's thread; the
    ///   subscription is the upstream's own (no lock, no allocation per value). As in Combine, it is a
    ///   ``Publishers/Map``, so a following `map` fuses into it.
    ///
    /// ```swift
    /// let c = [1, nil, 3].publisher.replaceNil(with: 0).sink { print($0) }   // 1 0 3
    /// ```
    @inlinable
    public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
        Publishers.Map(upstream: self) { $0 ?? output }
    }
}
