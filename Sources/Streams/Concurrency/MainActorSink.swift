extension Publisher where Output: Sendable {
    /// Subscribes with `@MainActor` closures for the values and the completion, requesting unlimited values:
    /// `receive(on: .mainActor)` followed by a sink whose closures are isolated to the main actor.
    ///
    /// The closures are typed `@MainActor`, so code in a `@MainActor` type (a view model) can assign its own
    /// properties in them in Swift 6 language mode, with no `@unchecked Sendable` and no
    /// `MainActor.assumeIsolated` of its own.
    ///
    /// - Isolation: every value and the completion are handed over by ``MainActorScheduler`` (an `async` on
    ///   the main queue, the main actor's executor) and the closures are called inside
    ///   `MainActor.assumeIsolated`, which checks at run time that the call is on the main actor: a closure
    ///   never runs anywhere else. `Output` must be `Sendable`, since each value crosses from the thread
    ///   that produced it to the main actor.
    /// - Ordering: always asynchronous, also when the publisher sends on the main actor (a `Just` or a
    ///   `CurrentValueSubject`'s current value arrives after `sinkOnMainActor` returns, on a later turn of the
    ///   main queue); events keep the order in which the publisher sent them.
    /// - Demand: `.unlimited`, requested when the subscription arrives (on the subscribing thread).
    /// - Cancellation: `cancel()` (or dropping the returned ``AnyCancellable``) cancels the upstream at once;
    ///   an event already queued for the main actor is dropped, so after a `cancel()` made on the main actor
    ///   no closure runs. A `cancel()` from another thread cannot stop a closure already running on the
    ///   main actor. The completion releases both closures (and what they capture).
    ///
    /// ```swift
    /// @MainActor final class CounterModel {
    ///     var count = 0
    ///     var done = false
    ///     private var subscriptions = Set<AnyCancellable>()
    ///
    ///     init(ticks: some Publisher<Int, Never>) {
    ///         ticks.sinkOnMainActor(
    ///             receiveCompletion: { [weak self] _ in self?.done = true },
    ///             receiveValue: { [weak self] in self?.count = $0 }
    ///         ).store(in: &subscriptions)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - receiveCompletion: Called once, on the main actor, with the publisher's completion.
    ///   - receiveValue: Called on the main actor with each value, in order.
    /// - Returns: The subscription; keep it, or it is cancelled at once.
    @inlinable
    public consuming func sinkOnMainActor(
        receiveCompletion: @escaping @MainActor (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping @MainActor (Output) -> Void
    ) -> AnyCancellable {
        // The sink's closures are called only from `MainActorScheduler`'s actions, which run on the main
        // queue: `assumeIsolated` states that, and checks it.
        let sink = Subscribers.Sink<Output, Failure>(
            receiveCompletion: { completion in MainActor.assumeIsolated { receiveCompletion(completion) } },
            receiveValue: { value in MainActor.assumeIsolated { receiveValue(value) } }
        )
        receive(on: MainActorScheduler.shared).subscribe(sink)
        return ObjectCancellable(sink)
    }
}

extension Publisher where Output: Sendable, Failure == Never {
    /// Subscribes with a `@MainActor` closure for the values of a publisher that cannot fail.
    ///
    /// The same contract as ``Publisher/sinkOnMainActor(receiveCompletion:receiveValue:)``: values arrive
    /// on the main actor (checked at run time), always asynchronously, in order; cancelling on the main
    /// actor stops them at once.
    ///
    /// ```swift
    /// @MainActor final class SearchModel {
    ///     var results: [String] = []
    ///     private var subscriptions = Set<AnyCancellable>()
    ///
    ///     init(results source: some Publisher<[String], Never>) {
    ///         source.sinkOnMainActor { [weak self] in self?.results = $0 }.store(in: &subscriptions)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter receiveValue: Called on the main actor with each value, in order.
    /// - Returns: The subscription; keep it, or it is cancelled at once.
    @inlinable
    public consuming func sinkOnMainActor(receiveValue: @escaping @MainActor (Output) -> Void) -> AnyCancellable {
        sinkOnMainActor(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}
