import Foundation
import Networking
import Streams

/// The routes that answer every ``FeatureEndpoint`` request from the bundled data, so the pipelines run with no
/// server: `/products` searches, sorts, filters and pages the bundled catalogue (``ProductSearchRoute``),
/// `/status` answers 200 (``StatusRoute``), `/crypto` and `/users` serve the bundled JSON.
///
/// The same handlers can back a test server, so local and remote answers agree.
///
/// ```swift
/// let client = try LocalClient.features()            // or RemoteClient() against a real server
/// let catalog = NetworkProductCatalog(client: client, baseURL: FeatureEndpoint.localBaseURL)
/// ```
public enum FeatureRoutes {
    /// The bundled routes plus the product search and status routes.
    ///
    /// - Throws: `NetworkError` if the bundled catalogue cannot be read or decoded.
    public static func local() throws(NetworkError) -> [LocalRoute] {
        let search = try ProductSearchRoute.bundled()
        return LocalRoute.bundled + [
            LocalRoute(.get, ProductSearchRoute.path) { request in
                search.response(path: request.path, queryItems: request.queryItems)
            },
            LocalRoute(.get, StatusRoute.path) { request in
                StatusRoute.response(path: request.path, queryItems: request.queryItems)
            },
        ]
    }
}

extension LocalClient {
    /// A local client answering every Features endpoint from the bundled data (see ``FeatureRoutes``),
    /// immediately.
    ///
    /// ```swift
    /// let viewModel = UsersViewModel(client: try LocalClient.features(), baseURL: FeatureEndpoint.localBaseURL)
    /// ```
    /// - Throws: `NetworkError` if the bundled catalogue cannot be read.
    public static func features() throws(NetworkError) -> LocalClient {
        LocalClient(routes: try FeatureRoutes.local())
    }

    /// A local client answering every Features endpoint from the bundled data `latency` later on `scheduler`
    /// (a `TestScheduler` in tests: the answer arrives at an exact virtual time).
    ///
    /// ```swift
    /// let client = try LocalClient.features(latency: .milliseconds(300), scheduler: scheduler)
    /// ```
    public static func features(latency: Duration, scheduler: any Scheduler) throws(NetworkError) -> LocalClient {
        LocalClient(latency: latency, scheduler: scheduler, routes: try FeatureRoutes.local())
    }
}

extension FeatureEndpoint {
    /// A base URL for the local client (`http://localhost`): local routes match only the path, so any base URL
    /// works; this one reads well in logs.
    public static let localBaseURL = URL(string: "http://localhost")!  // a valid constant literal
}
