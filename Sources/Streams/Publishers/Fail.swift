/// A publisher that fails at once with an error.
///
/// ```swift
/// let failing = Fail<Int, MyError>(error: .offline)
/// ```
public struct Fail<Output, Failure: Error>: Publisher {
    /// The error sent to every subscriber.
    public let error: Failure

    /// A publisher that fails with `error`.
    @inlinable
    public init(error: Failure) { self.error = error }

    /// A publisher typed by example that fails with `failure`.
    @inlinable
    public init(outputType: Output.Type, failure: Failure) { self.error = failure }

    /// Attaches `subscriber`, then fails it.
    @inlinable
    public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
        subscriber.receiveImmediateCompletion(.failure(error))
    }
}

extension Fail: Equatable where Failure: Equatable {}
extension Fail: Sendable where Failure: Sendable {}
