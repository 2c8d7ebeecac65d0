/// A publisher that creates a fresh publisher for each subscriber, when that subscriber attaches.
///
/// `createPublisher` runs once per subscription, on the subscribing thread, and the subscriber is
/// attached to its result, which then sets the demand, timing and threading. Use it to delay side
/// effects until subscription (and to repeat them on each `retry` attempt).
///
/// ```swift
/// let reading = Deferred { Just(sensor.read()) }   // reads once per subscriber, not now
/// let c = reading.sink { print($0) }
/// ```
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
    /// The created publisher's output.
    public typealias Output = DeferredPublisher.Output
    /// The created publisher's failure.
    public typealias Failure = DeferredPublisher.Failure

    /// Creates the publisher for one subscription.
    public let createPublisher: () -> DeferredPublisher

    /// A publisher that calls `createPublisher` for each subscriber.
    @inlinable
    public init(createPublisher: @escaping () -> DeferredPublisher) {
        self.createPublisher = createPublisher
    }

    /// Creates a publisher and attaches `subscriber` to it.
    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
        createPublisher().receive(subscriber: subscriber)
    }
}
