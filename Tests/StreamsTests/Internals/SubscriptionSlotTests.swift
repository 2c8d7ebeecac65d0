import Testing

@testable import Streams

/// `SubscriptionSlot` keeps a subscription as one retained reference and its type: a class subscription as
/// itself, any other in a box. Calls reach it unchanged; the slot owns exactly one retain, given up when the
/// subscription is taken, cleared, or the slot is destroyed.
@Suite struct SubscriptionSlotTests {
    /// Logs every call it gets.
    final class ClassSubscription: Subscription, @unchecked Sendable {
        var calls: [String] = []
        func request(_ demand: Subscribers.Demand) { calls.append("request \(demand)") }
        func cancel() { calls.append("cancel") }
    }

    /// A subscription that is not a class: logs into a shared object.
    struct StructSubscription: Subscription {
        let log: ClassSubscription
        let combineIdentifier = CombineIdentifier()
        func request(_ demand: Subscribers.Demand) { log.calls.append("struct request \(demand)") }
        func cancel() { log.calls.append("struct cancel") }
    }

    /// Owns a slot, as a sink or a stage link does.
    final class Owner {
        var slot = SubscriptionSlot()
        /// Read here: `#expect` cannot look into a noncopyable value.
        var isEmpty: Bool { slot.isEmpty }
    }

    @Test func aClassSubscriptionIsCalledInPlaceAndTakenBackAsItself() {
        let subscription = ClassSubscription()
        let owner = Owner()
        #expect(owner.isEmpty)
        owner.slot.store(subscription)
        #expect(!owner.isEmpty)
        owner.slot.request(.max(3))
        owner.slot.cancel()
        #expect(subscription.calls == ["request max(3)", "cancel"])
        let taken = owner.slot.take()
        #expect((taken as? ClassSubscription) === subscription)
        #expect(owner.isEmpty)
        owner.slot.cancel()  // empty: nothing reaches the subscription
        #expect(subscription.calls == ["request max(3)", "cancel"])
    }

    /// A generic class, whose conformance the runtime instantiates, and a subclass, which conforms through its
    /// superclass: the slot finds each one's witness table through its type.
    class Generic<Value>: Subscription, @unchecked Sendable {
        var calls: [String] = []
        func request(_ demand: Subscribers.Demand) { calls.append("\(Value.self) request \(demand)") }
        func cancel() { calls.append("\(Value.self) cancel") }
    }
    final class Derived: Generic<String>, @unchecked Sendable {}

    @Test func genericAndInheritedConformancesAreCalled() {
        let generic = Generic<Int>()
        let derived = Derived()
        let first = Owner()
        let second = Owner()
        first.slot.store(generic)
        second.slot.store(derived)
        first.slot.request(.max(2))
        second.slot.request(.max(5))
        first.slot.cancel()
        second.slot.cancel()
        #expect(generic.calls == ["Int request max(2)", "Int cancel"])
        #expect(derived.calls == ["String request max(5)", "String cancel"])
        #expect((second.slot.take() as? Derived) === derived)
    }

    @Test func theSlotIsTwoWords() {
        #expect(MemoryLayout<SubscriptionSlot>.size == 16)
    }

    @Test func aStructSubscriptionIsBoxedAndForwardedTo() {
        let log = ClassSubscription()
        let subscription = StructSubscription(log: log)
        let owner = Owner()
        owner.slot.store(subscription)
        owner.slot.request(.unlimited)
        owner.slot.cancel()
        #expect(log.calls == ["struct request unlimited", "struct cancel"])
        let taken = owner.slot.take()
        taken.request(.max(1))
        #expect(log.calls.last == "struct request max(1)")
        #expect(taken.combineIdentifier == subscription.combineIdentifier)
    }

    @Test func theSlotReleasesWhatItHoldsWhenClearedOrDestroyed() {
        weak var cleared: ClassSubscription?
        weak var destroyed: ClassSubscription?
        weak var boxedLog: ClassSubscription?
        do {
            let owner = Owner()
            let first = ClassSubscription()
            cleared = first
            owner.slot.store(first)
        }
        #expect(cleared == nil)  // released with its owner
        do {
            let owner = Owner()
            do {
                let second = ClassSubscription()
                destroyed = second
                owner.slot.store(second)
            }
            #expect(destroyed != nil)  // the slot's retain keeps it
            owner.slot.clear()
            #expect(destroyed == nil)
            #expect(owner.isEmpty)
            do {
                let log = ClassSubscription()
                boxedLog = log
                owner.slot.store(StructSubscription(log: log))
            }
            #expect(boxedLog != nil)
        }
        #expect(boxedLog == nil)  // the box, and the struct in it, released with the owner
    }

    @Test func takingHandsOverTheSlotsRetain() {
        weak var weakSubscription: ClassSubscription?
        let owner = Owner()
        var taken: (any Subscription)?
        do {
            let subscription = ClassSubscription()
            weakSubscription = subscription
            owner.slot.store(subscription)
            taken = owner.slot.take()
        }
        #expect(weakSubscription != nil)  // held by `taken` alone now
        taken = nil
        #expect(weakSubscription == nil)
        _ = taken
    }

    /// Hands each subscriber a ``StructSubscription`` logging into `log`, and sends nothing.
    struct StructSubscriptionPublisher<Failure: Error>: Publisher {
        typealias Output = Int
        let log: ClassSubscription
        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Failure {
            subscriber.receive(subscription: StructSubscription(log: log))
        }
    }

    /// Every operator that keeps an upstream's subscription keeps it as a class-bound reference (a struct in a box):
    /// the demand and the cancel still reach a subscription that is not a class, whichever upstream it comes from.
    @Test(arguments: [
        "retry", "catch", "flatMap", "switchToLatest", "share", "amb", "prefixUntilOutput", "withLatestFrom",
    ])
    func operatorsReachAStructSubscription(_ shape: String) {
        let log = ClassSubscription()
        let source = StructSubscriptionPublisher<Never>(log: log)
        let subject = PassthroughSubject<Int, Never>()
        let pipeline: AnyPublisher<Int, Never> =
            switch shape {
            case "retry":
                StructSubscriptionPublisher<Oops>(log: log).retry(2).replaceError(with: 0).eraseToAnyPublisher()
            case "catch": StructSubscriptionPublisher<Oops>(log: log).catch { _ in Just(0) }.eraseToAnyPublisher()
            case "flatMap": source.flatMap(maxPublishers: .max(1)) { Just($0) }.eraseToAnyPublisher()
            case "switchToLatest": source.map { Just($0) }.switchToLatest().eraseToAnyPublisher()
            case "share": source.share().eraseToAnyPublisher()
            case "amb": source.amb(subject).eraseToAnyPublisher()
            case "prefixUntilOutput": subject.prefix(untilOutputFrom: source).eraseToAnyPublisher()
            default: subject.withLatestFrom(source).eraseToAnyPublisher()
            }
        let subscriber = SubscriptionHolder()
        pipeline.subscribe(subscriber)
        subscriber.subscription?.request(.max(2))
        subscriber.subscription?.cancel()
        #expect(log.calls.contains { $0.hasPrefix("struct request") }, "\(shape): \(log.calls)")
        #expect(log.calls.last == "struct cancel", "\(shape): \(log.calls)")
    }

    struct Oops: Error {}
}
