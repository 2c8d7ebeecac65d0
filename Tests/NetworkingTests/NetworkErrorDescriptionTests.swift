import Foundation
import Networking
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct NetworkErrorDescriptionTests {
    @Test func aFoundationTransportErrorIsOneReadableLine() {
        let underlying = URLError(
            .cannotConnectToHost,
            userInfo: [
                NSLocalizedDescriptionKey: "Failed to connect to 127.0.0.1 port 9: Couldn't connect to server",
                "detail": "a userInfo entry that must not be dumped",
            ])
        let text = NetworkError.transport(underlying).description
        #expect(
            text
                == "transport error: Failed to connect to 127.0.0.1 port 9: Couldn't connect to server (URLError -1004)"
        )
        #expect(!text.contains("UserInfo"))
    }

    @Test func aSwiftTransportErrorUsesItsDescription() {
        struct Refused: Error, CustomStringConvertible {
            var description: String { "refused by policy" }
        }
        #expect(NetworkError.transport(Refused()).description == "transport error: refused by policy")
    }
}
