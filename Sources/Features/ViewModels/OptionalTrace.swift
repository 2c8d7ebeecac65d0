import Streams

extension Publisher {
    /// `trace(_:to:scheduler:)` into `log`, or this publisher unchanged (type-erased either way) when `log` is
    /// `nil`: how a view model offers an optional trace of its pipeline.
    ///
    /// ```swift
    /// typed.trace("keys", to: traceLog, scheduler: scheduler)   // traceLog: TraceLog?
    /// ```
    func trace(_ name: String, to log: TraceLog?, scheduler: any Scheduler) -> AnyPublisher<Output, Failure> {
        guard let log else { return eraseToAnyPublisher() }
        return trace(name, to: log, scheduler: scheduler).eraseToAnyPublisher()
    }
}
