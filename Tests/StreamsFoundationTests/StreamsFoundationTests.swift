import Dispatch
import Foundation
import LoopbackHTTPServer
import Streams
import StreamsFoundation
import StreamsTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Foundation bridge: coders, notifications, URL session data tasks, timers, run loops and operation
/// queues as schedulers. Real time only where the bridge is real time (a run loop, a timer, a loopback
/// server), each wait bounded to well under a second unless something is broken.
@Suite struct StreamsFoundationTests {
    struct User: Codable, Equatable {
        let id: Int
        let name: String
    }

    struct Failure: Error {}

    @Test func valuesEncodeAndDecodeBackWithFoundationCoders() throws {
        let users = [User(id: 1, name: "Ada"), User(id: 2, name: "Grace")]
        let recorder = users.publisher
            .encode(encoder: JSONEncoder())
            .decode(type: User.self, decoder: JSONDecoder())
            .record()
        #expect(recorder.values == users)
        #expect(recorder.isFinished)
        let plist = Just(users[0]).encode(encoder: PropertyListEncoder())
            .decode(type: User.self, decoder: PropertyListDecoder()).record()
        #expect(plist.values == [users[0]])
    }

    @Test func aDecodingErrorCancelsUpstreamAndFails() {
        let subject = PassthroughSubject<Data, Never>()
        var cancelled = false
        let recorder = subject.handleEvents(receiveCancel: { cancelled = true })
            .decode(type: User.self, decoder: JSONDecoder()).record()
        subject.send(Data("{\"id\": 1}".utf8))
        #expect(recorder.failure is DecodingError)
        #expect(cancelled)
    }

    @Test func notificationsArriveWhileSubscribedAndWithDemand() {
        let center = NotificationCenter()
        let name = Notification.Name("StreamsFoundationTests.ping")
        let recorder = center.publisher(for: name).map { $0.userInfo?["n"] as? Int ?? -1 }.record(demand: .max(2))
        for n in 1...3 { center.post(name: name, object: nil, userInfo: ["n": n]) }
        #expect(recorder.values == [1, 2])  // the third had no demand: dropped, as in Combine
        recorder.request(.max(1))
        center.post(name: name, object: nil, userInfo: ["n": 4])
        #expect(recorder.values == [1, 2, 4])
        recorder.cancel()
        center.post(name: name, object: nil, userInfo: ["n": 5])
        #expect(recorder.values == [1, 2, 4])
    }

