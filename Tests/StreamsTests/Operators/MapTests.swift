import Streams
import StreamsTesting
import Testing

@Suite struct MapTests {
    @Test func mapTransformsEveryValueInOrder() {
        let recorder = [1, 2, 3].publisher.map { $0 * 10 }.record()
        #expect(recorder.values == [10, 20, 30])
        #expect(recorder.isFinished)
    }

    @Test func fusedMapFilterMapKeepsTheOrderOfStages() {
        let subject = PassthroughSubject<Int, Never>()
        var seen: [String] = []
        let c = subject.map { $0 + 1 }.filter { $0.isMultiple(of: 2) }.map { "v\($0)" }.sink { seen.append($0) }
        for i in 0..<6 { subject.send(i) }
        #expect(seen == ["v2", "v4", "v6"])
        c.cancel()
    }

    @Test func adjacentStagesFuseIntoOneStage() {
        let subject = PassthroughSubject<Int, Never>()
        #expect(
            type(of: subject.map { $0 + 1 }.map { $0 * 2 }) == Publishers.Map<PassthroughSubject<Int, Never>, Int>.self)
        #expect(
            type(of: subject.filter { $0 > 0 }.filter { $0 < 9 })
                == Publishers.Filter<PassthroughSubject<Int, Never>>.self)
        #expect(
            type(of: subject.compactMap { $0 > 0 ? $0 : nil }.map { "\($0)" })
                == Publishers.CompactMap<PassthroughSubject<Int, Never>, String>.self)
        // Different kinds stay separate stages (inline structs, no allocation).
        #expect(
            type(of: subject.map { $0 + 1 }.filter { $0 > 0 })
                == Publishers.Filter<Publishers.Map<PassthroughSubject<Int, Never>, Int>>.self)
        let recorder = subject.map { $0 + 1 }.map { $0 * 2 }.filter { $0 > 2 }.record()
        subject.send(0)
        subject.send(1)
        #expect(recorder.values == [4])
    }
}
