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

/// The keys of Combine's encoding of a completion: `{"success": true}` for `.finished`,
/// `{"success": false, "error": …}` for a failure.
private enum CompletionCodingKeys: String, CodingKey {
    case success
    case error
}

extension Subscribers.Completion: Encodable where Failure: Encodable {
    /// Encodes the completion as Combine does: a `success` flag, and the `error` of a failure.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CompletionCodingKeys.self)
        switch self {
        case .finished:
            try container.encode(true, forKey: .success)
        case .failure(let error):
            try container.encode(false, forKey: .success)
            try container.encode(error, forKey: .error)
        }
    }
}

extension Subscribers.Completion: Decodable where Failure: Decodable {
    /// Decodes a completion encoded as Combine does; a failure without its `error` fails to decode.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CompletionCodingKeys.self)
        if try container.decode(Bool.self, forKey: .success) {
            self = .finished
        } else {
            self = .failure(try container.decode(Failure.self, forKey: .error))
        }
    }
}

extension Subscribers.Completion where Failure == Never {
    /// Re-types a `Never`-failing completion for any failure type (it can only be `.finished`).
    @inlinable
    public func promoted<NewFailure: Error>(to _: NewFailure.Type = NewFailure.self)
        -> Subscribers.Completion<NewFailure>
    {
        .finished
    }
}
