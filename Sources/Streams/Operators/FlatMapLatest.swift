extension Publisher {
    /// Transforms each upstream value into a publisher and republishes the values of the most recent one: each
    /// new value cancels the publisher made from the previous one.
    ///
    /// Exactly `map(transform).switchToLatest()` (and its type says so, as in CombineExt):
    ///
    /// - Switching: when the upstream publishes a value, `transform` is called with it, the current inner
    ///   subscription is cancelled (its values, even ones already received but not yet delivered, are never
    ///   published), then the new publisher is subscribed.
    /// - Demand: the upstream is asked for `.unlimited`. The subscriber's outstanding demand (requested minus
    ///   delivered) is requested from each new inner publisher and later requests go to the current one, so
    ///   demand carries over across switches and is never exceeded.
    /// - Completion: finishes when the upstream has finished and the current inner publisher (if any) has
    ///   finished. A failure of the upstream or of the current inner publisher cancels everything and is
    ///   delivered once.
    /// - Cancellation: cancels the upstream and the current inner publisher, and releases `transform`; nothing
    ///   reaches the subscriber after it.
    /// - Threading: `transform` runs on the upstream's thread; values are delivered serially, on the thread of
    ///   the inner publisher that produces them.
    ///
    /// ```swift
    /// let c = queries.flatMapLatest { api.search($0) }.sink { show($0) }   // only the latest search's results
    /// ```
    /// - Parameter transform: Makes the inner publisher for an upstream value.
    @inlinable
    public func flatMapLatest<P: Publisher>(
        _ transform: @escaping (Output) -> P
    ) -> Publishers.SwitchToLatest<P, Publishers.Map<Self, P>> where P.Failure == Failure {
        map(transform).switchToLatest()
    }
}
