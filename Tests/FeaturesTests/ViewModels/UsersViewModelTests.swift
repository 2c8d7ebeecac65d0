import Foundation
import Networking
import Streams
import StreamsTesting
import Testing

@testable import Features

@Suite struct UsersViewModelTests {
    private let scheduler = TestScheduler()

    @Test func theUsersLoadOnFirstSubscription() {
        let client = StubClient.serving(bundleOn: scheduler)
        let users = UsersViewModel(client: client, baseURL: Fixtures.baseURL)
        #expect(client.requests.isEmpty)
        let recorder = users.state.record(on: scheduler)
        scheduler.advance(by: .milliseconds(100))
        #expect(
            recorder.events == [.value(.loading, at: .zero), .value(.loaded(Fixtures.users), at: .milliseconds(100))])
        #expect(client.requests.map(\.path) == ["/users"])
    }

    @Test func theSameCodeWorksOnAnotherClient() {
        // The one-line swap: another client (here one that serves two users from another base URL).
        let two = Array(Fixtures.users.prefix(2))
        let other = StubClient(scheduler: scheduler) { _ in .ok(Fixtures.json(two), after: .seconds(1)) }
        let users = UsersViewModel(client: other, baseURL: URL(string: "https://example.com/api")!)
        let recorder = users.state.record(on: scheduler)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [.loading, .loaded(two)])
    }

    @Test func aFailureIsShownAndReloadCancelsALoadInFlight() {
        let calls = Locked(0)
        let client = StubClient(scheduler: scheduler) { _ in
            let call = calls.withLock { calls -> Int in
                calls += 1
                return calls
            }
            return call == 1 ? .failure(.unacceptableStatus(code: 500, body: "")) : .ok(Fixtures.json(Fixtures.users))
        }
        let users = UsersViewModel(client: client, baseURL: Fixtures.baseURL)
        let recorder = users.state.record(on: scheduler)
        scheduler.advance(by: .milliseconds(100))
        #expect(recorder.values.last == .failed("HTTP 500"))
        users.reload()
        scheduler.advance(by: .milliseconds(50))
        users.reload()
        scheduler.advance(by: .milliseconds(100))
        #expect(client.cancellations == 1)
        #expect(recorder.values == [.loading, .failed("HTTP 500"), .loading, .loading, .loaded(Fixtures.users)])
    }

    @Test func cancelStopsTheLoadInFlight() {
        let client = StubClient.serving(bundleOn: scheduler, latency: .seconds(5))
        let users = UsersViewModel(client: client, baseURL: Fixtures.baseURL)
        let recorder = users.state.record(on: scheduler)
        scheduler.advance(by: .seconds(1))
        users.cancel()
        scheduler.advance(by: .seconds(10))
        #expect(recorder.values == [.loading, .failed(UsersViewModel.cancelledMessage)])
        #expect(client.cancellations == 1)
        users.cancel()  // nothing in flight: nothing changes
        users.reload()
        scheduler.advance(by: .seconds(5))
        #expect(recorder.values.last == .loaded(Fixtures.users))
    }
}
