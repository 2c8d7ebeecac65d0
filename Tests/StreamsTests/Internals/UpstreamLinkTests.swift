import Testing

@testable import Streams

/// `UpstreamLink` (Sources/Streams/Internals/UpstreamLink.swift), the one-upstream operators' link to their upstream
/// subscription: it takes one subscription (a second is cancelled), keeps demand requested before the subscription
/// came and passes it on in one request, forwards requests while subscribed, and ends once: after `finish()` or
/// `cancel()` it lets go of the subscription, forwards nothing, and cancels any subscription that arrives late.
@Suite struct UpstreamLinkTests {
    @Test func demandRequestedBeforeTheSubscriptionIsPassedOnInOneRequestWhenItArrives() {
        let link = UpstreamLink()
        link.request(.max(2))
        link.request(.max(3))
        let subscription = SpySubscription()
        #expect(link.attach(subscription))
        #expect(subscription.requests == [.max(5)])
        link.request(.unlimited)
        #expect(subscription.requests == [.max(5), .unlimited])
    }

    @Test func noRequestIsMadeOnAttachWhenNothingWasRequested() {
        let link = UpstreamLink()
        let subscription = SpySubscription()
        #expect(link.attach(subscription))
        #expect(subscription.requests.isEmpty)
    }

    @Test func aSecondSubscriptionIsCancelledAndTheFirstKept() {
        let link = UpstreamLink()
        let first = SpySubscription()
        let second = SpySubscription()
        #expect(link.attach(first))
        #expect(!link.attach(second))
        #expect(second.cancelCount == 1)
        link.request(.max(1))
        #expect(first.requests == [.max(1)])
        #expect(first.cancelCount == 0)
        #expect(second.requests.isEmpty)
    }

    @Test func finishEndsTheLinkOnceWithoutCancellingAndReleasesTheSubscription() {
        let link = UpstreamLink()
        weak var released: SpySubscription?
        do {
            let subscription = SpySubscription()
            released = subscription
            #expect(link.attach(subscription))
        }
        #expect(released != nil)
        #expect(!link.isTerminal)
        #expect(link.finish())
        #expect(released == nil)  // let go of, not cancelled: the upstream completed
        #expect(link.isTerminal)
        #expect(!link.finish())
        #expect(!link.finishAndCancel())
    }

    @Test func cancelCancelsTheSubscriptionOnceAndLaterRequestsGoNowhere() {
        let link = UpstreamLink()
        let subscription = SpySubscription()
        #expect(link.attach(subscription))
        link.cancel()
        link.cancel()
        link.request(.max(4))
        #expect(subscription.cancelCount == 1)
        #expect(subscription.requests.isEmpty)
        #expect(link.isTerminal)
        #expect(!link.finish())  // a completion arriving after the cancel is not delivered
    }

    @Test func aSubscriptionArrivingAfterTheLinkEndedIsCancelled() {
        let cancelledFirst = UpstreamLink()
        cancelledFirst.request(.max(1))
        cancelledFirst.cancel()
        let late = SpySubscription()
        #expect(!cancelledFirst.attach(late))
        #expect(late.cancelCount == 1)
        #expect(late.requests.isEmpty)  // the demand asked before the cancel is not passed on

        let finishedFirst = UpstreamLink()
        #expect(finishedFirst.finish())
        let later = SpySubscription()
        #expect(!finishedFirst.attach(later))
        #expect(later.cancelCount == 1)
    }

    @Test func finishAndCancelSaysWhetherTheLinkWasStillLive() {
        let link = UpstreamLink()
        let subscription = SpySubscription()
        #expect(link.attach(subscription))
        #expect(link.finishAndCancel())
        #expect(subscription.cancelCount == 1)
        #expect(!link.finishAndCancel())
        #expect(subscription.cancelCount == 1)
    }

    @Test func cancelLockedEndsTheLinkInsideTheCallersCriticalSectionAndHandsTheSubscriptionOut() {
        let link = UpstreamLink()
        let subscription = SpySubscription()
        #expect(link.attach(subscription))
        link.lock()
        let taken = link.cancelLocked()
        link.unlock()
        #expect(subscription.cancelCount == 0)  // the caller cancels it, outside the lock
        #expect(taken === subscription)
        taken?.cancel()
        #expect(link.isTerminal)
        link.request(.max(1))
        #expect(subscription.cancelCount == 1)
        #expect(subscription.requests.isEmpty)
    }
}
