import Streams
import StreamsTesting
import Testing

@Suite struct AssignTests {
    @Test func assignWritesEachValueAndReleasesTheObjectOnCancel() {
        final class Model: @unchecked Sendable { var title = "" }
        let subject = PassthroughSubject<String, Never>()
        weak var weakModel: Model?
        var cancellable: AnyCancellable?
        do {
            let model = Model()
            weakModel = model
            cancellable = subject.assign(to: \.title, on: model)
            subject.send("hello")
            #expect(model.title == "hello")
        }
        #expect(weakModel != nil)
        cancellable?.cancel()
        #expect(weakModel == nil)
    }

    final class Model: @unchecked Sendable { var count = 0 }

    @Test func assignAsksForEverythingOnceAndExposesItsObjectAndKeyPath() {
        let model = Model()
        let assign = Subscribers.Assign(object: model, keyPath: \Model.count)
        #expect(assign.object === model)
        #expect(assign.keyPath == \Model.count)
        let upstream = SpySubscription()
        assign.receive(subscription: upstream)
        #expect(upstream.requests == [.unlimited])
        #expect(assign.receive(4) == .none)
        #expect(model.count == 4)
        // A second subscription is refused: cancelled, never asked.
        let second = SpySubscription()
        assign.receive(subscription: second)
        #expect(second.cancelCount == 1)
        #expect(second.requests.isEmpty)
    }

    @Test func completionReleasesTheObjectAndLaterValuesWriteNothing() {
        let model = Model()
        let assign = Subscribers.Assign(object: model, keyPath: \Model.count)
        let upstream = SpySubscription()
        assign.receive(subscription: upstream)
        assign.receive(completion: .finished)
        #expect(assign.object == nil)
        #expect(assign.receive(9) == .none)  // a sloppy upstream: ignored
        #expect(model.count == 0)
        #expect(upstream.cancelCount == 0)  // a completion does not cancel upstream
        assign.cancel()  // after the end: nothing to cancel
        #expect(upstream.cancelCount == 0)
    }

    @Test func cancelCancelsUpstreamOnceAndStopsWriting() {
        let model = Model()
        let assign = Subscribers.Assign(object: model, keyPath: \Model.count)
        let upstream = SpySubscription()
        assign.receive(subscription: upstream)
        assign.cancel()
        assign.cancel()
        #expect(upstream.cancelCount == 1)
        #expect(assign.object == nil)
        #expect(assign.receive(3) == .none)
        #expect(model.count == 0)
    }

    @Test func cancelBeforeTheSubscriptionCancelsItOnArrival() {
        let model = Model()
        let assign = Subscribers.Assign(object: model, keyPath: \Model.count)
        assign.cancel()
        let upstream = SpySubscription()
        assign.receive(subscription: upstream)
        #expect(upstream.cancelCount == 1)
        #expect(upstream.requests.isEmpty)
    }
}
