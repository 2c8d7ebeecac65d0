/// A publisher with its concrete type erased, to expose only `Output` and `Failure` in an API.
///
/// Subscribing to it subscribes to the wrapped publisher, with the same contract and timing.
///
/// ```swift
/// var state: AnyPublisher<Int, Never> { subject.map { $0 * 2 }.eraseToAnyPublisher() }
/// ```
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible {
    /// Subscribes a type-erased subscriber to the wrapped publisher. Created in ``init(_:)``, which is
    /// specialised in client code, so the wrapped publisher's subscription runs specialised code.
    /// (An overridden method of a generic box class would run the unspecialised generic body: the whole
    /// subscription, per value, through generic metadata — measured at ~4× slower per value.)
    @usableFromInline
    let subscribeErased: (AnySubscriber<Output, Failure>) -> Void

    /// Wraps `publisher`. Wrapping an `AnyPublisher` again reuses its subscribe function.
    @inlinable
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        if let erased = publisher as? AnyPublisher<Output, Failure> {
            subscribeErased = erased.subscribeErased
        } else {
            subscribeErased = { publisher.receive(subscriber: $0) }
        }
    }

    /// Attaches `subscriber` to the wrapped publisher.
    @inlinable
    public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
        subscribeErased(AnySubscriber(subscriber))
    }

    /// `AnyPublisher`.
    public var description: String { "AnyPublisher" }
}

extension Publisher {
    /// Erases this publisher's type to ``AnyPublisher``.
    ///
    /// ```swift
    /// let erased: AnyPublisher<Int, Never> = Just(1).eraseToAnyPublisher()
    /// ```
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> { AnyPublisher(self) }
}

// Immutable (one closure), but the closure captures the wrapped publisher, which need not be `Sendable`: sound
// only if that publisher may be subscribed from any thread, as this package's publishers may.
extension AnyPublisher: @unchecked Sendable {}
