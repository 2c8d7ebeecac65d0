import Streams
import Testing

/// The publishers Combine makes `Equatable` when their parts are (OpenCombine lists the same): two pipelines built
/// from equal parts compare equal, so code that compares publishers ports unchanged.
@Suite struct PublisherEqualityTests {
    @Test func publishersWithEqualPartsAreEqual() {
        let numbers = [1, 2, 3].publisher
        #expect(numbers == [1, 2, 3].publisher)
        #expect(numbers != [1, 2].publisher)
        #expect(Optional(1).publisher == Optional(1).publisher)
        #expect(Optional<Int>.none.publisher != Optional(1).publisher)
        #expect(Result<Int, TestError>.success(1).publisher == Result<Int, TestError>.success(1).publisher)
        #expect(Result<Int, TestError>.failure(.boom).publisher != Result<Int, TestError>.success(1).publisher)

        // A sequence's operators are Combine's eager overloads: the results compare as sequences and results.
        #expect(numbers.collect() == numbers.collect())
        #expect(numbers.collect(2) == numbers.collect(2))
        #expect(numbers.collect(2) != numbers.collect(3))
        #expect(numbers.count() == numbers.count())
        #expect(numbers.contains(2) == numbers.contains(2))
        #expect(numbers.contains(2) != numbers.contains(9))
        #expect(numbers.dropFirst(1) == numbers.dropFirst(1))
        #expect(numbers.dropFirst(1) != numbers.dropFirst(2))
        #expect(numbers.first() == numbers.first())
        #expect(numbers.last() == numbers.last())
        #expect(numbers.ignoreOutput() == numbers.ignoreOutput())
        #expect(numbers.append(4) == numbers.append(4))
        #expect(numbers.prepend(0) != numbers.prepend(9))
        #expect(Just(1).setFailureType(to: TestError.self) == Just(1).setFailureType(to: TestError.self))

        // The streaming operators' publishers, over an upstream without overloads.
        let silent = Empty<Int, Never>(completeImmediately: false)
        #expect(silent.collect() == silent.collect())
        #expect(silent.count() == silent.count())
        #expect(silent.contains(2) == silent.contains(2))
        #expect(silent.contains(2) != silent.contains(3))
        #expect(silent.contains(2) != Empty<Int, Never>().contains(2))
        #expect(silent.dropFirst(1) != silent.dropFirst(2))
        #expect(silent.first() == silent.first())
        #expect(silent.last() == silent.last())
        #expect(silent.ignoreOutput() == silent.ignoreOutput())
        #expect(silent.append(4) == silent.append(4))
        #expect(silent.prepend(0) != silent.prepend(9))
        #expect(silent.setFailureType(to: TestError.self) == silent.setFailureType(to: TestError.self))
        let failing = Fail<Int, TestError>(error: .boom)
        #expect(failing.replaceError(with: 0) == failing.replaceError(with: 0))
        #expect(failing.replaceError(with: 0) != failing.replaceError(with: 1))
        #expect(failing.retry(2) == failing.retry(2))
        #expect(failing.retry(2) != failing.retry(3))
    }
}
