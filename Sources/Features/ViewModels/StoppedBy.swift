import Streams

extension Publisher where Failure == Never {
    /// This publisher until `trigger` emits while it runs: then its subscription is cancelled (which cancels a
    /// request in flight) and `replacement` is published before finishing. A trigger after this publisher has
    /// finished, or before it is subscribed, changes nothing; a publisher that finished on its own is never
    /// cancelled. What the view models' `cancel()` is built on.
    ///
    /// ```swift
    /// load.stopped(by: cancels, publishing: .failed("loading the users was cancelled"))
    /// ```
    func stopped(by trigger: some Publisher<Void, Never>, publishing replacement: Output) -> AnyPublisher<Output, Never> {
        Deferred { () -> AnyPublisher<Output, Never> in
            // Set when `prefix(untilOutputFrom:)` cancels this publisher, i.e. when the trigger stopped it.
            let stopped = Locked(false)
            return self.handleEvents(receiveCancel: { stopped.withLock { $0 = true } })
                .prefix(untilOutputFrom: trigger)
                .append(
                    Deferred { () -> AnyPublisher<Output, Never> in
                        stopped.withLock { $0 }
                            ? Just(replacement).eraseToAnyPublisher() : Empty().eraseToAnyPublisher()
                    }
                )
                .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }
}
