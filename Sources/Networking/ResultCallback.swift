/// A one-result callback that a subscription hands to a `@Sendable` closure (a task, a scheduler action).
///
/// The subscriptions are generic over their downstream, and a `@Sendable` closure may not capture a value
/// whose generic metatype is not known to be sendable; the closure captures this box instead, which is
/// generic only over the (sendable) result. Safe because each subscription guards its state with a lock.
final class ResultCallback<Success: Sendable, Failure: Error>: @unchecked Sendable {
    private let body: (Result<Success, Failure>) -> Void

    /// Wraps `body`.
    init(_ body: @escaping (Result<Success, Failure>) -> Void) { self.body = body }

    /// Runs the callback with `result`.
    func callAsFunction(_ result: Result<Success, Failure>) { body(result) }
}
