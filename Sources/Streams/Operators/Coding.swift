/// Something that encodes a value into one top-level form (JSON `Data`, a property list…): what
/// ``Publisher/encode(encoder:)`` takes — Combine's `TopLevelEncoder`. `JSONEncoder` and
/// `PropertyListEncoder` conform in `StreamsFoundation`.
public protocol TopLevelEncoder {
    /// What `encode` produces, e.g. `Data`.
    associatedtype Output
    /// Encodes `value`.
    func encode<T: Encodable>(_ value: T) throws -> Output
}

/// Something that decodes a value from one top-level form: what ``Publisher/decode(type:decoder:)`` takes —
/// Combine's `TopLevelDecoder`. `JSONDecoder` and `PropertyListDecoder` conform in `StreamsFoundation`.
public protocol TopLevelDecoder {
    /// What `decode` reads, e.g. `Data`.
    associatedtype Input
    /// Decodes a value of `type` from `input`.
    func decode<T: Decodable>(_ type: T.Type, from input: Input) throws -> T
}

extension Publisher where Output: Encodable {
    /// Encodes each value with `encoder`; an encoding error cancels upstream and fails with it.
    ///
    /// - Demand and completion: as `tryMap` (one value out per value in; the upstream's failure is erased
    ///   to `any Error`).
    ///
    /// ```swift
    /// let bodies = users.encode(encoder: JSONEncoder())   // AnyPublisher of Data, failing with any Error
    /// ```
    public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
        Publishers.Encode(upstream: self, encoder: encoder)
    }
}

extension Publisher {
    /// Decodes each value as `type` with `decoder`; a decoding error cancels upstream and fails with it.
    ///
    /// - Demand and completion: as `tryMap`.
    ///
    /// ```swift
    /// let users = responses.map(\.body).decode(type: [User].self, decoder: JSONDecoder())
    /// ```
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(type: Item.Type, decoder: Coder)
        -> Publishers.Decode<Self, Item, Coder>
    where Coder.Input == Output {
        Publishers.Decode(upstream: self, decoder: decoder)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/encode(encoder:)``.
    public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher where Upstream.Output: Encodable {
        /// The encoder's output, e.g. `Data`.
        public typealias Output = Coder.Output
        /// Any error: the upstream's, or the encoder's.
        public typealias Failure = any Error

        /// The publisher whose values are encoded.
        public let upstream: Upstream
        /// The encoder used.
        public let encoder: Coder

        /// Encodes `upstream`'s values with `encoder`.
        public init(upstream: Upstream, encoder: Coder) {
            self.upstream = upstream
            self.encoder = encoder
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let encoder = self.encoder
            upstream.tryMap { try encoder.encode($0) }.receive(subscriber: subscriber)
        }
    }

    /// The publisher returned by ``Publisher/decode(type:decoder:)``.
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
    where Upstream.Output == Coder.Input {
        /// Any error: the upstream's, or the decoder's.
        public typealias Failure = any Error

        /// The publisher whose values are decoded.
        public let upstream: Upstream
        /// The decoder used.
        public let decoder: Coder

        /// Decodes `upstream`'s values with `decoder`.
        public init(upstream: Upstream, decoder: Coder) {
            self.upstream = upstream
            self.decoder = decoder
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let decoder = self.decoder
            upstream.tryMap { try decoder.decode(Output.self, from: $0) }.receive(subscriber: subscriber)
        }
    }
}
