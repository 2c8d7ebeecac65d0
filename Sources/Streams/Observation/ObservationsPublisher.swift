#if canImport(Observation)
    import Observation

    /// A publisher of an `Observations` sequence (Swift 6.2's async sequence of an `@Observable` model's state):
    /// `Observations { model.query }.streamsPublisher`, an ``AsyncSequencePublisher`` over it.
    ///
    /// `Observations` re-reads its closure after each change (on *didSet*, in the closure's isolation) and gives
    /// the current value first; ``AsyncSequencePublisher`` pulls one element per unit of demand. Together:
    ///
    /// - Values: each subscription makes its own iterator, so it receives the current value first (on its first
    ///   demand), then a value after each change. Changes made while it has no demand are not queued: its next
    ///   pull reads the model once, after all of them — the newest state only.
    /// - Isolation: the closure runs in the isolation it was formed in (`Observations { @MainActor in … }`, or
    ///   the enclosing actor's); values are delivered on the iterating task, on the cooperative pool. Add
    ///   `receive(on: .mainActor)` or end with `sinkOnMainActor` to move them.
    /// - Completion: `.finished` when an `Observations.untilFinished` closure returns `.finish`, or `.failure`
    ///   when a throwing closure throws; an `Observations(_:)` sequence never finishes.
    /// - Cancellation: `cancel()` cancels the iterating task, which stops tracking.
    /// - Compared with ``Observed``: asynchronous and task-based (no scheduler argument, the first value too
    ///   arrives on a task), and it needs Swift 6.2's runtime (macOS 26 and later; any Linux toolchain from
    ///   6.2). ``Observed`` delivers the first value synchronously and re-reads on a scheduler you choose.
    ///
    /// ```swift
    /// let c = Observations { model.query }.streamsPublisher
    ///     .removeDuplicates()
    ///     .sinkOnMainActor { print("query:", $0) }
    /// ```
    @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
    public typealias ObservationsPublisher<Element: Sendable, Failure: Error> = AsyncSequencePublisher<
        Observations<Element, Failure>
    >
#endif
