// Combine's vocabulary, written exactly as Combine code writes it, with only the import swapped. This file
// is compiled twice — in Swift 6 language mode (CombineVocabularyTests) and in Swift 5 mode
// (CombineVocabularySwift5Tests, through a symbolic link) — and each pipeline is run once.
import Dispatch
import Foundation
import Streams
import StreamsFoundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct VocabularyError: Error, Equatable {}

struct Point: Codable, Equatable {
    var x: Int
    var y: Int
}

final class Model: ObservableObject {
    @Published var text = ""
    @Published var count = 0
    init() { $text.map(\.count).assign(to: &$count) }
}

@Suite struct CombineVocabulary {
    @Test func transformingAndFiltering() {
        var cancellables = Set<AnyCancellable>()
        var out: [String] = []
        let doubled: AnyPublisher<Int, any Error> = [1, 2, 3, 4, 5, 6].publisher
            .map { $0 * 2 }
            .tryMap { $0 }
            .mapError { $0 }
            .filter { $0 > 2 }
            .tryFilter { $0 < 12 }
            .eraseToAnyPublisher()
        let summed: AnyPublisher<Int, any Error> = doubled
            .compactMap { Optional($0) }
            .tryCompactMap { Optional($0) }
            .scan(0, +)
            .tryScan(0) { $0 + $1 }
            .removeDuplicates()
            .tryRemoveDuplicates { $0 == $1 }
            .eraseToAnyPublisher()
        summed
            .drop(while: { $0 < 4 })
            .tryDrop(while: { $0 < 5 })
            .prefix(while: { $0 < 1_000 })
            .tryPrefix(while: { $0 < 1_000 })
            .dropFirst()
            .prefix(3)
            .output(in: 0...5)
            .replaceError(with: -1)
            .map(String.init)
            .handleEvents(receiveOutput: { _ in })
            .sink { out.append($0) }
            .store(in: &cancellables)
        #expect(!out.isEmpty)

        let points = [Point(x: 1, y: 2)].publisher
        _ = points.map(\.x).sink { _ in }
        _ = points.map(\.x, \.y).sink { _ in }
        _ = points.map(\.x, \.y, \.x).sink { _ in }
        _ = [nil, 1].publisher.replaceNil(with: 0).sink { _ in }
        _ = Empty<Int, Never>().replaceEmpty(with: 0).sink { _ in }
        _ = Just(1).setFailureType(to: VocabularyError.self).assertNoFailure().sink { _ in }
        _ = [1, 2].publisher.output(at: 1).sink { _ in }
        _ = [1, 2].publisher.ignoreOutput().sink(receiveCompletion: { _ in }, receiveValue: { _ in })
    }

    @Test func reducing() {
        let numbers = [3, 1, 2].publisher
        var results: [String] = []
        _ = numbers.collect().sink { results.append("\($0)") }
        _ = numbers.collect(2).sink { results.append("\($0)") }
        _ = numbers.reduce(0, +).sink { results.append("\($0)") }
        _ = numbers.tryReduce(0, +).sink(receiveCompletion: { _ in }) { results.append("\($0)") }
        _ = numbers.count().sink { results.append("\($0)") }
        _ = numbers.min().sink { results.append("\($0)") }
        _ = numbers.max().sink { results.append("\($0)") }
        _ = numbers.min(by: <).sink { _ in }
        _ = numbers.max(by: <).sink { _ in }
        _ = numbers.tryMin(by: <).sink(receiveCompletion: { _ in }) { _ in }
        _ = numbers.tryMax(by: <).sink(receiveCompletion: { _ in }) { _ in }
        _ = numbers.contains(2).sink { results.append("\($0)") }
        _ = numbers.contains { $0 > 2 }.sink { _ in }
        _ = numbers.tryContains { $0 > 2 }.sink(receiveCompletion: { _ in }) { _ in }
        _ = numbers.allSatisfy { $0 > 0 }.sink { results.append("\($0)") }
        _ = numbers.tryAllSatisfy { $0 > 0 }.sink(receiveCompletion: { _ in }) { _ in }
        _ = numbers.first().sink { _ in }
        _ = numbers.first { $0 > 1 }.sink { _ in }
        _ = numbers.tryFirst { $0 > 1 }.sink(receiveCompletion: { _ in }) { _ in }
        _ = numbers.last().sink { results.append("\($0)") }
        _ = numbers.last { $0 > 1 }.sink { _ in }
        _ = numbers.tryLast { $0 > 1 }.sink(receiveCompletion: { _ in }) { _ in }
        #expect(results == ["[3, 1, 2]", "[3, 1]", "[2]", "6", "6", "3", "1", "3", "true", "true", "2"])
    }

