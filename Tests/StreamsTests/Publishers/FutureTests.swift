import Streams
import StreamsTesting
import Testing

private enum FutureError: Error, Equatable {
    case boom
}

/// Keeps a promise so a test can fulfil it later.
private final class PromiseBox<Output, Failure: Error> {
    var promise: Future<Output, Failure>.Promise?
}

@Suite struct FutureTests {
    @Test func runsItsClosureEagerlyInInit() {
        var ran = false
        let future = Future<Int, Never> { promise in
            ran = true
            promise(.success(1))
        }
        #expect(ran)
        _ = future
    }

    @Test func deliversTheValueThenFinishes() {
        let recorder = Future<Int, Never> { $0(.success(42)) }.record()
        #expect(recorder.events == [.value(42, at: .zero), .finished(at: .zero)])
        #expect(recorder.subscriptionCount == 1)
    }

    @Test func firstPromiseCallWins() {
        let future = Future<Int, FutureError> { promise in
            promise(.success(1))
            promise(.success(2))
            promise(.failure(.boom))
        }
        #expect(future.record().events == [.value(1, at: .zero), .finished(at: .zero)])
    }

    @Test func resultIsCachedForEverySubscriberNowAndLater() {
        var runs = 0
        let box = PromiseBox<String, Never>()
        let future = Future<String, Never> { promise in
            runs += 1
            box.promise = promise
        }
        let early = future.record()
        #expect(early.events.isEmpty)
        box.promise?(.success("done"))
        let late = future.record()
        #expect(runs == 1)
        #expect(early.values == ["done"] && early.isFinished)
        #expect(late.values == ["done"] && late.isFinished)
    }

    @Test func valueWaitsForDemand() {
        let future = Future<Int, Never> { $0(.success(7)) }
        let recorder = future.record(demand: .none)
        #expect(recorder.events.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.events == [.value(7, at: .zero), .finished(at: .zero)])
        recorder.request(.max(1))
        #expect(recorder.events.count == 2)
    }

    @Test func pendingValueWaitsForDemandToo() {
        let box = PromiseBox<Int, Never>()
        let future = Future<Int, Never> { box.promise = $0 }
        let recorder = future.record(demand: .none)
        box.promise?(.success(3))
        #expect(recorder.events.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.values == [3])
        #expect(recorder.isFinished)
    }

    @Test func failureIsDeliveredWithoutDemand() {
        let recorder = Future<Int, FutureError> { $0(.failure(.boom)) }.record(demand: .none)
        #expect(recorder.events == [.failure(.boom, at: .zero)])
    }

    @Test func cancelledSubscriberGetsNothingWhenTheFutureResolves() {
        let box = PromiseBox<Int, Never>()
        let future = Future<Int, Never> { box.promise = $0 }
        let leaver = future.record()
        let stayer = future.record()
        leaver.cancel()
        leaver.cancel()
        box.promise?(.success(5))
        #expect(leaver.events.isEmpty)
        #expect(stayer.values == [5])
    }

    @Test func requestFromInsideReceiveDoesNotDeliverTwice() {
        let future = Future<Int, Never> { $0(.success(1)) }
        var received: [Int] = []
        var finished = 0
        var subscription: (any Subscription)?
        future.subscribe(
            AnySubscriber<Int, Never>(
                receiveSubscription: {
                    subscription = $0
                    $0.request(.max(1))
                },
                receiveValue: { value in
                    received.append(value)
                    subscription?.request(.max(1))
                    return .max(1)
                },
                receiveCompletion: { _ in finished += 1 }))
        #expect(received == [1])
        #expect(finished == 1)
    }

    @Test func aResultRequestedInsideReceiveSubscriptionArrivesOnceTheCallReturns() {
        let success = HandshakeSubscriber<Int, ProbeError>(initial: .max(1)) {}
        Future<Int, ProbeError> { $0(.success(1)) }.subscribe(success)
        #expect(success.events == ["subscription", "value(1)", "finished"])
        let failure = HandshakeSubscriber<Int, ProbeError>(initial: nil) {}
        Future<Int, ProbeError> { $0(.failure(.boom)) }.subscribe(failure)
        #expect(failure.events == ["subscription", "failure"])
    }

    @Test func deferredFutureRunsOncePerSubscription() {
        var runs = 0
        let deferred = Deferred {
            Future<Int, Never> { promise in
                runs += 1
                promise(.success(runs))
            }
        }
        #expect(runs == 0)
        #expect(deferred.record().values == [1])
        #expect(deferred.record().values == [2])
    }

    @Test func retryingAFutureGetsTheCachedFailureWithoutRunningAgain() {
        var runs = 0
        let future = Future<Int, FutureError> { promise in
            runs += 1
            promise(.failure(.boom))
        }
        let recorder = future.retry(3).record()
        #expect(runs == 1)
        #expect(recorder.events == [.failure(.boom, at: .zero)])
    }

    @Test func retryingADeferredFutureRunsTheWorkForEachAttempt() {
        var runs = 0
        let recorder = Deferred {
            Future<Int, FutureError> { promise in
                runs += 1
                promise(runs < 3 ? .failure(.boom) : .success(runs))
            }
        }.retry(5).record()
        #expect(runs == 3)
        #expect(recorder.events == [.value(3, at: .zero), .finished(at: .zero)])
    }

    @Test func asyncFutureResolvesWithTheOperationsValue() async {
        let future = Future<Int, Never> { await Self.slowDouble(21) }
        var cancellable: AnyCancellable?
        let value = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            cancellable = future.sink { continuation.resume(returning: $0) }
        }
        #expect(value == 42)
        cancellable?.cancel()
    }

    @Test func throwingAsyncFuturePublishesTheError() async {
        let future = Future<Int, any Error> { () async throws -> Int in throw FutureError.boom }
        var cancellable: AnyCancellable?
        let completion = await withCheckedContinuation {
            (continuation: CheckedContinuation<Subscribers.Completion<any Error>, Never>) in
            cancellable = future.sink(
                receiveCompletion: { continuation.resume(returning: $0) }, receiveValue: { _ in })
        }
        guard case .failure(let error) = completion else {
            Issue.record("expected a failure, got \(completion)")
            return
        }
        #expect(error as? FutureError == .boom)
        cancellable?.cancel()
    }

    @Test func throwingAsyncFuturePublishesTheValue() async {
        let future = Future<String, any Error> { () async throws -> String in "ok" }
        var cancellable: AnyCancellable?
        let value = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            cancellable = future.sink(receiveCompletion: { _ in }, receiveValue: { continuation.resume(returning: $0) })
        }
        #expect(value == "ok")
        cancellable?.cancel()
    }

    private static func slowDouble(_ value: Int) async -> Int {
        await Task.yield()
        return value * 2
    }
}
