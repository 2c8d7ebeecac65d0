extension Subscribers {
    /// How a publisher ended: normally, or with an error. A publisher sends at most one.
    ///
    /// ```swift
    /// subject.send(completion: .finished)
    /// subject.send(completion: .failure(MyError.offline))
    /// ```
    public enum Completion<Failure: Error> {
        /// The publisher finished normally.
        case finished
        /// The publisher stopped because of an error.
        case failure(Failure)

        /// The completion with its error transformed; `.finished` stays `.finished`.
        @inlinable
        public func mapError<NewFailure: Error>(_ transform: (Failure) -> NewFailure) -> Completion<NewFailure> {
            switch self {
            case .finished: return .finished
            case .failure(let error): return .failure(transform(error))
            }
        }
    }
}

extension Subscribers.Completion: Equatable where Failure: Equatable {}
extension Subscribers.Completion: Hashable where Failure: Hashable {}
extension Subscribers.Completion: Sendable where Failure: Sendable {}

extension Subscribers.Completion where Failure == Never {
    /// Re-types a `Never`-failing completion for any failure type (it can only be `.finished`).
    @inlinable
    public func promoted<NewFailure: Error>(to _: NewFailure.Type = NewFailure.self)
        -> Subscribers.Completion<NewFailure>
    {
        .finished
    }
}