    @Test func combiningAndErrors() {
        let a = PassthroughSubject<Int, Never>()
        let b = CurrentValueSubject<Int, Never>(0)
        let c = Just(1)
        let d = Just(2)
        var seen = 0
        var bag = [AnyCancellable]()
        a.combineLatest(b).sink { _ in seen += 1 }.store(in: &bag)
        a.combineLatest(b, c).sink { _ in seen += 1 }.store(in: &bag)
        a.combineLatest(b, c, d).sink { _ in seen += 1 }.store(in: &bag)
        a.combineLatest(b) { $0 + $1 }.sink { _ in seen += 1 }.store(in: &bag)
        a.zip(b).sink { _ in seen += 1 }.store(in: &bag)
        a.zip(b, c).sink { _ in seen += 1 }.store(in: &bag)
        a.zip(b, c, d).sink { _ in seen += 1 }.store(in: &bag)
        a.merge(with: b).sink { _ in seen += 1 }.store(in: &bag)
        a.merge(with: b, b, b, b, b, b).sink { _ in seen += 1 }.store(in: &bag)
        Publishers.MergeMany([a, a]).sink { _ in seen += 1 }.store(in: &bag)
        a.map { Just($0) }.switchToLatest().sink { _ in seen += 1 }.store(in: &bag)
        a.flatMap(maxPublishers: .max(1)) { Just($0) }.sink { _ in seen += 1 }.store(in: &bag)
        a.prepend(0).append(9).sink { _ in seen += 1 }.store(in: &bag)
        a.drop(untilOutputFrom: b).prefix(untilOutputFrom: c).sink { _ in seen += 1 }.store(in: &bag)
        a.send(1)
        #expect(seen > 0)

        let failing = Fail<Int, VocabularyError>(error: VocabularyError())
        _ = failing.catch { _ in Just(0) }.sink { _ in }
        _ = failing.tryCatch { _ in Just(0) }.sink(receiveCompletion: { _ in }) { _ in }
        _ = failing.retry(2).replaceError(with: 0).sink { _ in }
        _ = failing.mapError { $0 as any Error }.sink(receiveCompletion: { _ in }) { _ in }
    }

    @Test func timeSubjectsAndConnectables() {
        let queue = DispatchQueue(label: "vocabulary")
        let subject = PassthroughSubject<Int, Never>()
        _ = subject.debounce(for: 0.3, scheduler: queue).sink { _ in }
        _ = subject.throttle(for: .milliseconds(300), scheduler: queue, latest: true).sink { _ in }
        _ = subject.delay(for: .seconds(1), scheduler: queue).sink { _ in }
        _ = subject.timeout(1, scheduler: queue).sink { _ in }
        _ = subject.receive(on: queue).subscribe(on: queue).sink { _ in }
        _ = subject.receive(on: RunLoop.main).subscribe(on: RunLoop.main).sink { _ in }
        _ = subject.debounce(for: 0.3, scheduler: RunLoop.main).throttle(for: 1, scheduler: RunLoop.main, latest: false)
            .delay(for: 1, scheduler: RunLoop.main).timeout(5, scheduler: RunLoop.main).sink { _ in }
        _ = subject.collect(.byTime(queue, .seconds(1))).sink { _ in }
        _ = subject.collect(.byTimeOrCount(queue, 0.5, 10)).sink { _ in }
        _ = subject.buffer(size: 10, prefetch: .keepFull, whenFull: .dropOldest).sink { _ in }
        _ = subject.measureInterval(using: queue).sink { _ in }
        _ = subject.print("probe", to: nil).breakpoint().breakpointOnError().sink { _ in }

        // A subject nothing else touches: `subscribe(on: queue)` above attaches to `subject` and leaves it on the
        // queue's thread, and a send made while another thread is attaching is delivered by that thread, after
        // `send` returned (README, "Subjects serialize sends").
        let source = PassthroughSubject<Int, Never>()
        let shared = source.share()
        let multicast = source.multicast { PassthroughSubject<Int, Never>() }
        let connectable = source.makeConnectable()
        var got: [Int] = []
        let one = shared.sink { got.append($0) }
        let two = multicast.sink { got.append($0) }
        let three = connectable.autoconnect().sink { got.append($0) }
        let connection = multicast.connect()
        source.send(5)
        #expect(got == [5, 5, 5])
        _ = (one, two, three, connection)

        let model = Model()
        var changes = 0
        let watch = model.objectWillChange.sink { changes += 1 }
        model.text = "abc"
        #expect(model.count == 3)
        #expect(changes == 2)
        _ = watch
    }

    @Test func publishersAndFoundation() async throws {
        #expect(try await Future<Int, any Error> { $0(.success(4)) }.value == 4)
        _ = Deferred { Just(1) }.sink { _ in }
        _ = Record<Int, Never>(output: [1], completion: .finished).sink { _ in }
        _ = Optional(1).publisher.sink { _ in }
        _ = Result<Int, VocabularyError>.success(1).publisher.sink(receiveCompletion: { _ in }) { _ in }
        _ = [Point(x: 1, y: 1)].publisher.encode(encoder: JSONEncoder()).decode(type: Point.self, decoder: JSONDecoder())
            .sink(receiveCompletion: { _ in }) { _ in }
        _ = NotificationCenter.default.publisher(for: Notification.Name("probe")).sink { _ in }
        _ = URLSession.shared.dataTaskPublisher(for: URL(fileURLWithPath: "/")).map { $0.data }
        _ = Timer.publish(every: 1, on: .main, in: .common).autoconnect()
        let identifier = CombineIdentifier()
        #expect(identifier == identifier)
        let erased: AnyPublisher<Int, Never> = Just(1).eraseToAnyPublisher()
        var values: [Int] = []
        for await value in erased.values { values.append(value) }
        #expect(values == [1])
    }
}
