#if canImport(Observation)
    import Observation

    /// The latest value of a publisher, held by an `@Observable` object on the main actor: a publisher seen by
    /// Observation (SwiftUI views, `withObservationTracking`, `Observations`, ``Observed``).
    ///
    /// `ObservedValue(initial, from: publisher)` subscribes at once and assigns each value the publisher sends
    /// to ``value``, which observers track like any `@Observable` property.
    ///
    /// - Isolation: the class is `@MainActor`; values arrive through
    ///   ``Publisher/sinkOnMainActor(receiveCompletion:receiveValue:)``, so every assignment happens on the main
    ///   actor, asynchronously, in the order the publisher sent them. Observers are notified there. `Value` must
    ///   be `Sendable`: each value crosses from the publisher's thread to the main actor.
    /// - Initial value: ``value`` starts at `initial` and keeps it until the first value arrives, on a later
    ///   turn of the main actor (also for a `CurrentValueSubject` or `Just`).
    /// - Demand: `.unlimited`; each value is assigned, so an observer sees the newest (Observation coalesces
    ///   assignments made before it re-reads).
    /// - Completion: ``isFinished`` becomes `true` and ``value`` keeps the last value; the subscription is
    ///   released. The publisher cannot fail (`Failure == Never`): use `replaceError(with:)` or `catch` first.
    /// - Cancellation: ``cancel()``, or releasing the object, cancels the subscription (on the main actor,
    ///   no assignment follows). The subscription holds the object weakly, so it never keeps it alive.
    ///
    /// ```swift
    /// @MainActor final class Screen {
    ///     let count: ObservedValue<Int>
    ///     init(counts: some Publisher<Int, Never>) { count = ObservedValue(0, from: counts) }
    /// }
    /// // In a view, or anywhere Observation tracks: Text("\(screen.count.value)")
    /// ```
    @available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *)
    @MainActor
    @Observable
    public final class ObservedValue<Value: Sendable> {
        /// The newest value the publisher sent, or the initial value before the first one; observable.
        public private(set) var value: Value
        /// Whether the publisher has finished (``value`` then keeps its last value); observable.
        public private(set) var isFinished = false
        /// The subscription to the publisher; `nil` after completion or ``cancel()``.
        @ObservationIgnored private var subscription: AnyCancellable?

        /// Holds `initial`, then every value `source` sends, assigned on the main actor.
        ///
        /// ```swift
        /// let latest = ObservedValue("", from: subject)
        /// ```
        ///
        /// - Parameters:
        ///   - initial: The value until `source` sends its first.
        ///   - source: The publisher to subscribe to, at once, with unlimited demand.
        public init<Source: Publisher>(_ initial: Value, from source: Source)
        where Source.Output == Value, Source.Failure == Never {
            value = initial
            subscription = source.sinkOnMainActor(
                receiveCompletion: { [weak self] _ in
                    self?.isFinished = true
                    self?.subscription = nil
                },
                receiveValue: { [weak self] in self?.value = $0 }
            )
        }

        /// Cancels the subscription: ``value`` keeps what it holds, and no later value is assigned.
        ///
        /// ```swift
        /// latest.cancel()
        /// ```
        public func cancel() {
            subscription?.cancel()
            subscription = nil
        }
    }
#endif
