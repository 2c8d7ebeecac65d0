import Foundation
import Networking
import Streams

/// What the users list shows.
///
/// ```swift
/// if case .loaded(let users) = state { print(users.map(\.name)) }
/// ```
public enum UsersState: Equatable, Sendable {
    /// The list is loading.
    case loading
    /// The users, in the server's order.
    case loaded([User])
    /// The list could not be loaded; the message says why.
    case failed(String)
}

/// The users list: the same code on the local and the remote client (the one-line swap is the client).
///
/// - Inputs: ``reload()``, ``cancel()``. Output: ``state`` (a ``UsersState``).
/// - Loading: the first subscriber to ``state`` starts a load (`GET /users`); subscribers share it and the last
///   state is replayed to later ones. ``reload()`` loads again, cancelling a load in flight. ``cancel()`` stops
///   the load in flight (its request is cancelled) and shows ``UsersState/failed(_:)`` with ``cancelledMessage``.
/// - Threading: published on the thread of the client's response.
///
/// ```swift
/// let users = UsersViewModel(client: useRemote ? remoteClient : localClient, baseURL: server)
/// let c = users.state.sink { print($0) }
/// ```
public final class UsersViewModel: Sendable {
    private let reloads = PassthroughSubject<Void, Never>()
    private let cancels: PassthroughSubject<Void, Never>

    /// Why a load stopped by ``cancel()`` failed.
    public static let cancelledMessage = "loading the users was cancelled"

    /// The list's state, shared by all subscribers.
    public let state: AnyPublisher<UsersState, Never>

    /// A users list loaded by `client` from `GET /users` at `baseURL`.
    public init(client: any NetworkClient, baseURL: URL) {
        let endpoint = FeatureEndpoint(baseURL: baseURL, request: .users)
        let cancels = PassthroughSubject<Void, Never>()
        self.cancels = cancels
        state = reloads.prepend(())
            .map { _ in
                Deferred { client.responsePublisher(for: endpoint) }
                    .tryMap { try ResponseDecoding.decode([User].self, from: $0.body, decoder: JSONDecoder()) }
                    .map { UsersState.loaded($0) }
                    .catch { error in Just(UsersState.failed((error as? NetworkError)?.description ?? "\(error)")) }
                    .stopped(by: cancels, publishing: .failed(Self.cancelledMessage))
                    .prepend(.loading)
            }
            .switchToLatest()
            .share(replay: 1)
            .eraseToAnyPublisher()
    }

    /// Loads the list again (cancelling a load in flight); does nothing when nobody subscribes to ``state``.
    public func reload() {
        reloads.send(())
    }

    /// Stops the load in flight, if any (the list shows ``UsersState/failed(_:)`` with ``cancelledMessage``);
    /// does nothing otherwise.
    public func cancel() {
        cancels.send(())
    }
}
