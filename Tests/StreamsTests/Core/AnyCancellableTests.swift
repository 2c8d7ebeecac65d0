import Streams
import StreamsTesting
import Testing

@Suite struct AnyCancellableTests {
    @Test func anyCancellableRunsItsActionOnce() {
        let count = Locked(0)
        let cancellable = AnyCancellable { count.withLock { $0 += 1 } }
        cancellable.cancel()
        cancellable.cancel()
        #expect(count.withLock { $0 } == 1)
    }

    @Test func droppingAnAnyCancellableCancels() {
        let count = Locked(0)
        do { _ = AnyCancellable { count.withLock { $0 += 1 } } }
        #expect(count.withLock { $0 } == 1)
    }

    @Test func storeKeepsCancellablesInSetsAndArrays() {
        let subject = PassthroughSubject<Int, Never>()
        let seen = Locked<[Int]>([])
        var set = Set<AnyCancellable>()
        var array: [AnyCancellable] = []
        subject.sink { value in seen.withLock { $0.append(value) } }.store(in: &set)
        subject.sink { value in seen.withLock { $0.append(value * 10) } }.store(in: &array)
        subject.send(1)
        #expect(seen.withLock { $0 } == [1, 10])
        set.removeAll()
        subject.send(2)
        #expect(seen.withLock { $0 } == [1, 10, 20])
        array.removeAll()
        subject.send(3)
        #expect(seen.withLock { $0 } == [1, 10, 20])
    }
}
