import Foundation
import Networking
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct RequestBuilderTests {
    let builder = RequestBuilder()

    func url(base: String, path: String) throws -> String? {
        try builder.request(for: TestEndpoint(baseURL: URL(string: base)!, path: path)).url?.absoluteString
    }

    @Test func joinsBaseURLAndPathWithExactlyOneSlash() throws {
        #expect(try url(base: "https://api.example.com", path: "/items") == "https://api.example.com/items")
        #expect(try url(base: "https://api.example.com/", path: "/items") == "https://api.example.com/items")
        #expect(try url(base: "https://api.example.com/v1/", path: "items") == "https://api.example.com/v1/items")
        #expect(try url(base: "https://api.example.com/v1", path: "//items") == "https://api.example.com/v1/items")
        #expect(try url(base: "https://api.example.com", path: "") == "https://api.example.com/")
    }

    @Test func joinsWithExactlyOneSlashWhenTheBaseEndsWithSeveral() throws {
        #expect(try url(base: "https://api.example.com/v1//", path: "/items") == "https://api.example.com/v1/items")
        #expect(try url(base: "https://api.example.com//", path: "items") == "https://api.example.com/items")
        #expect(try url(base: "https://api.example.com//", path: "") == "https://api.example.com/")
    }

    @Test func keepsAnEscapedSlashInTheBasePathEscaped() throws {
        #expect(try url(base: "https://api.example.com/a%2Fb", path: "items") == "https://api.example.com/a%2Fb/items")
        #expect(try url(base: "https://api.example.com/a%20b/", path: "c d") == "https://api.example.com/a%20b/c%20d")
    }

    @Test func escapesCharactersThatCannotAppearInAPath() throws {
        #expect(try url(base: "https://api.example.com", path: "/a b/c?d") == "https://api.example.com/a%20b/c%3Fd")
    }

    @Test func keepsTheBaseQueryAndAppendsQueryParameters() throws {
        let endpoint = TestEndpoint(
            baseURL: URL(string: "https://api.example.com/v1?key=k")!,
            task: .parameters(["q": "red car", "page": 2], encoding: .queryString))
        let request = try builder.request(for: endpoint)
        #expect(request.url?.absoluteString == "https://api.example.com/v1/items?key=k&page=2&q=red%20car")
        #expect(request.httpBody == nil)
    }

    @Test func reportsABaseURLWithoutSchemeOrHostAsInvalidURL() {
        let bases = ["api.example.com", "/relative/path", "ftp://example.com", "file:///tmp/x", "https://"]
        for base in bases {
            let baseURL = URL(string: base)
            #expect(baseURL != nil, "\(base) should parse as a URL")
            guard let baseURL else { continue }
            #expect("\(base)") {
                try builder.request(for: TestEndpoint(baseURL: baseURL))
            } throws: { error in
                if case .invalidURL = error as? NetworkError { true } else { false }
            }
        }
    }

    @Test func invalidURLCarriesTheAttemptedURL() {
        do {
            _ = try builder.request(for: TestEndpoint(baseURL: URL(string: "mailto:someone")!, path: "x"))
            Issue.record("expected invalidURL")
        } catch {
            guard case .invalidURL(let text) = error else { return fail("got \(error)") }
            #expect(text == "mailto:someone/x")
        }
    }

    @Test func setsMethodHeadersAndTimeout() throws {
        let endpoint = TestEndpoint(
            method: .delete, headers: ["X-Trace": "1", "Accept": "application/json"], timeout: .milliseconds(1500))
        let request = try builder.request(for: endpoint)
        #expect(request.httpMethod == "DELETE")
        #expect(request.value(forHTTPHeaderField: "X-Trace") == "1")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.timeoutInterval == 1.5)
    }

    @Test func formBodyCarriesEncodedParametersAndItsContentType() throws {
        let endpoint = TestEndpoint(method: .post, task: .parameters(["b": "x y", "a": true], encoding: .formBody))
        let request = try builder.request(for: endpoint)
        #expect(request.url?.query == nil)
        #expect(request.httpBody.map { String(decoding: $0, as: UTF8.self) } == "a=true&b=x%20y")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test func jsonParametersAndJSONBodySetApplicationJSON() throws {
        struct Login: Encodable, Sendable { let user: String }
        let parameters = try builder.request(
            for: TestEndpoint(method: .post, task: .parameters(["a": 1], encoding: .json)))
        #expect(parameters.httpBody.map { String(decoding: $0, as: UTF8.self) } == #"{"a":1}"#)
        #expect(parameters.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let body = try builder.request(for: TestEndpoint(method: .post, task: .jsonBody(Login(user: "ada"))))
        #expect(body.httpBody.map { String(decoding: $0, as: UTF8.self) } == #"{"user":"ada"}"#)
        #expect(body.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func keepsAContentTypeTheEndpointSets() throws {
        let endpoint = TestEndpoint(
            method: .post, task: .parameters(["a": 1], encoding: .json),
            headers: ["content-type": "application/vnd.api+json"])
        let request = try builder.request(for: endpoint)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/vnd.api+json")
    }
}
