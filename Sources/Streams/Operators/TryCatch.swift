extension Publisher {
    /// Replaces a failure with the publisher `handler` returns, or fails with the error `handler` throws —
    /// Combine's `tryCatch`.
    ///
    /// - Demand: as ``Publisher/catch(_:)``: what the downstream asked for and did not get from the upstream is
    ///   asked of the replacement.
    /// - Failure: `any Error`: the replacement's failure, or the error the handler threw.
    /// - Threading: `handler` runs on the thread of the upstream's failure, never under a lock.
    ///
    /// ```swift
    /// let c = request.tryCatch { error in
    ///     guard error.isTransient else { throw error }
    ///     return retryRequest
    /// }
    /// ```
    @inlinable
    public func tryCatch<P: Publisher>(_ handler: @escaping (Failure) throws -> P) -> Publishers.TryCatch<Self, P>
    where P.Output == Output {
        Publishers.TryCatch(upstream: self, handler: handler)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/tryCatch(_:)``.
    public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the replacement's, or the handler's.
        public typealias Failure = any Error

        /// The publisher whose failure is replaced.
        public let upstream: Upstream
        /// Makes the replacement, or throws.
        public let handler: (Upstream.Failure) throws -> NewPublisher

        /// Replaces `upstream`'s failure with `handler`'s publisher.
        @inlinable
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let handler = self.handler
            upstream
                .catch { failure -> AnyPublisher<Output, any Error> in
                    do {
                        return try handler(failure).mapError { $0 as any Error }.eraseToAnyPublisher()
                    } catch {
                        return Fail(error: error).eraseToAnyPublisher()
                    }
                }
                .receive(subscriber: subscriber)
        }
    }
}
