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

    /// A subscription handed to a test, which calls it from several threads: that it is safe to is what such a test
    /// checks.
    struct Handed: @unchecked Sendable { let subscription: any Subscription }

    /// Subscribes a subscriber that counts and sums what it gets in `counter` (plain fields) and asks for nothing
    /// itself; returns its subscription, for the test to ask from other threads.
    static func subscribeCounting<P: Publisher>(_ publisher: P, into counter: UnsynchronizedCounter) -> Handed?
    where P.Output == Int, P.Failure == Never {
        var received: (any Subscription)?
        publisher.subscribe(
            AnySubscriber(
                receiveSubscription: { received = $0 },
                receiveValue: { value in
                    counter.count += 1
                    counter.sum += value
                    return .none
                }))
        return received.map(Handed.init)
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

    /// A subscriber that asks for everything and sends a marker into its subject from inside
    /// `receive(subscription:)`. Its fields are plain: a delivery during that call, or two at once, would be a race
    /// (reported under `--sanitize=thread`) or a wrong count.
    final class SendsWhileSubscribing: Subscriber, @unchecked Sendable {
        let subject: PassthroughSubject<Int, Never>
        let marker: Int
        var isSubscribing = false
        var deliveredWhileSubscribing = 0
        var lastPerSender: [Int: Int] = [:]
        var outOfOrder = 0
        var subscription: (any Subscription)?
        init(_ subject: PassthroughSubject<Int, Never>, marker: Int) {
            self.subject = subject
            self.marker = marker
        }
        func receive(subscription: any Subscription) {
            self.subscription = subscription
            isSubscribing = true
            subscription.request(.unlimited)
            subject.send(marker)
            isSubscribing = false
        }
        func receive(_ input: Int) -> Subscribers.Demand {
            if isSubscribing { deliveredWhileSubscribing += 1 }
            guard input >= 0 else { return .none }
            // Values are `sender * 1_000_000 + i`: each sender's values must arrive in the order it sent them.
            let sender = input / 1_000_000
            if let last = lastPerSender[sender], last >= input { outOfOrder += 1 }
            lastPerSender[sender] = input
            return .none
        }
        func receive(completion: Subscribers.Completion<Never>) {}
    }

    @Test func subscribersThatSendWhileSubscribingAreNeverCalledDuringTheirSubscriptionWhileOthersSend() {
        let subject = PassthroughSubject<Int, Never>()
        let steady = UnsynchronizedCounter()
        let c = subject.sink { _ in steady.count += 1 }
        let subscribers = Self.perThread / 10
        let finished = Locked<[SendsWhileSubscribing]>([])
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            if thread.isMultiple(of: 2) {
                for i in 0..<Self.perThread { subject.send(thread * 1_000_000 + i) }
            } else {
                var mine: [SendsWhileSubscribing] = []
                for k in 0..<subscribers {
                    let subscriber = SendsWhileSubscribing(subject, marker: -(thread * subscribers + k + 1))
                    subject.subscribe(subscriber)
                    subscriber.subscription?.cancel()
                    mine.append(subscriber)
                }
                finished.withLock { $0.append(contentsOf: mine) }
            }
        }
        // Every send has returned, so every delivery is over: the plain fields may be read now.
        let all = finished.withLock { $0 }
        #expect(all.allSatisfy { $0.deliveredWhileSubscribing == 0 && $0.outOfOrder == 0 })
        let senders = Self.threads / 2
        let subscribing = Self.threads - senders
        #expect(steady.count == senders * Self.perThread + subscribing * subscribers)
        for subscriber in all { subscriber.subscription = nil }
        c.cancel()
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

    /// `merge` with bounded demand: sources fed from several threads while another thread asks for one value at a
    /// time, so requests race with deliveries that end their turn without the lock. The subscriber (plain fields) is
    /// called serially and never beyond what was asked for; asking for more afterwards gets the values that waited
    /// (at most one per source: merge asks each for one at a time), then every new one.
    @Test func mergeWithBoundedDemandRequestedFromAnotherThread() {
        let sources = (0..<Self.threads - 1).map { _ in PassthroughSubject<Int, Never>() }
        let counter = UnsynchronizedCounter()
        guard let subscription = Self.subscribeCounting(Publishers.MergeMany(sources), into: counter) else {
            Issue.record("merge handed no subscription")
            return
        }
        let requests = Self.perThread
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            if thread == Self.threads - 1 {
                for _ in 0..<requests { subscription.subscription.request(.max(1)) }
            } else {
                for _ in 0..<Self.perThread { sources[thread].send(1) }
            }
        }
        #expect(counter.count <= requests)
        #expect(counter.sum == counter.count)
        let before = counter.count
        subscription.subscription.request(.unlimited)
        let waited = counter.count - before
        #expect(waited <= sources.count)
        for source in sources { source.send(1) }
        #expect(counter.count == before + waited + sources.count)
        #expect(counter.sum == counter.count)
        subscription.subscription.cancel()
    }

    /// `zip` and `combineLatest` fed from several threads at once: each subscriber (plain fields) is called serially,
    /// `zip` pairs every value (as many tuples as each side sent), and `combineLatest` combines every value sent once
    /// both sides have one.
    @Test func combinersFedFromManyThreadsDeliverSerially() {
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        let zipped = UnsynchronizedCounter()
        let combined = UnsynchronizedCounter()
        let z = left.zip(right).sink { pair in
            zipped.count += 1
            zipped.sum += pair.0 + pair.1
        }
        let c = left.combineLatest(right).sink { pair in
            combined.count += 1
            combined.sum += pair.0 + pair.1
        }
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            let target = thread.isMultiple(of: 2) ? left : right
            for _ in 0..<Self.perThread { target.send(1) }
        }
        let perSide = Self.threads / 2 * Self.perThread
        #expect(zipped.count == perSide)
        #expect(zipped.sum == 2 * perSide)
        // Only values sent before the other side's first value form no combination: at most one side's worth.
        #expect(combined.count >= perSide && combined.count < 2 * perSide)
        #expect(combined.sum == 2 * combined.count)
        z.cancel()
        c.cancel()
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

    /// A subscriber that asks for one value at a time from whatever thread calls ``ask()``, and records, with no
    /// lock of its own around the delivery, whether calls overlapped and whether a value sent after the cancel
    /// (a negative one) arrived.
    final class OneAtATime: Subscriber, @unchecked Sendable {
        typealias Input = [Int]
        typealias Failure = Never
        let flags = Locked((inside: false, overlaps: 0, afterCancel: 0, subscription: (any Subscription)?.none))
        let counter = UnsynchronizedCounter()

        func receive(subscription: any Subscription) {
            flags.withLock { $0.subscription = subscription }
        }
        func receive(_ input: [Int]) -> Subscribers.Demand {
            flags.withLock { flags in
                if flags.inside { flags.overlaps += 1 }
                if input.contains(where: { $0 < 0 }) { flags.afterCancel += 1 }
                flags.inside = true
            }
            counter.count += input.count
            flags.withLock { $0.inside = false }
            return .none
        }
        func receive(completion: Subscribers.Completion<Never>) {}
        func ask() { flags.withLock { $0.subscription }?.request(.max(1)) }
        func cancel() { flags.withLock { $0.subscription }?.cancel() }
    }

    /// `subscribe(on:)`, `buffer`, `timeout` and `collect(.byTimeOrCount)` keep their own state and their upstream
    /// link under one lock (the link's): senders on three threads, one-at-a-time requests from a fourth, timers on a
    /// real queue, and a cancel mid-stream. The subscriber is never called concurrently, nothing sent after the cancel
    /// arrives, and nothing deadlocks.
    @Test func linkOperatorsSurviveConcurrentSendersRequestsAndCancel() {
        var delivered = 0
        for round in 0..<20 {
            let subject = PassthroughSubject<Int, Never>()
            let queue = DispatchQueue(label: "stress.link.\(round)")
            let subscriber = OneAtATime()
            let cancelled = Locked(false)
            subject
                .subscribe(on: queue)
                .buffer(size: 16, prefetch: .byRequest, whenFull: .dropOldest)
                .timeout(.seconds(30), scheduler: queue)
                .collect(.byTimeOrCount(queue, .microseconds(200), 4))
                .subscribe(subscriber)
            // Twice: the first turn makes the subscription (it reaches the subscriber), the second runs the request
            // `buffer` made during it, so the subject has demand before the senders start; otherwise, on a loaded
            // machine, all 300 sends could come and be dropped before that request ran, and nothing would go through.
            for _ in 0..<2 { queue.sync {} }
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for i in 0..<300 {
                    if thread == 3 {
                        subscriber.ask()
                        if i == 150 {
                            subscriber.cancel()
                            cancelled.withLock { $0 = true }
                        }
                    } else {
                        subject.send(cancelled.withLock { $0 } ? -1 - i : i)
                    }
                }
            }
            for _ in 0..<3 { queue.sync {} }  // timers still pending run out and find the chain cancelled
            let seen = subscriber.flags.withLock { ($0.overlaps, $0.afterCancel) }
            #expect(seen.0 == 0, "round \(round): the subscriber was called concurrently")
            #expect(seen.1 == 0, "round \(round): a value sent after cancel() returned was delivered")
            let count = queue.sync { subscriber.counter.count }
            #expect(count <= 600)
            delivered += count
        }
        #expect(delivered > 0, "nothing went through: the test exercised no delivery")
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

