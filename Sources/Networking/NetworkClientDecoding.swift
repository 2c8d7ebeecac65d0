import Foundation
import Streams

extension NetworkClient {
    /// Sends the endpoint's request and decodes the body as `T` with `decoder`.
    ///
    /// - Throws: every error of `response(for:)`, or `.decoding(path:description:)` with the coding path.
    ///   Use `EmptyResponse` for endpoints without a body.
    ///
    /// ```swift
    /// let users = try await client.send(UsersAPI.all, as: [User].self)
    /// ```
    public func send<T: Decodable>(
        _ endpoint: any Endpoint, as type: T.Type = T.self, decoder: JSONDecoder = JSONDecoder()
    ) async throws(NetworkError) -> T {
        let response = try await response(for: endpoint)
        return try ResponseDecoding.decode(T.self, from: response.body, decoder: decoder)
    }

    /// A publisher that sends the request when subscribed and publishes the body decoded as `T` with `decoder`.
    ///
    /// Timing, threading and cancellation are those of `responsePublisher(for:)`; decoding happens on the
    /// delivering thread. Fails with `.decoding(path:description:)` if the body does not decode.
    ///
    /// ```swift
    /// client.publisher(for: UsersAPI.all, as: [User].self).sink(receiveCompletion: { _ in }) { show($0) }
    /// ```
    public func publisher<T: Decodable>(
        for endpoint: any Endpoint, as type: T.Type = T.self, decoder: JSONDecoder = JSONDecoder()
    ) -> AnyPublisher<T, NetworkError> {
        responsePublisher(for: endpoint)
            .flatMap(maxPublishers: .max(1)) { response -> AnyPublisher<T, NetworkError> in
                switch Result(catching: { () throws(NetworkError) in
                    try ResponseDecoding.decode(T.self, from: response.body, decoder: decoder)
                }) {
                case .success(let value): Just(value).setFailureType(to: NetworkError.self).eraseToAnyPublisher()
                case .failure(let error): Fail(error: error).eraseToAnyPublisher()
                }
            }
            .eraseToAnyPublisher()
    }
}
