import Dispatch
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

    /// Every kind of property a key path can write: stored, observed, computed, a struct's inside the object and an
    /// optional one set to `nil` (a subclass's override: the test after the next), written literally or held in a
    /// variable. (A literal key path is compiled into a direct write: see ``Subscribers/Assign``; the result must be
    /// the same.)
    final class Settings: @unchecked Sendable {
        struct Volume { var level = 0 }
        var stored = 0
        var observedWrites: [Int] = []
        var observed = 0 { didSet { observedWrites.append(observed) } }
        var doubled: Int {
            get { stored * 2 }
            set { stored = newValue / 2 }
        }
        var volume = Volume()
        var note: String? = "draft"
    }

    @Test func assignWritesThroughEveryKindOfKeyPath() {
        let numbers = PassthroughSubject<Int, Never>()
        let notes = PassthroughSubject<String?, Never>()
        let settings = Settings()
        let heldPath: ReferenceWritableKeyPath<Settings, Int> = \.stored
        let pathName = "stored"
        let variablePath = pathName == "stored" ? heldPath : \Settings.observed
        var cancellables: [AnyCancellable] = []
        numbers.assign(to: \.observed, on: settings).store(in: &cancellables)
        numbers.map { $0 + 100 }.assign(to: \.volume.level, on: settings).store(in: &cancellables)
        notes.assign(to: \.note, on: settings).store(in: &cancellables)
        numbers.send(3)
        numbers.send(4)
        notes.send(nil)
        #expect(settings.observedWrites == [3, 4])
        #expect(settings.volume.level == 104)
        #expect(settings.note == nil)
        notes.send("kept")
        #expect(settings.note == "kept")

        let computed = PassthroughSubject<Int, Never>()
        computed.assign(to: \.doubled, on: settings).store(in: &cancellables)
        computed.send(10)
        #expect(settings.stored == 5)
        let viaVariable = PassthroughSubject<Int, Never>()
        viaVariable.assign(to: variablePath, on: settings).store(in: &cancellables)
        viaVariable.send(7)
        #expect(settings.stored == 7)
        cancellables.removeAll()
        numbers.send(9)  // cancelled: nothing written
        #expect(settings.observedWrites == [3, 4])
    }

    class Counter: @unchecked Sendable { var count = 0 }
    final class LoggingCounter: Counter, @unchecked Sendable {
        var log: [Int] = []
        override var count: Int { didSet { log.append(count) } }
    }

    @Test func assignToABaseClassKeyPathWritesTheSubclassOverride() {
        let subject = PassthroughSubject<Int, Never>()
        let counter = LoggingCounter()
        let cancellable = subject.assign(to: \Counter.count, on: counter as Counter)
        subject.send(1)
        subject.send(2)
        #expect(counter.log == [1, 2])
        cancellable.cancel()
    }

    @Test func anAssignGivesBackTheKeyPathItWasMadeWith() {
        let literal = Subscribers.Assign(object: Settings(), keyPath: \Settings.volume.level)
        #expect(literal.keyPath == \Settings.volume.level)
        let held: ReferenceWritableKeyPath<Settings, Int> = \.observed
        let variable = Subscribers.Assign(object: Settings(), keyPath: [held][0])
        #expect(variable.keyPath == \Settings.observed)
        #expect(variable.keyPath != \Settings.stored)
    }

    @Test func aDumpedAssignShowsItsObjectAndKeyPath() {
        let settings = Settings()
        let assign = Subscribers.Assign(object: settings, keyPath: \Settings.stored)
        let children = Mirror(reflecting: assign).children.map { $0.label }
        #expect(children == ["object", "keyPath"])
        var text = ""
        dump(assign, to: &text)
        #expect(text.contains("keyPath"))
        #expect(text.contains("Settings"))
        assign.cancel()
        #expect(Mirror(reflecting: assign).children.first.map { "\($0.value)" } == "nil")
    }

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

    /// A model whose setter cancels the subscriber writing to it, as a view model that stops listening once a
    /// value arrives does.
    final class SelfCancellingModel: @unchecked Sendable {
        var assign: Subscribers.Assign<SelfCancellingModel, Int>?
        /// Told, right after the cancel inside the write, whether the subscriber still shows its object.
        var reportObjectAfterCancel: (Bool) -> Void = { _ in }
        var count = 0 {
            didSet {
                assign?.cancel()
                reportObjectAfterCancel(assign?.object != nil)
            }
        }
    }

    @Test func cancelFromInsideTheWriteReleasesTheObjectOnlyAfterTheWriteReturns() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakModel: SelfCancellingModel?
        var assign: Subscribers.Assign<SelfCancellingModel, Int>?
        var objectShownAfterCancel: [Bool] = []
        do {
            let model = SelfCancellingModel()
            weakModel = model
            model.reportObjectAfterCancel = { objectShownAfterCancel.append($0) }
            assign = Subscribers.Assign(object: model, keyPath: \.count)
            model.assign = assign
            subject.subscribe(assign!)
        }
        #expect(weakModel != nil)  // held by the subscriber alone
        subject.send(1)
        // Inside the write, the cancel already showed the object as gone; it was released once the write returned
        // (the subscriber held the only reference).
        #expect(objectShownAfterCancel == [false])
        #expect(assign?.object == nil)
        #expect(weakModel == nil)
        subject.send(2)  // nothing after the cancel: no second write, no second report
        #expect(objectShownAfterCancel == [false])
        _ = assign
    }

    @Test func aCompletionRacingACancelReleasesTheObjectOnce() {
        for _ in 0..<200 {
            let subject = PassthroughSubject<Int, Never>()
            let (subscriber, isModelReleased) = assignHoldingTheOnlyModel(subscribedTo: subject)
            DispatchQueue.concurrentPerform(iterations: 3) { thread in
                switch thread {
                case 0: subject.send(completion: .finished)
                case 1: subscriber.cancel()
                default: _ = subscriber.object
                }
            }
            #expect(subscriber.object == nil)
            #expect(isModelReleased())
        }
    }

    @Test func cancellingFromAnotherThreadWhileValuesArriveStopsTheWritesAndReleasesTheObject() {
        // Writing a value takes no lock: a cancel and reads of `object` from other threads must still be safe
        // (values racing with the cancel may be written; none after the sender sees the cancel).
        for _ in 0..<20 {
            let subject = PassthroughSubject<Int, Never>()
            let writes = WriteCounter()
            let (subscriber, isModelReleased) = assignHoldingTheOnlyModel(subscribedTo: subject, counting: writes)
            DispatchQueue.concurrentPerform(iterations: 3) { thread in
                switch thread {
                case 0:
                    for i in 1...2_000 { subject.send(i) }
                case 1:
                    subscriber.cancel()
                default:
                    for _ in 0..<500 { _ = subscriber.object }
                }
            }
            #expect(subscriber.object == nil)
            #expect(isModelReleased())
            let written = writes.count
            subject.send(-1)  // after the cancel: nothing written
            #expect(writes.count == written)
        }
    }

    /// Counts the writes to a ``CountedModel``; touched only by the (serial) writes and after they are over.
    final class WriteCounter: @unchecked Sendable {
        var count = 0
    }

    final class CountedModel: @unchecked Sendable {
        let writes: WriteCounter
        var count = 0 { didSet { writes.count += 1 } }
        init(writes: WriteCounter) { self.writes = writes }
    }

    /// An `Assign` subscribed to `subject`, writing to a model that only it holds, and a check that the model is gone.
    private func assignHoldingTheOnlyModel(
        subscribedTo subject: PassthroughSubject<Int, Never>, counting writes: WriteCounter = WriteCounter()
    ) -> (Subscribers.Assign<CountedModel, Int>, isModelReleased: () -> Bool) {
        let model = CountedModel(writes: writes)
        let assign = Subscribers.Assign(object: model, keyPath: \CountedModel.count)
        subject.subscribe(assign)
        return (assign, { [weak model] in model == nil })
    }
}
