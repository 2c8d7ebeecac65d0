import Streams

extension Publisher {
    /// Each value with the one before it (`nil` for the first): what a renderer needs to print what changed,
    /// with the previous value kept in the stream rather than by the renderer.
    ///
    /// ```swift
    /// counter.state.withPrevious().sink { print($0.previous?.count as Any, "→", $0.current.count) }
    /// ```
    func withPrevious() -> some Publisher<(previous: Output?, current: Output), Failure> {
        scan((previous: Output?.none, current: Output?.none)) { pair, next in (pair.current, next) }
            .compactMap { pair in pair.current.map { (previous: pair.previous, current: $0) } }
    }
}

extension Publisher where Failure == Never {
    /// The value the publisher delivers at once on subscription — a view model's current state, which its
    /// state stream replays — or `nil` when it delivers none synchronously. Subscribes and cancels at once, so
    /// read it only from a stream whose subscription starts no work (or one already subscribed to: a shared
    /// stream replays its latest value to a second subscriber).
    ///
    /// ```swift
    /// let count = counter.state.currentValue?.count
    /// ```
    var currentValue: Output? {
        var value: Output?
        let subscription = first().sink { value = $0 }
        subscription.cancel()
        return value
    }
}
