/// A publisher that never emits a value and optionally finishes at once.
///
/// ```swift
/// let nothing = Empty<Int, Never>()                           // finishes at once
/// let never = Empty<Int, Never>(completeImmediately: false)   // stays silent
/// ```
public struct Empty<Output, Failure: Error>: Publisher, Equatable, Sendable {
    /// Whether subscribers get `.finished` right after the subscription.
    public let completeImmediately: Bool

    /// An empty publisher; with `completeImmediately: false` it never completes.
    @inlinable
    public init(completeImmediately: Bool = true) { self.completeImmediately = completeImmediately }

    /// An empty publisher typed by example.
    @inlinable
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.completeImmediately = completeImmediately
    }

    /// Attaches `subscriber`.
    @inlinable
    public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
        if completeImmediately {
            subscriber.receiveImmediateCompletion(.finished)
        } else {
            subscriber.receive(subscription: Subscriptions.empty)
        }
    }
}
