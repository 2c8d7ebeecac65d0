import Streams
import StreamsTesting
import Testing

@Suite struct AnyPublisherTests {
    @Test func anyPublisherBehavesLikeTheErasedPublisher() {
        let erased: AnyPublisher<Int, Never> = [1, 2, 3].publisher.map { $0 * 2 }.eraseToAnyPublisher()
        #expect(erased.record().values == [2, 4, 6])
        let twice = erased.eraseToAnyPublisher()
        #expect(twice.record(demand: .max(1)).values == [2])
    }
}
