/// Holds the access token and refreshes it, so that any number of concurrent 401s cause exactly one refresh.
///
/// - `refreshToken(replacing:)` with the token a request was rejected with: if the token has changed since
///   (someone already refreshed), it returns the current token at once, with no new refresh; if a refresh
///   is running, it waits for that one; otherwise it starts the refresh action. All waiters get its result.
/// - A failed refresh throws `.refreshFailed` to every waiter and keeps the old token. A request that was
///   sent with that token before the failure and is rejected after it gets the same `.refreshFailed` at
///   once, with no new refresh (so concurrent 401s cause one refresh even when it fails fast); once a request
///   has been sent after the failure (`token()` was called), the next rejection may try again.
/// - `token()` waits for a running refresh, so requests sent during a refresh carry the new token.
/// - Threading: an actor; the refresh action runs in a task of its own, once per refresh.
///
/// ```swift
/// let refresher = TokenRefresher(token: stored) { try await auth.refresh() }
/// let client = RemoteClient(interceptors: [AuthenticationInterceptor(refresher: refresher)])
/// ```
public actor TokenRefresher {
    private var current: String?
    private var running: Task<String, any Error>?
    /// The token the running refresh replaces.
    private var runningReplaces: String?
    /// The last refresh's failure and the token it was to replace, until a request is sent after it.
    private var failure: (replaced: String?, error: NetworkError)?
    private let refresh: @Sendable () async throws -> String

    /// How many refreshes have started (for diagnostics and tests).
    public private(set) var refreshCount = 0
    /// How many callers of `refreshToken(replacing:)` are waiting for the running refresh now.
    public private(set) var waitingCount = 0

    /// A refresher starting from `token` (nil: no token yet) whose refreshes run `refresh`, which returns
    /// the new access token or throws.
    public init(token: String?, refresh: @escaping @Sendable () async throws -> String) {
        self.current = token
        self.refresh = refresh
    }

    /// The current token, after any running refresh has ended (its failure is ignored here). Call it to send
    /// a request: a rejection of a request sent after a failed refresh may start a new refresh.
    public func token() async -> String? {
        if let running { settle(running, await running.result) }
        failure = nil
        return current
    }

    /// A token to retry with after a request sent with `rejected` was refused (see the type's contract).
    ///
    /// - Throws: `.refreshFailed` if the refresh action throws.
    public func refreshToken(replacing rejected: String?) async throws(NetworkError) -> String {
        let task: Task<String, any Error>
        if let running {
            task = running
        } else if let current, current != rejected {
            return current
        } else if let failure, failure.replaced == rejected {
            throw failure.error
        } else {
            refreshCount += 1
            let refresh = self.refresh
            task = Task { try await refresh() }
            running = task
            runningReplaces = current
        }
        waitingCount += 1
        let result = await task.result
        waitingCount -= 1
        settle(task, result)
        switch result {
        case .success(let token): return token
        case .failure(let error): throw .refreshFailed(NetworkError.explanation(of: error))
        }
    }

    /// Records the outcome of `task` if it is still the running refresh. Every waiter calls this when it
    /// resumes, so whichever resumes first updates the token before any of them uses it.
    private func settle(_ task: Task<String, any Error>, _ result: Result<String, any Error>) {
        guard running == task else { return }
        running = nil
        switch result {
        case .success(let token):
            current = token
            failure = nil
        case .failure(let error):
            failure = (runningReplaces, .refreshFailed(NetworkError.explanation(of: error)))
        }
    }
}