// MARK: - The newest operators under concurrency

extension ConcurrencyStressTests {
    /// Counts the completions a subscriber received, and what arrived after the first one.
    final class CompletionCounter: @unchecked Sendable {
        var completions = 0
        var afterCompletion = 0
    }

    /// `withLatestFrom`: the other publisher fails on one thread while triggers are delivered on another. The failure
    /// arrives once, never during a delivery (the counters are plain), and nothing arrives after it.
    @Test func withLatestFromOtherFailingWhileTriggersAreDelivered() {
        for _ in 0..<50 {
            let trigger = PassthroughSubject<Int, TestError>()
            let other = PassthroughSubject<Int, TestError>()
            let counter = UnsynchronizedCounter()
            let ends = CompletionCounter()
            let c = trigger.withLatestFrom(other) { $0 + $1 }.sink(
                receiveCompletion: { _ in ends.completions += 1 },
                receiveValue: { _ in
                    if ends.completions > 0 { ends.afterCompletion += 1 }
                    counter.count += 1
                })
            other.send(0)
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    for value in 0..<200 { trigger.send(value) }
                } else {
                    other.send(completion: .failure(.boom))
                }
            }
            #expect(ends.completions == 1)
            #expect(ends.afterCompletion == 0)
            #expect(counter.count <= 200)
            c.cancel()
        }
    }

    /// `withLatestFrom`: the trigger fed from several threads while the other source changes on another. Every
    /// trigger after the other's first value is delivered, serially, and each trigger thread sees the other's
    /// values in the order they were sent (never an older value after a newer one).
    @Test func withLatestFromWithTriggerAndOtherFedFromDifferentThreads() {
        let trigger = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<Int, Never>()
        let counter = UnsynchronizedCounter()
        let ends = CompletionCounter()
        // Per trigger thread, the latest `other` value it was paired with: plain, so only serial delivery is safe.
        final class Latest: @unchecked Sendable {
            var seen = [Int](repeating: 0, count: ConcurrencyStressTests.threads)
            var wentBack = 0
        }
        let latest = Latest()
        let c = trigger.withLatestFrom(other) { ($0, $1) }.sink(
            receiveCompletion: { _ in ends.completions += 1 },
            receiveValue: { thread, value in
                if ends.completions > 0 { ends.afterCompletion += 1 }
                counter.count += 1
                if value < latest.seen[thread] { latest.wentBack += 1 }
                latest.seen[thread] = value
            })
        other.send(0)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            if thread == 0 {
                for value in 1...Self.perThread { other.send(value) }
            } else {
                for _ in 0..<Self.perThread { trigger.send(thread) }
            }
        }
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            if thread == 0 { trigger.send(completion: .finished) } else { trigger.send(1) }
        }
        trigger.send(1)
        let triggers = (Self.threads - 1) * Self.perThread
        #expect(counter.count == triggers || counter.count == triggers + 1)
        #expect(latest.wentBack == 0)
        #expect(ends.completions == 1)
        #expect(ends.afterCompletion == 0)
        c.cancel()
    }

    /// `withLatestFrom` cancelled from another thread while both sources send: nothing is delivered once `cancel()`
    /// has returned.
    @Test func withLatestFromDeliversNothingAfterACancelFromAnotherThread() {
        for _ in 0..<20 {
            let trigger = PassthroughSubject<Int, Never>()
            let other = PassthroughSubject<Int, Never>()
            let counter = UnsynchronizedCounter()
            let cancelled = Atomic<Bool>(false)
            let late = Atomic<Int>(0)
            let c = trigger.withLatestFrom(other).sink { _ in
                counter.count += 1
                if cancelled.load(ordering: .acquiring) { late.add(1, ordering: .relaxed) }
            }
            other.send(0)
            DispatchQueue.concurrentPerform(iterations: 3) { thread in
                switch thread {
                case 0: for value in 0..<500 { trigger.send(value) }
                case 1: for value in 0..<500 { other.send(value) }
                default:
                    c.cancel()
                    cancelled.store(true, ordering: .releasing)
                }
            }
            let before = counter.count
            trigger.send(-1)
            #expect(counter.count == before)
            // A delivery may have been under way when cancel() returned; at most one per sending thread.
            #expect(late.load(ordering: .relaxed) <= 1)
        }
    }

    /// `amb` with both sources sending at once from their own threads: one wins, every value delivered is from it
    /// (all of them), serially, and the winner's completion arrives exactly once.
    @Test func ambPicksExactlyOneWinnerWhenBothSendAtOnce() {
        for _ in 0..<100 {
            let left = PassthroughSubject<Int, Never>()
            let right = PassthroughSubject<Int, Never>()
            let counter = UnsynchronizedCounter()
            let ends = CompletionCounter()
            final class Sides: @unchecked Sendable {
                var positive = 0
                var negative = 0
            }
            let sides = Sides()
            let c = left.amb(right).sink(
                receiveCompletion: { _ in ends.completions += 1 },
                receiveValue: { value in
                    if ends.completions > 0 { ends.afterCompletion += 1 }
                    counter.count += 1
                    if value > 0 { sides.positive += 1 } else { sides.negative += 1 }
                })
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                let (subject, sign) = thread == 0 ? (left, 1) : (right, -1)
                for value in 1...100 { subject.send(sign * value) }
                subject.send(completion: .finished)
            }
            #expect(
                sides.positive == 0 || sides.negative == 0,
                "values from both sides: \(sides.positive) and \(sides.negative)"
            )
            #expect(counter.count == 100)
            #expect(ends.completions == 1)
            #expect(ends.afterCompletion == 0)
            c.cancel()
        }
    }

    /// `flatMapLatest`: the outer switches on one thread while the inners send from others. Delivery is serial, the
    /// current inner's values all arrive once the switching stops, and the completion arrives exactly once.
    @Test func flatMapLatestSwitchesWhileInnersSendFromOtherThreads() {
        let outer = PassthroughSubject<Int, Never>()
        let inners = (0..<Self.threads).map { _ in PassthroughSubject<Int, Never>() }
        let counter = UnsynchronizedCounter()
        let ends = CompletionCounter()
        let c = outer.flatMapLatest { inners[$0] }.sink(
            receiveCompletion: { _ in ends.completions += 1 },
            receiveValue: { value in
                if ends.completions > 0 { ends.afterCompletion += 1 }
                counter.count += 1
                counter.sum += value
            })
        outer.send(0)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            if thread == 0 {
                for round in 0..<Self.perThread { outer.send(round % Self.threads) }
            } else {
                for _ in 0..<Self.perThread { inners[thread].send(1) }
            }
        }
        #expect(counter.count <= (Self.threads - 1) * Self.perThread)
        let current = (Self.perThread - 1) % Self.threads
        let before = counter.count
        for _ in 0..<10 { inners[current].send(1) }
        #expect(counter.count == before + 10)
        #expect(counter.sum == counter.count)
        for inner in inners where inner !== inners[current] { inner.send(1) }  // no longer current: dropped
        #expect(counter.count == before + 10)
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            if thread == 0 { outer.send(completion: .finished) } else { inners[current].send(completion: .finished) }
        }
        #expect(ends.completions == 1)
        #expect(ends.afterCompletion == 0)
        c.cancel()
    }

    /// `switchToLatest` with bounded demand: the outer switches on one thread, inners send from others and the
    /// subscriber asks for one value at a time from yet another. Nothing arrives beyond what was asked for, and
    /// demand left over when the racing stops is carried to the current inner.
    @Test func switchToLatestWithBoundedDemandRequestedFromAnotherThread() {
        let outer = PassthroughSubject<Int, Never>()
        let inners = (0..<Self.threads).map { _ in PassthroughSubject<Int, Never>() }
        let counter = UnsynchronizedCounter()
        guard let subscription = Self.subscribeCounting(outer.map { inners[$0] }.switchToLatest(), into: counter) else {
            Issue.record("switchToLatest handed no subscription")
            return
        }
        outer.send(1)
        let requests = Self.perThread
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            switch thread {
            case 0: for round in 0..<Self.perThread { outer.send(1 + round % (Self.threads - 1)) }
            case Self.threads - 1: for _ in 0..<requests { subscription.subscription.request(.max(1)) }
            default: for _ in 0..<Self.perThread { inners[thread].send(1) }
            }
        }
        #expect(counter.count <= requests)
        #expect(counter.sum == counter.count)
        let current = 1 + (Self.perThread - 1) % (Self.threads - 1)
        let before = counter.count
        let left = requests - before
        for _ in 0..<(left + 5) { inners[current].send(1) }  // the rest of the demand, then 5 beyond it
        #expect(counter.count == requests)
        subscription.subscription.cancel()
    }

    /// `ReplaySubject`: sends from many threads while subscribers come and go. A steady subscriber gets every value
    /// exactly once; every subscriber, replayed or live, sees each sender's values in order with none twice.
    @Test func replaySubjectServesSubscribersThatComeAndGoWhileOthersSend() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 16)
        let senders = Self.threads / 2
        let perSender = Self.perThread / 2
        /// The last value seen from each sender: plain, so only serial delivery is safe.
        final class Order: @unchecked Sendable {
            var last = [Int](repeating: -1, count: ConcurrencyStressTests.threads)
            var count = 0
            var outOfOrder = 0
            func see(_ value: Int, perSender: Int) {
                let sender = value / perSender
                if value <= last[sender] { outOfOrder += 1 }
                last[sender] = value
                count += 1
            }
        }
        let steady = Order()
        let c = subject.sink { steady.see($0, perSender: perSender) }
        // Read only once every thread is done: a delivery to a transient subscriber may still be running on a
        // sender's thread when its `cancel()` returns.
        let transients = Locked<[Order]>([])
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            if thread < senders {
                for i in 0..<perSender { subject.send(thread * perSender + i) }
            } else {
                for _ in 0..<50 {
                    let order = Order()
                    let transient = subject.sink { order.see($0, perSender: perSender) }
                    transient.cancel()
                    transients.withLock { $0.append(order) }
                }
            }
        }
        #expect(steady.count == senders * perSender)
        #expect(steady.outOfOrder == 0)
        #expect(transients.withLock { $0.reduce(0) { $0 + $1.outOfOrder } } == 0)
        let late = Order()
        let lateSubscriber = subject.sink { late.see($0, perSender: perSender) }
        #expect(late.count == 16, "a late subscriber gets the full buffer")
        #expect(late.outOfOrder == 0)
        lateSubscriber.cancel()
        c.cancel()
    }

    /// `ReplaySubject` completed from one thread while others send: each subscriber gets exactly one completion and
    /// nothing after it, and a later subscriber gets the buffer then the completion.
    @Test func replaySubjectCompletesExactlyOnceUnderConcurrentSends() {
        for _ in 0..<20 {
            let subject = ReplaySubject<Int, Never>(bufferSize: 4)
            let ends = CompletionCounter()
            let c = subject.sink(
                receiveCompletion: { _ in ends.completions += 1 },
                receiveValue: { _ in if ends.completions > 0 { ends.afterCompletion += 1 } })
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                if thread == 0 {
                    subject.send(completion: .finished)
                } else {
                    for value in 0..<200 { subject.send(value) }
                }
            }
            #expect(ends.completions == 1)
            #expect(ends.afterCompletion == 0)
            let late = subject.record()
            #expect(late.values.count <= 4)
            #expect(late.isFinished)
            c.cancel()
        }
    }

    /// The relays from many threads: every accepted value reaches a steady subscriber exactly once, serially, while
    /// other subscribers come and go; `CurrentValueRelay.value` ends as the last value of some sender.
    @Test func relaysAcceptFromManyThreadsWhileSubscribersComeAndGo() {
        let passthrough = PassthroughRelay<Int>()
        let current = CurrentValueRelay(-1)
        let steadyPassthrough = UnsynchronizedCounter()
        let steadyCurrent = UnsynchronizedCounter()
        let c1 = passthrough.sink { value in
            steadyPassthrough.count += 1
            steadyPassthrough.sum += value
        }
        let c2 = current.sink { _ in steadyCurrent.count += 1 }
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            if thread.isMultiple(of: 2) {
                for i in 0..<Self.perThread {
                    passthrough.accept(1)
                    current.accept(thread * Self.perThread + i)
                }
            } else {
                for _ in 0..<Self.perThread / 20 {
                    // One counter per subscription: deliveries are serial per subscriber, not across the two
                    // subjects, whose emitters run on different threads.
                    let transientPassthrough = UnsynchronizedCounter()
                    let transientCurrent = UnsynchronizedCounter()
                    let a = passthrough.sink { _ in transientPassthrough.count += 1 }
                    let b = current.sink { _ in transientCurrent.count += 1 }
                    // No count is asserted here: a subscription made while another thread delivers gets its current
                    // value from that thread, possibly after `sink` returned (the subject's serial drain), so a
                    // cancel at once may come first. Only the serial delivery to each is checked (by TSan).
                    a.cancel()
                    b.cancel()
                }
            }
        }
        let sent = (Self.threads / 2) * Self.perThread
        #expect(steadyPassthrough.count == sent)
        #expect(steadyPassthrough.sum == sent)
        #expect(steadyCurrent.count == sent + 1)
        let lastValues = stride(from: 0, to: Self.threads, by: 2).map { $0 * Self.perThread + Self.perThread - 1 }
        #expect(lastValues.contains(current.value))
        c1.cancel()
        c2.cancel()
    }

    /// `AnyPublisher.create`: the subscriber handle used from many threads. Values arrive serially and all of them;
    /// a completion racing with sends arrives exactly once with nothing after it; the teardown runs once.
    @Test func createSubscriberHandleUsedFromManyThreads() {
        for round in 0..<20 {
            let slot = CreateSubscriberSlot<Int, Never>()
            let teardowns = Atomic<Int>(0)
            let publisher = AnyPublisher<Int, Never>.create { subscriber in
                slot.subscriber = subscriber
                return AnyCancellable { teardowns.add(1, ordering: .relaxed) }
            }
            let counter = UnsynchronizedCounter()
            let ends = CompletionCounter()
            let c = publisher.sink(
                receiveCompletion: { _ in ends.completions += 1 },
                receiveValue: { value in
                    if ends.completions > 0 { ends.afterCompletion += 1 }
                    counter.count += 1
                    counter.sum += value
                })
            let handle = slot.subscriber
            DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
                for _ in 0..<200 { handle?.send(1) }
            }
            #expect(counter.count == Self.threads * 200)
            #expect(counter.sum == Self.threads * 200)
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                if thread == 0 {
                    if round.isMultiple(of: 2) { handle?.send(completion: .finished) } else { c.cancel() }
                } else {
                    for _ in 0..<100 { handle?.send(1) }
                    if thread == 1 { handle?.send(completion: .finished) }
                }
            }
            if round.isMultiple(of: 2) { #expect(ends.completions == 1) } else { #expect(ends.completions <= 1) }
            #expect(ends.afterCompletion == 0)
            #expect(teardowns.load(ordering: .relaxed) == 1)
            let after = counter.count
            handle?.send(1)
            #expect(counter.count == after)
            slot.subscriber = nil
        }
    }

    /// `materialize` of a subject fed from many threads then completed while others still send: the events arrive
    /// serially, every value once, and exactly one completion event, last.
    @Test func materializeDeliversEveryEventOnceAndTheCompletionLast() {
        for _ in 0..<10 {
            let subject = PassthroughSubject<Int, TestError>()
            let counter = UnsynchronizedCounter()
            let ends = CompletionCounter()
            final class Events: @unchecked Sendable {
                var failures = 0
                var finished = 0
                var afterTerminal = 0
            }
            let events = Events()
            let c = subject.materialize().sink(
                receiveCompletion: { _ in ends.completions += 1 },
                receiveValue: { event in
                    if events.failures + events.finished > 0 { events.afterTerminal += 1 }
                    switch event {
                    case .value: counter.count += 1
                    case .failure: events.failures += 1
                    case .finished: events.finished += 1
                    }
                })
            DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
                for value in 0..<500 { subject.send(value) }
            }
            #expect(counter.count == Self.threads * 500)
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                if thread == 0 {
                    subject.send(completion: .failure(.boom))
                } else {
                    for value in 0..<100 { subject.send(value) }
                }
            }
            #expect(events.failures == 1)
            #expect(events.finished == 0)
            #expect(events.afterTerminal == 0)
            #expect(ends.completions == 1, "the materialized stream finishes after the failure event")
            c.cancel()
        }
    }

    /// `retry(when:)` with failures raised from many threads at once: each failure of the current attempt
    /// re-subscribes once (attempts == failures the handler saw + 1), no failure reaches the subscriber, delivery is
    /// serial, and the final completion arrives exactly once with nothing after it.
    @Test func retryWhenResubscribesOncePerFailureRaisedFromManyThreads() {
        let attempts = Locked<[PassthroughSubject<Int, TestError>]>([])
        let handled = Atomic<Int>(0)
        let upstream = Deferred { () -> PassthroughSubject<Int, TestError> in
            let attempt = PassthroughSubject<Int, TestError>()
            attempts.withLock { $0.append(attempt) }
            return attempt
        }
        let counter = UnsynchronizedCounter()
        let ends = CompletionCounter()
        let failuresSeen = Atomic<Int>(0)
        let c = upstream.retry(when: { failures in
            failures.map { _ in handled.add(1, ordering: .relaxed) }
        })
        .sink(
            receiveCompletion: { completion in
                ends.completions += 1
                if case .failure = completion { failuresSeen.add(1, ordering: .relaxed) }
            },
            receiveValue: { _ in
                if ends.completions > 0 { ends.afterCompletion += 1 }
                counter.count += 1
            })
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for i in 0..<300 {
                let current = attempts.withLock { $0.last }
                if thread.isMultiple(of: 2) && i.isMultiple(of: 10) {
                    current?.send(completion: .failure(.boom))
                } else {
                    current?.send(1)
                }
            }
        }
        let last = attempts.withLock { $0.last }
        last?.send(completion: .finished)
        #expect(attempts.withLock { $0.count } == handled.load(ordering: .relaxed) + 1)
        #expect(handled.load(ordering: .relaxed) >= 1)
        #expect(failuresSeen.load(ordering: .relaxed) == 0)
        #expect(ends.completions == 1)
        #expect(ends.afterCompletion == 0)
        #expect(counter.count <= Self.threads * 300)
        let after = counter.count
        for attempt in attempts.withLock({ $0 }) { attempt.send(1) }
        #expect(counter.count == after)
        c.cancel()
    }

    /// `retry(_:)` takes no lock per value: values from two threads, attempts failed from a third, one-at-a-time
    /// requests and a cancel from a fourth. Delivery stays serial, never exceeds what was asked for across the
    /// attempts, and nothing sent after the cancel returned arrives. (`map` and `replaceError` only adapt the stream to
    /// ``OneAtATime``: with a thousand retries, no failure gets past `retry`.)
    @Test func retryDeliversSeriallyWithinDemandWhileAttemptsFailAndRequestsComeFromAnotherThread() {
        var delivered = 0
        var retried = 0
        for round in 0..<20 {
            let attempts = Locked<[PassthroughSubject<Int, TestError>]>([])
            let upstream = Deferred { () -> PassthroughSubject<Int, TestError> in
                let attempt = PassthroughSubject<Int, TestError>()
                attempts.withLock { $0.append(attempt) }
                return attempt
            }
            let subscriber = OneAtATime()
            let cancelled = Locked(false)
            let asked = Atomic<Int>(1)
            upstream.retry(1_000).map { [$0] }.replaceError(with: []).subscribe(subscriber)
            subscriber.ask()
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for i in 0..<300 {
                    let current = attempts.withLock { $0.last }
                    switch thread {
                    case 3:
                        if !cancelled.withLock({ $0 }) { asked.add(1, ordering: .relaxed) }
                        subscriber.ask()
                        if i == 200 {
                            subscriber.cancel()
                            cancelled.withLock { $0 = true }
                        }
                    case 2:
                        if i.isMultiple(of: 15) { current?.send(completion: .failure(.boom)) }
                    default:
                        current?.send(cancelled.withLock { $0 } ? -1 - i : i)
                    }
                }
            }
            let seen = subscriber.flags.withLock { ($0.overlaps, $0.afterCancel) }
            #expect(seen.0 == 0, "round \(round): the subscriber was called concurrently")
            #expect(seen.1 == 0, "round \(round): a value sent after cancel() returned was delivered")
            let count = subscriber.counter.count
            #expect(count <= asked.load(ordering: .relaxed), "round \(round): more values than were asked for")
            retried += attempts.withLock { $0.count } - 1
            delivered += count
        }
        #expect(delivered > 0, "nothing went through: the test exercised no delivery")
        #expect(retried > 0, "no attempt failed before the cancel: the test exercised no re-subscription")
    }

    /// `delay` and `receive(on:)` on a concurrent queue: an action may run on another thread before its event is
    /// even queued, and the actions of one burst in any order. Every value still arrives once, in order, serially.
    @Test func timingOperatorsOnAConcurrentQueueDeliverInOrderOnceEach() {
        let queue = DispatchQueue(label: "stress.concurrent-timing", attributes: .concurrent)
        for round in 0..<10 {
            let subject = PassthroughSubject<Int, Never>()
            let received = UnsynchronizedValues()
            let done = DispatchSemaphore(value: 0)
            let c =
                subject
                .delay(for: .zero, scheduler: queue)
                .receive(on: queue)
                .sink(receiveCompletion: { _ in done.signal() }, receiveValue: { received.values.append($0) })
            for value in 0..<500 { subject.send(value) }
            subject.send(completion: .finished)
            #expect(waitForCompletion(done), "round \(round): the completion never came")
            #expect(received.values == Array(0..<500), "round \(round): values lost, repeated or out of order")
            c.cancel()
        }
    }

    /// Values appended with no lock of their own: only serial delivery keeps it race-free.
    final class UnsynchronizedValues: @unchecked Sendable {
        var values: [Int] = []
    }
}
