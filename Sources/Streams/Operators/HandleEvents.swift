extension Publisher {
    /// Calls the given closures on each event of the subscription, for side effects such as logging;
    /// the events themselves pass through unchanged.
    ///
    /// - Order: each closure runs just *before* the event is passed on: `receiveSubscription` with the
    ///   upstream's subscription, `receiveOutput` and `receiveCompletion` before the downstream gets
    ///   them, `receiveRequest` before the demand goes upstream, `receiveCancel` before upstream is
    ///   cancelled (once, and only if the downstream cancels before a completion).
    /// - Release: every closure is released after the completion or the first `cancel()`; no closure
    ///   runs after that.
    /// - Threading: closures run on the thread of the event, never under a lock.
    ///
    /// ```swift
    /// let p = fetch().handleEvents(receiveOutput: { log("got \($0)") }, receiveCancel: { log("cancelled") })
    /// ```
    @inlinable
    public func handleEvents(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(
            upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion, receiveCancel: receiveCancel, receiveRequest: receiveRequest)
    }
}

extension Publishers {
    /// The publisher returned by
    /// ``Publisher/handleEvents(receiveSubscription:receiveOutput:receiveCompletion:receiveCancel:receiveRequest:)``.
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher observed.
        public let upstream: Upstream
        /// Called with the upstream's subscription.
        public var receiveSubscription: ((any Subscription) -> Void)?
        /// Called with each value.
        public var receiveOutput: ((Output) -> Void)?
        /// Called with the completion.
        public var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
        /// Called when the downstream cancels.
        public var receiveCancel: (() -> Void)?
        /// Called with each downstream request.
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        /// Creates the operator.
        @inlinable
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Void)? = nil,
            receiveOutput: ((Output) -> Void)? = nil,
            receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
            receiveCancel: (() -> Void)? = nil,
            receiveRequest: ((Subscribers.Demand) -> Void)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let handlers = HandleEventsHandlers<Output, Failure>(
                receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
                receiveCompletion: receiveCompletion, receiveCancel: receiveCancel, receiveRequest: receiveRequest)
            upstream.receive(subscriber: HandleEventsInner(downstream: subscriber, handlers: handlers))
        }
    }
}

@usableFromInline
struct HandleEventsHandlers<Output, Failure: Error> {
    @usableFromInline
    var receiveSubscription: ((any Subscription) -> Void)?
    @usableFromInline
    var receiveOutput: ((Output) -> Void)?
    @usableFromInline
    var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
    @usableFromInline
    var receiveCancel: (() -> Void)?
    @usableFromInline
    var receiveRequest: ((Subscribers.Demand) -> Void)?

    @inlinable
    init(
        receiveSubscription: ((any Subscription) -> Void)?,
        receiveOutput: ((Output) -> Void)?,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?,
        receiveCancel: (() -> Void)?,
        receiveRequest: ((Subscribers.Demand) -> Void)?
    ) {
        self.receiveSubscription = receiveSubscription
        self.receiveOutput = receiveOutput
        self.receiveCompletion = receiveCompletion
        self.receiveCancel = receiveCancel
        self.receiveRequest = receiveRequest
    }
}

/// The subscriber `handleEvents` attaches upstream, and the downstream's subscription. Shared across threads:
/// the upstream subscription is held by `link`, and `downstream` and `handlers` are guarded by `lock`.
@usableFromInline
final class HandleEventsInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable
{
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure
    @usableFromInline
    typealias Handlers = HandleEventsHandlers<Input, Failure>

    @usableFromInline
    let link = UpstreamLink()
    /// Guards `downstream` and `handlers` (`@exclusivity(unchecked)`: every access is under it, or in `init`).
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    @usableFromInline
    @exclusivity(unchecked)
    var handlers: Handlers?

    @inlinable
    init(downstream: Downstream, handlers: Handlers) {
        self.downstream = downstream
        self.handlers = handlers
    }

    @usableFromInline
    var description: String { "HandleEvents" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        lock.lock()
        let (downstream, handler) = (self.downstream, handlers?.receiveSubscription)
        lock.unlock()
        handler?(subscription)
        downstream?.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard let downstream else {
            lock.unlock()
            return .none
        }
        let handler = handlers?.receiveOutput
        lock.unlock()
        handler?(input)
        return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        guard let (downstream, handlers) = release() else { return }
        handlers?.receiveCompletion?(completion)
        downstream.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let handler = handlers?.receiveRequest
        lock.unlock()
        handler?(demand)
        link.request(demand)
    }

    @inlinable
    func cancel() {
        guard let (_, handlers) = release() else { return }
        handlers?.receiveCancel?()
        link.cancel()
    }

    @inlinable
    func release() -> (Downstream, Handlers?)? {
        lock.lock()
        let released = (downstream, handlers)
        downstream = nil
        handlers = nil
        lock.unlock()
        guard let downstream = released.0 else { return nil }
        return (downstream, released.1)
    }
}
