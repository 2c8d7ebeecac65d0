import Features
import Foundation
import LoopbackHTTPServer
import Networking

extension LoopbackHTTPServer {
    /// Serves the Features endpoints with the same handlers the local client uses (`ProductSearchRoute`,
    /// `StatusRoute`, the bundled crypto and users data), so remote answers agree with local ones.
    /// Register another route afterwards to replace one (e.g. a `/status` answering 500).
    ///
    /// ```swift
    /// let server = try LoopbackHTTPServer()
    /// try server.serveFeatures()
    /// ```
    public func serveFeatures() throws {
        let search = try ProductSearchRoute.bundled()
        let reply: @Sendable (NetworkResponse) -> Response = { response in
            Response(status: response.statusCode, headers: response.headers, body: response.body)
        }
        let queryItems: @Sendable (Request) -> [URLQueryItem] = { request in
            URLComponents(string: "http://host/?" + request.query)?.queryItems ?? []
        }
        route("GET", ProductSearchRoute.path) { request in
            reply(search.response(path: request.path, queryItems: queryItems(request)))
        }
        route("GET", StatusRoute.path) { request in
            reply(StatusRoute.response(path: request.path, queryItems: queryItems(request)))
        }
        let crypto = try BundledData.crypto.data()
        let users = try BundledData.users.data()
        route("GET", "/crypto") { _ in .json(crypto) }
        route("GET", "/users") { _ in .json(users) }
    }
}
