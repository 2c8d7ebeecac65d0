/// A publisher with its concrete type erased, to expose only `Output` and `Failure` in an API.
///
/// Subscribing to it subscribes to the wrapped publisher, with the same contract and timing.
///
/// ```swift
/// var state: AnyPublisher<Int, Never> { subject.map { $0 * 2 }.eraseToAnyPublisher() }
/// ```
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible {
    @usableFromInline
    let box: PublisherBoxBase<Output, Failure>

    /// Wraps `publisher`. Wrapping an `AnyPublisher` again reuses its box.
    @inlinable
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        if let erased = publisher as? AnyPublisher<Output, Failure> {
            box = erased.box
        } else {
            box = PublisherBox(publisher)
        }
    }

    /// Attaches `subscriber` to the wrapped publisher.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        box.receive(subscriber: subscriber)
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

@usableFromInline
class PublisherBoxBase<Output, Failure: Error>: @unchecked Sendable {
    @inlinable
    init() {}
    @inlinable
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        preconditionFailure("abstract")
    }
}

@usableFromInline
final class PublisherBox<Base: Publisher>: PublisherBoxBase<Base.Output, Base.Failure>, @unchecked Sendable {
    @usableFromInline
    let base: Base
    @inlinable
    init(_ base: Base) { self.base = base }
    @inlinable
    override func receive<S: Subscriber>(subscriber: S) where S.Input == Base.Output, S.Failure == Base.Failure {
        base.receive(subscriber: subscriber)
    }
}

extension AnyPublisher: @unchecked Sendable {}
