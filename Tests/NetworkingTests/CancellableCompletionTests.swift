import Foundation
import Networking
import Streams
import Testing

/// Work started by a test: records cancellation and lets the test complete it.
final class ManualWork: Cancellable, @unchecked Sendable {
    private let state = Locked<(completion: (@Sendable (Result<Int, NetworkError>) -> Void)?, cancels: Int)>((nil, 0))

    var cancelCount: Int { state.withLock { $0.cancels } }
    var isStarted: Bool { state.withLock { $0.completion != nil } }

    func start(_ completion: @escaping @Sendable (Result<Int, NetworkError>) -> Void) -> ManualWork {
        state.withLock { $0.completion = completion }
        return self
    }

    func complete(_ result: Result<Int, NetworkError>) {
        state.withLock { $0.completion }?(result)
    }

    func cancel() { state.withLock { $0.cancels += 1 } }
}

@Suite struct CancellableCompletionTests {
    @Test func returnsTheValueTheHandlerReports() async throws {
        let value = try await withCancellableCompletion { done in
            done(.success(7))
            return AnyCancellable {}
        }
        #expect(value == 7)
    }

    @Test func throwsTheErrorTheHandlerReports() async {
        let error = await caught {
            try await withCancellableCompletion { (done: @escaping @Sendable (Result<Int, NetworkError>) -> Void) in
                done(.failure(.timeout))
                return AnyCancellable {}
            }
        }
        guard case .timeout = error else { return fail("got \(String(describing: error))") }
    }

    @Test func resumesOnceWhenTheHandlerIsCalledTwice() async throws {
        let work = ManualWork()
        let task = Task { try await withCancellableCompletion { work.start($0) } }
        while !work.isStarted { await Task.yield() }
        work.complete(.success(1))
        work.complete(.success(2))
        work.complete(.failure(.timeout))
        #expect(try await task.value == 1)
    }

    @Test func cancellingTheTaskCancelsTheWorkAndThrowsCancelledWithoutWaitingForIt() async {
        let work = ManualWork()
        let task = Task { () async throws(NetworkError) -> Int in try await withCancellableCompletion { work.start($0) }
        }
        while !work.isStarted { await Task.yield() }
        task.cancel()
        let result = await task.result
        guard case .cancelled? = (result).networkError else { return fail("got \(result)") }
        #expect(work.cancelCount == 1)
        work.complete(.success(1))  // late completion is ignored (a second resume would trap)
    }

    @Test func neverStartsTheWorkWhenTheTaskIsAlreadyCancelled() async {
        let work = ManualWork()
        let task = Task { () async throws(NetworkError) -> Int in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await withCancellableCompletion { work.start($0) }
        }
        let result = await task.result
        guard case .cancelled? = (result).networkError else { return fail("got \(result)") }
        #expect(!work.isStarted)
    }

    @Test func resumesExactlyOnceUnderRacingCompletionAndCancellation() async {
        for _ in 0..<200 {
            let work = ManualWork()
            let task = Task { () async throws(NetworkError) -> Int in
                try await withCancellableCompletion { work.start($0) }
            }
            while !work.isStarted { await Task.yield() }
            async let completing: Void = work.complete(.success(1))
            task.cancel()
            await completing
            let result = await task.result
            if case .success(1) = result { continue }
            guard case .cancelled? = result.networkError else { return fail("got \(result)") }
        }
    }
}
