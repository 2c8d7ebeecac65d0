import Streams
import Testing

/// `encode(encoder:)` and `decode(type:decoder:)` (Sources/Streams/Operators/Coding.swift), with coders written
/// here (the library is Foundation-free; the Foundation coders are tested in StreamsFoundationTests).
@Suite struct CodingTests {
    /// Encodes a value as its description; refuses the number 13.
    struct DescribingEncoder: TopLevelEncoder {
        struct Refused: Error, Equatable {}
        func encode<T: Encodable>(_ value: T) throws -> String {
            let text = String(describing: value)
            guard text != "13" else { throw Refused() }
            return text
        }
    }

    /// Decodes an `Int` from its digits; anything else throws.
    struct DigitsDecoder: TopLevelDecoder {
        struct NotANumber: Error, Equatable { var text: String }
        func decode<T: Decodable>(_ type: T.Type, from input: String) throws -> T {
            guard let number = Int(input) as? T else { throw NotANumber(text: input) }
            return number
        }
    }

    typealias Sub<Input> = HandWrittenSubscriber<Input, any Error>

    @Test func encodePublishesEachValueEncodedAndPassesDemandThrough() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = Sub<String>(initial: .max(2), perValue: .max(1))
        probe.encode(encoder: DescribingEncoder()).subscribe(subscriber)
        #expect(probe.requests == [.max(2)])
        #expect(probe.send(1) == .max(1))  // the demand each value call returns goes back upstream
        #expect(probe.send(22) == .max(1))
        probe.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value("1"), .value("22"), .finished])
    }

    @Test func aValueTheEncoderRefusesCancelsUpstreamAndFailsWithTheEncodersError() {
        let probe = SimpleProbe<Int, Never>()
        var received: [String] = []
        var failure: (any Error)?
        let cancellable = probe.encode(encoder: DescribingEncoder()).sink(
            receiveCompletion: { if case .failure(let error) = $0 { failure = error } },
            receiveValue: { received.append($0) })
        probe.send(12)
        probe.send(13)
        probe.send(14)  // after the failure: ignored
        #expect(received == ["12"])
        #expect(failure is DescribingEncoder.Refused)
        #expect(probe.cancelCount == 1)
        cancellable.cancel()
    }

    @Test func decodePublishesEachDecodedValueAndPassesDemandThrough() {
        let probe = SimpleProbe<String, Never>()
        let subscriber = Sub<Int>(initial: .max(1), perValue: .max(1))
        probe.decode(type: Int.self, decoder: DigitsDecoder()).subscribe(subscriber)
        #expect(probe.requests == [.max(1)])
        #expect(probe.send("7") == .max(1))
        #expect(probe.send("42") == .max(1))
        #expect(subscriber.events == [.subscription, .value(7), .value(42)])
    }

    @Test func inputTheDecoderCannotReadCancelsUpstreamAndFailsWithTheDecodersError() {
        let probe = SimpleProbe<String, Never>()
        var received: [Int] = []
        var failure: (any Error)?
        let cancellable = probe.decode(type: Int.self, decoder: DigitsDecoder()).sink(
            receiveCompletion: { if case .failure(let error) = $0 { failure = error } },
            receiveValue: { received.append($0) })
        probe.send("1")
        probe.send("one")
        probe.send("2")
        #expect(received == [1])
        #expect(failure as? DigitsDecoder.NotANumber == DigitsDecoder.NotANumber(text: "one"))
        #expect(probe.cancelCount == 1)
        cancellable.cancel()
    }

    @Test func anUpstreamFailureIsForwardedAsIs() {
        let probe = SimpleProbe<String, ProbeError>()
        var failure: (any Error)?
        let cancellable = probe.decode(type: Int.self, decoder: DigitsDecoder()).sink(
            receiveCompletion: { if case .failure(let error) = $0 { failure = error } }, receiveValue: { _ in })
        probe.send(completion: .failure(.boom))
        #expect(failure as? ProbeError == .boom)
        #expect(probe.cancelCount == 0)
        cancellable.cancel()
    }

    @Test func nothingIsDeliveredAfterCancel() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = Sub<String>(initial: .unlimited)
        probe.encode(encoder: DescribingEncoder()).subscribe(subscriber)
        probe.send(1)
        subscriber.cancel()
        probe.send(2)
        probe.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value("1")])
        #expect(probe.cancelCount == 1)
    }
}
