import Foundation
import Networking
import Testing

@Suite struct ResponseValidationTests {
    @Test func passesAnAcceptableStatus() throws {
        let response = NetworkResponse(statusCode: 204)
        #expect(try ResponseValidation.validate(response, for: TestEndpoint()) == response)
    }

    @Test func honoursTheEndpointsAcceptableCodes() throws {
        let endpoint = TestEndpoint(acceptableStatusCodes: 200..<500)
        #expect(try ResponseValidation.validate(NetworkResponse(statusCode: 404), for: endpoint).statusCode == 404)
    }

    @Test func reportsAnUnacceptableStatusWithCodeAndBody() {
        let error = ResponseValidation.error(for: NetworkResponse(statusCode: 500, body: Data("  boom \n".utf8)))
        guard case .unacceptableStatus(let code, let body) = error else { return fail("got \(error)") }
        #expect(code == 500)
        #expect(body == "boom")
    }

    @Test func reports401AsUnauthorized() {
        guard case .unauthorized = ResponseValidation.error(for: NetworkResponse(statusCode: 401)) else {
            return fail("expected unauthorized")
        }
    }

    @Test func cutsLongBodiesTo200CharactersWithAnEllipsis() {
        let snippet = ResponseValidation.snippet(of: Data(String(repeating: "é", count: 500).utf8))
        #expect(snippet == String(repeating: "é", count: 200) + "…")
    }
}
