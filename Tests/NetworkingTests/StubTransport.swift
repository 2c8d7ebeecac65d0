import Foundation
import Networking
import Streams

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that answers from a closure, records the requests, and can hold answers until released.
final class StubTransport: HTTPTransport, @unchecked Sendable {
    typealias Answer = @Sendable (URLRequest, Int) -> Result<NetworkResponse, NetworkError>

    private struct State {
        var requests: [URLRequest] = []
        var cancelCount = 0
        var held: [@Sendable () -> Void] = []
    }

    private let state = Locked(State())
    private let answer: Answer
    private let holds: @Sendable (URLRequest) -> Bool

    /// Answers each request (and its 1-based index) with `answer`; requests for which `holdingWhen` is true
    /// are answered only when `releaseAll()` is called.
    init(holdingWhen holds: @escaping @Sendable (URLRequest) -> Bool, answer: @escaping Answer) {
        self.answer = answer
        self.holds = holds
    }

    /// Answers each request with `answer`; with `holds`, only when `releaseAll()` is called.
    convenience init(holds: Bool = false, answer: @escaping Answer) {
        self.init(holdingWhen: { _ in holds }, answer: answer)
    }

    /// Always the same response.
    convenience init(status: Int, body: String = "", headers: [String: String] = [:]) {
        self.init { _, _ in .success(NetworkResponse(statusCode: status, headers: headers, body: Data(body.utf8))) }
    }

    var requests: [URLRequest] { state.withLock { $0.requests } }
    var cancelCount: Int { state.withLock { $0.cancelCount } }

    func send(
        _ request: URLRequest, completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void
    ) -> any Cancellable {
        let answer = self.answer
        let isHeld = holds(request)
        // A held request is recorded and held in one step: a test that sees it recorded and calls
        // `releaseAll()` must release it too (two steps let it slip past `releaseAll()` and hang forever).
        let reply = state.withLock { state -> (@Sendable () -> Void)? in
            state.requests.append(request)
            let index = state.requests.count
            let reply: @Sendable () -> Void = { completion(answer(request, index)) }
            if isHeld {
                state.held.append(reply)
                return nil
            }
            return reply
        }
        reply?()
        return AnyCancellable { [state] in state.withLock { $0.cancelCount += 1 } }
    }

    /// Answers every held request.
    func releaseAll() {
        let held = state.withLock { state in
            defer { state.held = [] }
            return state.held
        }
        for reply in held { reply() }
    }
}

/// Records the delays a client waited, instead of waiting.
final class SleepRecorder: @unchecked Sendable {
    private let delays = Locked<[Duration]>([])

    var recorded: [Duration] { delays.withLock { $0 } }

    var sleep: @Sendable (Duration) async throws -> Void {
        { [delays] delay in delays.withLock { $0.append(delay) } }
    }
}
