import Features
import Foundation
import Networking

/// Makes the network client for a ``DataSource``: what `:source` and `--server` switch.
///
/// ```swift
/// let clients = ClientFactory.live   // LocalProductCatalog, LocalClient.features() and RemoteClient()
/// let onVirtualTime = ClientFactory(
///     local: { try LocalClient.features(latency: .milliseconds(100), scheduler: scheduler) },
///     remote: { _ in RemoteClient() })
/// ```
public struct ClientFactory: Sendable {
    /// The client for ``DataSource/local``; it may fail (e.g. the bundled data cannot be read).
    public var local: @Sendable () throws -> any NetworkClient
    /// The client for a server at the given address.
    public var remote: @Sendable (URL) -> any NetworkClient
    /// The product search of ``DataSource/local``, when it is served from model values
    /// (`LocalProductCatalog`); `nil`: the search goes through `local`'s client, like the other view models.
    public var localCatalog: (@Sendable () throws -> any ProductCatalog)?

    /// A factory from its closures (without `localCatalog`, the local search goes through `local`'s client, so
    /// a test's routes answer it).
    public init(
        local: @escaping @Sendable () throws -> any NetworkClient,
        remote: @escaping @Sendable (URL) -> any NetworkClient,
        localCatalog: (@Sendable () throws -> any ProductCatalog)? = nil
    ) {
        self.local = local
        self.remote = remote
        self.localCatalog = localCatalog
    }

    /// The bundled data answered at once: the product search from the decoded catalogue
    /// (`LocalProductCatalog.bundled()`, no JSON round trip), the rest through `LocalClient.features()`; or HTTP
    /// (`RemoteClient()`, whose `SocketTransport` caps each answer at the endpoint's size limit and each exchange at
    /// its timeout).
    public static let live = ClientFactory(
        local: { try LocalClient.features() }, remote: { _ in RemoteClient() },
        localCatalog: { try LocalProductCatalog.bundled() })

    /// The client and base URL for `source`.
    func connection(to source: DataSource) throws -> (client: any NetworkClient, baseURL: URL) {
        switch source {
        case .local: (try local(), FeatureEndpoint.localBaseURL)
        case .remote(let url): (remote(url), url)
        }
    }
}
