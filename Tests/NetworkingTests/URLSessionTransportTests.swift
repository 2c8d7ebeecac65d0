import Foundation
import Networking
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct URLSessionTransportTests {
    @Test func mapsTimeoutAndCancellationAndKeepsOtherURLErrors() {
        guard case .timeout = URLSessionTransport.map(URLError(.timedOut)) else { return fail("timeout") }
        guard case .cancelled = URLSessionTransport.map(URLError(.cancelled)) else { return fail("cancelled") }
        guard case .transport(let error) = URLSessionTransport.map(URLError(.networkConnectionLost)) else {
            return fail("transport")
        }
        #expect((error as? URLError)?.code == .networkConnectionLost)
    }
}
