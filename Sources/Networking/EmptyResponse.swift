/// The decoded value of an endpoint that answers with no body (204, or a body the caller ignores).
///
/// Decoding as `EmptyResponse` never reads the body, so any successful status decodes.
///
/// ```swift
/// _ = try await client.send(Users.delete(id: 3), as: EmptyResponse.self)
/// ```
public struct EmptyResponse: Decodable, Sendable, Equatable {
    /// The empty value.
    public init() {}

    /// Decodes nothing: an `EmptyResponse` ignores whatever it is given.
    public init(from decoder: any Decoder) throws {}
}
