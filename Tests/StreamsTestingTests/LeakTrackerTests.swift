import Streams
import StreamsTesting
import Testing

private final class Widget {}

/// A subscriber that keeps its subscription forever and a subject that keeps the subscriber: a cycle.
private final class Hoarder: Subscriber, @unchecked Sendable {
    var subscription: (any Subscription)?
    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.unlimited)
    }
    func receive(_ input: Int) -> Subscribers.Demand { .none }
    func receive(completion: Subscribers.Completion<Never>) {}
}

@Suite struct LeakTrackerTests {
    @Test func aFreedObjectIsNotReported() {
        let tracker = LeakTracker()
        do {
            let widget = Widget()
            tracker.watch(widget)
        }
        #expect(tracker.survivors.isEmpty)
        #expect(tracker.watchedCount == 1)
        #expect(tracker.expectAllFreed())
    }

    @Test func anObjectStillAliveIsReportedByItsType() {
        let tracker = LeakTracker()
        let widget = Widget()
        tracker.watch(widget)
        tracker.watch(Widget(), as: "temporary")
        #expect(tracker.survivors == ["Widget"])
        withKnownIssue {
            #expect(!tracker.expectAllFreed())
        } matching: { issue in
            issue.comments.contains { $0.rawValue == "leaked: Widget is still alive" }
        }
        withExtendedLifetime(widget) {}
    }

    @Test func expectNoLeaksChecksOnceTheBodyHasReturned() {
        #expect(expectNoLeaks { tracker in tracker.watch(Widget()) })
        let kept = Widget()
        withKnownIssue {
            expectNoLeaks { tracker in tracker.watch(kept, as: "kept widget") }
        } matching: { issue in
            issue.comments.contains { $0.rawValue == "leaked: kept widget is still alive" }
        }
    }

    @Test func aTokenCapturedByAClosureLivesAsLongAsTheClosure() {
        let tracker = LeakTracker()
        var closure: (() -> Int)?
        do {
            let token = tracker.token("closure")
            closure = { token(1) }
        }
        #expect(tracker.survivors == ["LeakToken \u{201C}closure\u{201D}"])
        #expect(closure?() == 1)
        closure = nil
        #expect(tracker.survivors.isEmpty)
    }

    @Test func valuesOfStructsAreNotWatched() {
        let tracker = LeakTracker()
        #expect(!tracker.watchIfObject(42))
        #expect(tracker.watchIfObject(Widget(), as: "widget"))
        #expect(tracker.watchedCount == 1)
        #expect(tracker.survivors.isEmpty)
    }

    @Test func recordWatchesTheSubscriberAndItsSubscription() {
        let subject = PassthroughSubject<Int, Never>()
        let tracker = LeakTracker()
        var recorder: TestRecorder<Int, Never>? = tracker.record(subject)
        #expect(tracker.watchedCount == 2)
        subject.send(1)
        #expect(recorder?.values == [1])
        recorder?.cancel()
        recorder = nil
        #expect(tracker.survivors.isEmpty)
        withExtendedLifetime(subject) {}
    }

    @Test func aSubscriberThatIsNeverCancelledIsReported() {
        let subject = PassthroughSubject<Int, Never>()
        let tracker = LeakTracker()
        do {
            let hoarder = tracker.watch(Hoarder())
            subject.subscribe(hoarder)
            if let subscription = hoarder.subscription { tracker.watchIfObject(subscription, as: "subscription") }
        }
        #expect(tracker.survivors == ["Hoarder", "subscription"])  // the subject holds them until it ends
        subject.send(completion: .finished)
        withExtendedLifetime(subject) {}
    }
}
