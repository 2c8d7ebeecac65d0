extension Publisher {
    /// Replaces a failure with another publisher: when upstream fails, subscribes to `handler(error)`
    /// and continues with its events.
    ///
    /// - Subscription: the downstream sees one subscription throughout; values already delivered stay
    ///   delivered. Demand requested and not yet delivered when upstream fails is requested from the new
    ///   publisher. `cancel()` cancels whichever publisher is current. A `.finished` from upstream is
    ///   forwarded as is.
    /// - Threading: `handler` runs on the thread of the failure, never under a lock.
    ///
    /// ```swift
    /// let p = remote.fetch().catch { _ in local.fetch() }
    /// ```
    @inlinable
    public func `catch`<P: Publisher>(_ handler: @escaping (Failure) -> P) -> Publishers.Catch<Self, P>
    where P.Output == Output {
        Publishers.Catch(upstream: self, handler: handler)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/catch(_:)``.
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The replacement publisher's failure type.
        public typealias Failure = NewPublisher.Failure

        /// The publisher whose failure is caught.
        public let upstream: Upstream
        /// Makes the publisher to continue with.
        public let handler: (Upstream.Failure) -> NewPublisher

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let handoff = UpstreamHandoff(next: handler, name: "Catch")
            upstream.receive(
                subscriber: CatchFirstLeg<Upstream.Output, Upstream.Failure, NewPublisher, S>(
                    handoff: handoff, downstream: subscriber))
        }
    }
}

/// Feeds the original upstream into the handoff; on failure, subscribes to the handler's publisher.
/// Generic over the values, not over the upstream publisher: a parameter that grows with the chain above makes
/// the optimiser see a growing cycle when `catch` occurs three times in one pipeline, and leave these methods
/// unspecialised.
@usableFromInline
struct CatchFirstLeg<Input, Failure: Error, NewPublisher: Publisher, Downstream: Subscriber>: Subscriber,
    CustomStringConvertible
where
    Downstream.Input == Input, Downstream.Failure == NewPublisher.Failure,
    NewPublisher.Output == Input
{
    @usableFromInline
    typealias Handler = (Failure) -> NewPublisher

    @usableFromInline
    let handoff: UpstreamHandoff<Handler, Handler?>
    @usableFromInline
    let downstream: Downstream

    @inlinable
    init(handoff: UpstreamHandoff<Handler, Handler?>, downstream: Downstream) {
        self.handoff = handoff
        self.downstream = downstream
    }

    @usableFromInline
    var description: String { handoff.description }
    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(handoff) }

    @inlinable
    func receive(subscription: any Subscription) { handoff.attach(subscription, from: .first, to: downstream) }
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand { handoff.receive(input, from: .first, to: downstream) }
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished:
            handoff.complete(.finished, from: .first, to: downstream)
        case .failure(let error):
            guard let handler = handoff.handOff() else { return }
            handler(error).receive(subscriber: HandoffSecondLeg(handoff: handoff, downstream: downstream))
        }
    }
}