    @Test func aDataTaskStartsOnDemandAndPublishesDataAndResponse() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/hello") { _ in .text("hi") }
        let url = server.baseURL.appendingPathComponent("hello")
        let publisher = URLSession(configuration: .ephemeral).dataTaskPublisher(for: url)
        let recorder = publisher.map { String(decoding: $0.data, as: UTF8.self) }.record(demand: .none)
        try await Task.sleep(for: .milliseconds(50))
        #expect(server.requestCount("/hello") == 0)  // nothing is sent before demand
        recorder.request(.max(1))
        #expect(await server.wait(timeout: .seconds(20)) { _ in recorder.isFinished || recorder.failure != nil })
        #expect(recorder.values == ["hi"])
    }

    @Test func aRefusedDataTaskFailsWithAURLError() async throws {
        let refusing = try RefusingPort()
        let recorder = URLSession(configuration: .ephemeral).dataTaskPublisher(for: refusing.baseURL).record()
        let deadline = ContinuousClock.now + .seconds(20)
        while recorder.failure == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(recorder.failure?.code == .cannotConnectToHost)
        withExtendedLifetime(refusing) {}  // the port stays taken until the task has failed
    }

    @Test func aRunLoopRunsScheduledActionsOnItsThreadInDeadlineOrder() {
        let runLoop = RunLoop.current
        let scheduler = RunLoopScheduler(runLoop)
        let log = Locked<[String]>([])
        _ = scheduler.schedule(after: scheduler.now + .milliseconds(20)) { log.withLock { $0.append("late") } }
        let cancelled = scheduler.schedule(after: scheduler.now + .milliseconds(10)) {
            log.withLock { $0.append("cancelled") }
        }
        cancelled.cancel()
        scheduler.schedule { log.withLock { $0.append("soon") } }
        let deadline = Date().addingTimeInterval(2)
        while log.withLock({ $0.count }) < 2 && Date() < deadline { _ = runLoop.run(mode: .default, before: Date().addingTimeInterval(0.01)) }
        #expect(log.withLock { $0 } == ["soon", "late"])
    }

    @Test func receiveOnARunLoopCompilesAsInCombineAndDelivers() {
        let runLoop = RunLoop.current
        let recorder = [1, 2].publisher.receive(on: runLoop).record()
        #expect(recorder.values.isEmpty)  // not before the loop turns
        let deadline = Date().addingTimeInterval(2)
        while !recorder.isFinished && Date() < deadline { _ = runLoop.run(mode: .default, before: Date().addingTimeInterval(0.01)) }
        #expect(recorder.values == [1, 2])
    }

    @Test func measureIntervalAndTimeGroupsTakeARunLoopAsInCombine() {
        let runLoop = RunLoop.current
        let intervals = [1, 2].publisher.measureInterval(using: runLoop).record()
        #expect(intervals.values.count == 2)  // measured on the loop's clock, without waiting for the loop
        #expect(intervals.values.allSatisfy { $0 >= .zero })
        let input = PassthroughSubject<Int, Never>()
        let groups = input.collect(.byTime(runLoop, .milliseconds(10))).record()
        let counted = input.collect(.byTimeOrCount(runLoop, .seconds(60), 2)).record()
        input.send(1)
        input.send(2)
        #expect(groups.values.isEmpty && counted.values.isEmpty)  // delivered on the loop, not before it turns
        let deadline = Date().addingTimeInterval(2)
        while (groups.values.isEmpty || counted.values.isEmpty) && Date() < deadline {
            _ = runLoop.run(mode: .default, before: Date().addingTimeInterval(0.01))
        }
        #expect(groups.values == [[1, 2]])
        #expect(counted.values == [[1, 2]])  // closed by the count, long before its minute is up
    }

    @Test func delayWithCombinesToleranceTakesARunLoop() {
        let runLoop = RunLoop.current
        let delayed = [1, 2].publisher.delay(for: .milliseconds(5), tolerance: .milliseconds(1), scheduler: runLoop)
        #expect(delayed.tolerance == .milliseconds(1))
        let recorder = delayed.record()
        #expect(recorder.values.isEmpty)  // not before the loop turns
        let deadline = Date().addingTimeInterval(2)
        while !recorder.isFinished && Date() < deadline {
            _ = runLoop.run(mode: .default, before: Date().addingTimeInterval(0.01))
        }
        #expect(recorder.values == [1, 2])
    }

    @Test func aTimerPublisherTicksOnceConnectedAndStopsWhenCancelled() {
        let runLoop = RunLoop.current
        let timer = Timer.publish(every: 0.01, on: runLoop, in: .default)
        let recorder = timer.record()
        var deadline = Date().addingTimeInterval(0.05)
        while Date() < deadline { _ = runLoop.run(mode: .default, before: deadline) }
        #expect(recorder.values.isEmpty)  // not connected
        let connection = timer.connect()
        deadline = Date().addingTimeInterval(2)
        while recorder.values.count < 3 && Date() < deadline { _ = runLoop.run(mode: .default, before: Date().addingTimeInterval(0.01)) }
        #expect(recorder.values.count >= 3)
        connection.cancel()
        let ticks = recorder.values.count
        deadline = Date().addingTimeInterval(0.05)
        while Date() < deadline { _ = runLoop.run(mode: .default, before: deadline) }
        #expect(recorder.values.count == ticks)
    }

    @Test func anOperationQueueRunsActionsNowAndAtADeadline() {
        let queue = OperationQueue()
        let done = DispatchSemaphore(value: 0)
        let log = Locked<[String]>([])
        queue.schedule {
            log.withLock { $0.append("now") }
            done.signal()
        }
        _ = queue.schedule(after: queue.now + .milliseconds(20)) {
            log.withLock { $0.append("later") }
            done.signal()
        }
        let never = queue.schedule(after: queue.now + .milliseconds(10)) { log.withLock { $0.append("never") } }
        never.cancel()
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(log.withLock { $0 } == ["now", "later"])
    }
}
