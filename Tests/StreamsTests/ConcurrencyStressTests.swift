import Dispatch
import Foundation
import Streams
import StreamsTesting
import Synchronization
import Testing

/// Many threads at once. These tests prove thread safety when run under
/// `swift test --sanitize=thread` (which `.ci/run` does): the subscriber-side counters below are
/// deliberately plain, unsynchronized variables, so a concurrent delivery would be reported as a race.
@Suite struct ConcurrencyStressTests {
    static let threads = 8
    static let perThread = 2_000

    /// A subscriber-side counter with no lock of its own: only serial delivery keeps it race-free.
    final class UnsynchronizedCounter: @unchecked Sendable {
        var count = 0
        var sum = 0
    }

    @Test func concurrentSendsReachTheSubscriberSeriallyAndCompletely() {
        let subject = PassthroughSubject<Int, Never>()
        let counter = UnsynchronizedCounter()
        let c = subject.sink { value in
            counter.count += 1
            counter.sum += value
        }
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for i in 0..<Self.perThread { subject.send(thread * Self.perThread + i) }
        }
        let total = Self.threads * Self.perThread
        #expect(counter.count == total)
        #expect(counter.sum == total * (total - 1) / 2)
        c.cancel()
    }

    @Test func subscribersComeAndGoWhileOthersSend() {
        let subject = PassthroughSubject<Int, Never>()
        let steady = UnsynchronizedCounter()
        let c = subject.map { $0 * 2 }.filter { $0 >= 0 }.sink { _ in steady.count += 1 }
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            if thread.isMultiple(of: 2) {
                for i in 0..<Self.perThread { subject.send(i) }
            } else {
                for _ in 0..<Self.perThread / 10 {
                    let transient = UnsynchronizedCounter()
                    let cancellable = subject.sink { _ in transient.count += 1 }
                    cancellable.cancel()
                }
            }
        }
        #expect(steady.count == (Self.threads / 2) * Self.perThread)
        c.cancel()
    }

    @Test func currentValueSubjectValueIsConsistentUnderConcurrentWrites() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let last = UnsynchronizedCounter()
        let c = subject.sink { value in
            last.count += 1
            last.sum = value
        }
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for _ in 0..<Self.perThread {
                subject.send(1)
                _ = subject.value
            }
        }
        #expect(last.count == Self.threads * Self.perThread + 1)
        #expect(subject.value == 1)
        c.cancel()
    }

    @Test func concurrentCancelRunsTheCancelActionOnce() {
        for _ in 0..<200 {
            let count = Locked(0)
            let cancellable = AnyCancellable { count.withLock { $0 += 1 } }
            DispatchQueue.concurrentPerform(iterations: 4) { _ in cancellable.cancel() }
            #expect(count.withLock { $0 } == 1)
        }
    }

    @Test func concurrentCompletionAndSendDeliverExactlyOneCompletion() {
        for _ in 0..<200 {
            let subject = PassthroughSubject<Int, Never>()
            let recorder = subject.record()
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                if thread == 0 { subject.send(completion: .finished) } else { subject.send(thread) }
            }
            let completions = recorder.events.filter { if case .finished = $0 { return true } else { return false } }
            #expect(completions.count == 1)
            #expect(recorder.events.last.map { if case .finished = $0 { return true } else { return false } } == true)
        }
    }

    @Test func aPassthroughSubscriberGetsExactlyWhatItRequestedFromManyThreads() {
        // Demand is an atomic counter that requests add to and only the emitter takes from: with
        // requests and sends racing, the subscriber never gets more than it asked for, and once every
        // request is in, a send per outstanding unit of demand delivers exactly that many more.
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.record(demand: .none)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for i in 0..<500 {
                if thread.isMultiple(of: 2) { recorder.request(.max(1)) } else { subject.send(i) }
            }
        }
        let requested = (Self.threads / 2) * 500
        let received = recorder.values.count
        #expect(received <= requested)
        for i in 0..<(requested - received + 5) { subject.send(i) }
        #expect(recorder.values.count == requested)
    }

    @Test func cancellingASinkFromAnotherThreadStopsItWhileASenderKeepsSending() {
        // The sink takes no lock per value: a cancel from another thread must still stop it (values
        // racing with the cancel may arrive; none after the sender sees the cancel), with no race on
        // the handler or the upstream subscription.
        for _ in 0..<20 {
            let subject = PassthroughSubject<Int, Never>()
            let counter = UnsynchronizedCounter()
            let cancellable = subject.sink { _ in counter.count += 1 }
            let cancelled = Atomic<Bool>(false)
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    for i in 0..<2_000 { subject.send(i) }
                } else {
                    cancellable.cancel()
                    cancelled.store(true, ordering: .releasing)
                }
            }
            let wasCancelled = cancelled.load(ordering: .acquiring)
            #expect(wasCancelled)
            let before = counter.count
            subject.send(-1)
            #expect(counter.count == before)
            #expect(counter.count <= 2_000)
        }
    }

    @Test func cancellingASequenceFromAnotherThreadStopsItsUnlimitedLoop() {
        // `(0..<n).publisher` with unlimited demand loops without a lock per value, watching an atomic
        // flag: a cancel from another thread ends it long before the end of the sequence.
        let seen = SharedCount()
        let started = DispatchSemaphore(value: 0)
        let box = CancellableBox()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let sink = Subscribers.Sink<Int, Never>(
                receiveCompletion: { _ in },
                receiveValue: { _ in
                    if seen.value.wrappingAdd(1, ordering: .relaxed).newValue == 1_000 { started.signal() }
                })
            box.set(sink)
            (0..<Int.max).publisher.subscribe(sink)
            done.signal()
        }
        #expect(started.wait(timeout: .now() + 10) == .success)
        box.cancel()
        #expect(done.wait(timeout: .now() + 10) == .success)
        let count = seen.value.load(ordering: .relaxed)
        #expect(count >= 1_000 && count < Int.max / 2)
    }

    /// A counter shared with escaping closures.
    final class SharedCount: Sendable {
        let value = Atomic<Int>(0)
    }

    /// Hands a sink to another thread to cancel it.
    final class CancellableBox: @unchecked Sendable {
        let lock = NSLock()
        var cancellable: (any Cancellable)?
        func set(_ cancellable: any Cancellable) { lock.withLock { self.cancellable = cancellable } }
        func cancel() { lock.withLock { cancellable }?.cancel() }
    }

    @Test func recorderRequestsFromManyThreadsNeverExceedDemand() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let recorder = subject.record(demand: .none)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for i in 0..<200 {
                if thread.isMultiple(of: 2) { recorder.request(.max(1)) } else { subject.send(i) }
            }
        }
        #expect(recorder.values.count <= (Self.threads / 2) * 200)
    }

    @Test func shareServesSubscribersThatComeAndGoWhileTheUpstreamSends() {
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.share()
        let steady = UnsynchronizedCounter()
        let c = shared.sink { _ in steady.count += 1 }
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            if thread.isMultiple(of: 2) {
                for i in 0..<Self.perThread { subject.send(i) }
            } else {
                for _ in 0..<Self.perThread / 10 {
                    let transient = UnsynchronizedCounter()
                    shared.sink { _ in transient.count += 1 }.cancel()
                }
            }
        }
        #expect(steady.count == (Self.threads / 2) * Self.perThread)
        c.cancel()
    }

    @Test func shareReconnectsSafelyWhenEverySubscriberLeavesConcurrently() {
        let subscriptions = Locked(0)
        let latest = Locked<PassthroughSubject<Int, Never>?>(nil)
        let shared = Deferred { () -> PassthroughSubject<Int, Never> in
            let subject = PassthroughSubject<Int, Never>()
            subscriptions.withLock { $0 += 1 }
            latest.withLock { $0 = subject }
            return subject
        }.share()
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for _ in 0..<200 { shared.sink { _ in }.cancel() }
        }
        // Every connection was retired by its last subscriber: a new subscriber makes a fresh one.
        let before = subscriptions.withLock { $0 }
        let recorder = shared.record()
        #expect(subscriptions.withLock { $0 } == before + 1)
        latest.withLock { $0 }?.send(42)
        #expect(recorder.values == [42])
        recorder.cancel()
    }

    /// Waits (bounded) for a completion delivered on another thread; returns false on time-out.
    private func waitForCompletion(_ signal: DispatchSemaphore) -> Bool {
        signal.wait(timeout: .now() + .seconds(20)) == .success
    }

    @Test func receiveOnDeliversEverythingInOrderPerSenderOnOneQueue() {
        let subject = PassthroughSubject<Int, Never>()
        let queue = DispatchQueue(label: "stress.receive-on")
        let counter = UnsynchronizedCounter()
        let lastPerSender = Locked([Int](repeating: -1, count: Self.threads))
        let outOfOrder = Locked(0)
        let c = subject.receive(on: queue).sink { value in
            counter.count += 1
            let sender = value / Self.perThread
            lastPerSender.withLock { last in
                if value <= last[sender] { outOfOrder.withLock { $0 += 1 } }
                last[sender] = value
            }
        }
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for i in 0..<Self.perThread { subject.send(thread * Self.perThread + i) }
        }
        queue.sync {}  // every scheduled drain has run
        #expect(counter.count == Self.threads * Self.perThread)
        #expect(outOfOrder.withLock { $0 } == 0)
        c.cancel()
    }

    @Test func mergeOfSubjectsFedFromManyThreadsDeliversSerially() {
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        let counter = UnsynchronizedCounter()
        let done = DispatchSemaphore(value: 0)
        let c = left.merge(with: right).sink(
            receiveCompletion: { _ in done.signal() },
            receiveValue: { value in
                counter.count += 1
                counter.sum += value
            })
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            let target = thread.isMultiple(of: 2) ? left : right
            for _ in 0..<Self.perThread { target.send(1) }
        }
        left.send(completion: .finished)
        right.send(completion: .finished)
        #expect(waitForCompletion(done))
        #expect(counter.count == Self.threads * Self.perThread)
        #expect(counter.sum == Self.threads * Self.perThread)
        c.cancel()
    }

    /// merge and flatMap call their subscriber without retaining it: a cancel from another thread while a
    /// value is being delivered must leave the subscriber alive until that delivery returns, and free it after.
    @Test func cancellingAMergeOrFlatMapFromAnotherThreadWhileItDeliversIsSafe() {
        final class Counting: Subscriber, @unchecked Sendable {
            let counter: UnsynchronizedCounter
            var subscription: (any Subscription)?
            init(_ counter: UnsynchronizedCounter) { self.counter = counter }
            func receive(subscription: any Subscription) {
                self.subscription = subscription
                subscription.request(.unlimited)
            }
            func receive(_ input: Int) -> Subscribers.Demand {
                counter.count += 1
                return .none
            }
            func receive(completion: Subscribers.Completion<Never>) {}
        }
        for round in 0..<40 {
            let left = PassthroughSubject<Int, Never>()
            let right = PassthroughSubject<Int, Never>()
            let counter = UnsynchronizedCounter()
            weak var weakSubscriber: Counting?
            let cancellable: AnyCancellable
            do {
                let subscriber = Counting(counter)
                weakSubscriber = subscriber
                if round.isMultiple(of: 2) {
                    left.merge(with: right).subscribe(subscriber)
                } else {
                    left.merge(with: right).flatMap { Just($0) }.subscribe(subscriber)
                }
                let subscription = subscriber.subscription
                cancellable = AnyCancellable { subscription?.cancel() }
            }
            let cancelled = Atomic<Bool>(false)
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    for value in 0..<500 { (value.isMultiple(of: 2) ? left : right).send(value) }
                } else {
                    cancellable.cancel()
                    cancelled.store(true, ordering: .releasing)
                }
            }
            let wasCancelled = cancelled.load(ordering: .acquiring)
            #expect(wasCancelled)
            let before = counter.count
            left.send(-1)
            right.send(-1)
            #expect(counter.count == before)
            #expect(weakSubscriber == nil)
        }
    }

    @Test func debounceOnARealQueueFlushesTheLastValueWhenTheInputFinishes() {
        let subject = PassthroughSubject<Int, Never>()
        let queue = DispatchQueue(label: "stress.debounce")
        let counter = UnsynchronizedCounter()
        let finished = DispatchSemaphore(value: 0)
        let c = subject.debounce(for: .seconds(30), scheduler: queue).sink(
            receiveCompletion: { _ in finished.signal() },
            receiveValue: { value in
                counter.count += 1
                counter.sum = value
            })
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for i in 0..<Self.perThread { subject.send(thread * Self.perThread + i) }
        }
        subject.send(-1)
        subject.send(completion: .finished)
        // A 30 s debounce never fires here: only the finish can flush, so the one value is the last sent.
        #expect(waitForCompletion(finished))
        queue.sync {}
        #expect(counter.count == 1)
        #expect(counter.sum == -1)
        c.cancel()
    }

    /// Real queues, concurrent senders, a cancel from one of them mid-stream: the subscriber is called
    /// serially (the counter is unsynchronised, so the thread sanitizer sees any overlap, and an in-flight
    /// flag counts it), and no value sent after `cancel()` has returned is ever delivered (such values are
    /// sent negative, so the check has no race of its own).
    @Test func timingChainOnRealQueuesSurvivesConcurrentSendersAndCancel() {
        for round in 0..<20 {
            let subject = PassthroughSubject<Int, Never>()
            let queue = DispatchQueue(label: "stress.chain.\(round)")
            let counter = UnsynchronizedCounter()
            let flags = Locked((inside: false, overlaps: 0, cancelReturned: false, afterCancel: 0))
            let c =
                subject
                .receive(on: queue)
                .delay(for: .microseconds(50), scheduler: queue)
                .throttle(for: .microseconds(100), scheduler: queue, latest: true)
                .debounce(for: .microseconds(20), scheduler: queue)
                .sink { value in
                    flags.withLock { flags in
                        if flags.inside { flags.overlaps += 1 }
                        if value < 0 { flags.afterCancel += 1 }
                        flags.inside = true
                    }
                    counter.count += 1
                    flags.withLock { $0.inside = false }
                }
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for i in 0..<200 {
                    subject.send(flags.withLock { $0.cancelReturned } ? -1 - i : i)
                    if thread == 0 && i == 100 {
                        c.cancel()
                        flags.withLock { $0.cancelReturned = true }
                    }
                }
            }
            // Timers still pending on the queue run out (their actions find the chain cancelled).
            for _ in 0..<3 { queue.sync {} }
            let seen = flags.withLock { $0 }
            #expect(seen.overlaps == 0, "round \(round): the subscriber was called concurrently")
            #expect(seen.afterCancel == 0, "round \(round): a value sent after cancel() returned was delivered")
            #expect(queue.sync { counter.count } <= 800)
            c.cancel()
        }
    }

    /// Cancels its subscription from another thread while still inside `receive(subscription:)`, then uses
    /// itself; counts the hand-overs it survived in `survived`.
    final class CancelsElsewhereOnSubscription<Input>: Subscriber, @unchecked Sendable {
        typealias Failure = Never
        /// A subscription sent to another thread: sound because Combine's contract makes `cancel()` callable
        /// from any thread.
        struct Handed: @unchecked Sendable { let subscription: any Subscription }

        let survived: Locked<Int>
        /// Written once after the cancel returned, on the subscribing thread: used to touch `self` then.
        var cancelled = false
        init(survived: Locked<Int>) { self.survived = survived }

        func receive(subscription: any Subscription) {
            let done = DispatchSemaphore(value: 0)
            let handed = Handed(subscription: subscription)
            DispatchQueue.global().async {
                handed.subscription.cancel()
                done.signal()
            }
            done.wait()
            cancelled = true
            survived.withLock { $0 += 1 }
        }
        func receive(_ input: Input) -> Subscribers.Demand { .none }
        func receive(completion: Subscribers.Completion<Never>) {}
    }

    /// `zip`, `combineLatest` and `merge` hand their subscription to a subscriber that only they hold, and a
    /// cancel from another thread clears it meanwhile: they must keep it alive until the call returns (they
    /// copy it under their lock first; reading it in place, the cancel could free it mid-call).
    @Test func combinersKeepTheirSubscriberAliveThroughACancelDuringTheHandOver() {
        let survived = Locked(0)
        for _ in 0..<100 {
            let a = PassthroughSubject<Int, Never>()
            let b = PassthroughSubject<Int, Never>()
            a.zip(b).subscribe(CancelsElsewhereOnSubscription<(Int, Int)>(survived: survived))
            a.combineLatest(b).subscribe(CancelsElsewhereOnSubscription<(Int, Int)>(survived: survived))
            a.merge(with: b).subscribe(CancelsElsewhereOnSubscription<Int>(survived: survived))
        }
        #expect(survived.withLock { $0 } == 300)
    }
}
