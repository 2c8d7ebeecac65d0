import Foundation
import Streams

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSession {
    /// A publisher that loads `url` with a data task when the subscriber first asks for a value — Combine's
    /// `URLSession.dataTaskPublisher(for:)`.
    ///
    /// ```swift
    /// let c = URLSession.shared.dataTaskPublisher(for: url).map(\.data).sink(...)
    /// ```
    public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
        DataTaskPublisher(request: URLRequest(url: url), session: self)
    }

    /// A publisher that sends `request` with a data task when the subscriber first asks for a value.
    ///
    /// - Demand: the task starts on the first request of at least one; its result is one value
    ///   `(data, response)` then `.finished`, or a `URLError`.
    /// - Cancellation: cancels the data task; nothing is delivered afterwards.
    /// - Threading: delivers on the session's delegate queue thread.
    /// - Limits: on Linux, FoundationNetworking keeps the whole body in memory (`Networking`'s
    ///   `SocketTransport` bounds it for http).
    public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
        DataTaskPublisher(request: request, session: self)
    }

    /// The publisher returned by `dataTaskPublisher(for:)`.
    public struct DataTaskPublisher: Streams.Publisher {
        /// The body and the response.
        public typealias Output = (data: Data, response: URLResponse)
        /// What the data task failed with.
        public typealias Failure = URLError

        /// The request sent.
        public let request: URLRequest
        /// The session that sends it.
        public let session: URLSession

        /// A publisher sending `request` through `session`.
        public init(request: URLRequest, session: URLSession) {
            self.request = request
            self.session = session
        }

        /// Attaches `subscriber`; the task starts on its first request.
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == URLError {
            subscriber.receive(
                subscription: DataTaskSubscription(request: request, session: session, downstream: copy subscriber))
        }
    }
}

/// What a data task's completion handler calls: non-generic, so the handler captures no generic type.
/// Sound as `@unchecked Sendable`: no state of its own (the subclass guards its state with a lock).
class DataTaskCompletion: @unchecked Sendable {
    func finish(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {}
}

/// One data task for one subscriber. Sound as `@unchecked Sendable`: `state` (the downstream and the task)
/// is under its lock, never held while calling out; `URLSessionTask.cancel()` is thread-safe.
final class DataTaskSubscription<Downstream: Subscriber>: DataTaskCompletion, Subscription, @unchecked Sendable
where Downstream.Input == (data: Data, response: URLResponse), Downstream.Failure == URLError {
    private struct State {
        var downstream: Downstream?
        var task: URLSessionDataTask?
        var started = false
    }

    private let request: URLRequest
    private let session: URLSession
    private let state: Locked<State>

    init(request: URLRequest, session: URLSession, downstream: Downstream) {
        self.request = request
        self.session = session
        state = Locked(State(downstream: downstream))
    }

    var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }

    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        let start = state.withLock { state in
            guard state.downstream != nil, !state.started else { return false }
            state.started = true
            return true
        }
        guard start else { return }
        let completion: DataTaskCompletion = self
        let task = session.dataTask(with: request) { completion.finish($0, $1, $2) }
        let cancelled = state.withLock { state in
            guard state.downstream != nil else { return true }
            state.task = task
            return false
        }
        if !cancelled { task.resume() }
    }

    func cancel() {
        let task = state.withLock { state in
            defer {
                state.downstream = nil
                state.task = nil
            }
            return state.task
        }
        task?.cancel()
    }

    override func finish(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
        let downstream = state.withLock { state in
            defer {
                state.downstream = nil
                state.task = nil
            }
            return state.downstream
        }
        guard let downstream else { return }
        if let error {
            downstream.receive(completion: .failure(error as? URLError ?? URLError(.unknown)))
        } else if let response {
            _ = downstream.receive((data ?? Data(), response))
            downstream.receive(completion: .finished)
        } else {
            downstream.receive(completion: .failure(URLError(.badServerResponse)))
        }
    }
}
