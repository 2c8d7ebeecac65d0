import Streams
import Testing

@Suite struct DemandTests {
    @Test func additionSaturatesAtUnlimited() {
        #expect(Subscribers.Demand.max(2) + .max(3) == .max(5))
        #expect(Subscribers.Demand.max(Int.max) + .max(Int.max) + .max(Int.max) == .unlimited)
        #expect(Subscribers.Demand.unlimited + .max(1) == .unlimited)
        #expect(Subscribers.Demand.max(1) + 2 == .max(3))
        var demand = Subscribers.Demand.none
        demand += .max(4)
        demand += 1
        #expect(demand == .max(5))
    }

    /// The edges OpenCombine's SubscribersDemandTests pin (they run against Combine too): a sum or product beyond
    /// `Int.max` is `.unlimited`, while subtracting a negative count past `Int.max` gives `.none`.
    @Test func arithmeticBeyondIntMaxFollowsCombine() {
        let largest = Subscribers.Demand.max(Int.max)
        #expect(largest + 10 == .unlimited)
        #expect(largest + .max(1) == .unlimited)
        #expect(largest * 2 == .unlimited)
        #expect((largest + 10).max == nil)
        #expect(Subscribers.Demand.max(Int.max - 1) + 1 == largest)
        #expect(Subscribers.Demand.unlimited + Int.min == .unlimited)
        #expect(Subscribers.Demand.unlimited - Int.max == .unlimited)
        #expect(largest - (-1) == .none)
        #expect(Subscribers.Demand.max(5) - (-3) == .max(8))
        var demand = largest
        demand += 10
        #expect(demand == .unlimited)
        demand = largest
        demand -= -1
        #expect(demand == .none)
    }

    @Test func anIntComparesWithADemandFromEitherSide() {
        #expect(42 != Subscribers.Demand.unlimited)
        #expect(!(42 == Subscribers.Demand.unlimited))
        #expect(100 == Subscribers.Demand.max(100))
        #expect(42 < Subscribers.Demand.max(100))
        #expect(142 >= Subscribers.Demand.max(100))
    }

    /// Combine's encoding: one unsigned integer, `.unlimited` as `Int.max + 1`; larger numbers decode as
    /// `.unlimited`, a negative one does not decode.
    @Test func encodesAndDecodesAsCombineDoes() throws {
        #expect(try SingleNumberCoder.encode(Subscribers.Demand.max(42)) == 42)
        #expect(try SingleNumberCoder.encode(Subscribers.Demand.unlimited) == UInt(Int.max) + 1)
        #expect(try SingleNumberCoder.decode(42) == .max(42))
        #expect(try SingleNumberCoder.decode(UInt(Int.max) + 1) == .unlimited)
        #expect(try SingleNumberCoder.decode(UInt(Int.max) + 2) == .unlimited)
        #expect(try SingleNumberCoder.decode(UInt(Int.max)) == .max(Int.max))
        #expect(throws: SingleNumberCoder.NotUnsigned.self) { try SingleNumberCoder.decode(signed: -1) }
    }

    @Test func subtractionClampsAtNoneAndKeepsUnlimited() {
        #expect(Subscribers.Demand.max(5) - .max(3) == .max(2))
        #expect(Subscribers.Demand.max(3) - .max(5) == .none)
        #expect(Subscribers.Demand.max(3) - .unlimited == .none)
        #expect(Subscribers.Demand.unlimited - .max(3) == .unlimited)
        #expect(Subscribers.Demand.unlimited - .unlimited == .unlimited)
        #expect(Subscribers.Demand.max(1) - 1 == .none)
        #expect(Subscribers.Demand.max(1) - 5 == .none)
    }

    @Test func multiplicationSaturates() {
        #expect(Subscribers.Demand.max(3) * 4 == .max(12))
        #expect(Subscribers.Demand.max(Int.max) * 4 == .unlimited)
        #expect(Subscribers.Demand.unlimited * 0 == .unlimited)
        #expect(Subscribers.Demand.max(3) * 0 == .none)
    }

    @Test func comparisonsTreatUnlimitedAsLargest() {
        #expect(Subscribers.Demand.unlimited > .max(Int.max))
        #expect(Subscribers.Demand.unlimited > 1_000_000)
        #expect(Subscribers.Demand.max(2) < 3)
        #expect(Subscribers.Demand.max(2) == 2)
        #expect(Subscribers.Demand.unlimited != Int.max)
        #expect(Subscribers.Demand.none == .max(0))
        #expect(0 < Subscribers.Demand.max(1))
    }

    @Test func maxIsNilOnlyForUnlimited() {
        #expect(Subscribers.Demand.unlimited.max == nil)
        #expect(Subscribers.Demand.max(7).max == 7)
        #expect(Subscribers.Demand.unlimited.description == "unlimited")
        #expect(Subscribers.Demand.max(7).description == "max(7)")
    }
}

/// A minimal Foundation-free coder for one `Subscribers.Demand`: what it encodes to, and what a number decodes to.
enum SingleNumberCoder {
    struct NotUnsigned: Error {}
    struct Unsupported: Error {}

    static func encode(_ demand: Subscribers.Demand) throws -> UInt {
        let encoder = NumberEncoder()
        try demand.encode(to: encoder)
        return try encoder.box.value ?? { throw Unsupported() }()
    }

    static func decode(_ number: UInt) throws -> Subscribers.Demand {
        try Subscribers.Demand(from: NumberDecoder(value: .unsigned(number)))
    }

    static func decode(signed number: Int) throws -> Subscribers.Demand {
        try Subscribers.Demand(from: NumberDecoder(value: .signed(number)))
    }

    final class Box { var value: UInt? }

    struct NumberEncoder: Encoder, SingleValueEncodingContainer {
        let box = Box()
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            fatalError("a demand encodes one value")  // never reached: Demand uses a single-value container
        }
        func unkeyedContainer() -> any UnkeyedEncodingContainer { fatalError("a demand encodes one value") }
        func singleValueContainer() -> any SingleValueEncodingContainer { self }
        mutating func encodeNil() throws { throw Unsupported() }
        mutating func encode(_ value: UInt) throws { box.value = value }
        mutating func encode<T: Encodable>(_ value: T) throws { throw Unsupported() }
    }

    enum Number {
        case unsigned(UInt)
        case signed(Int)
    }

    struct NumberDecoder: Decoder, SingleValueDecodingContainer {
        let value: Number
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            throw Unsupported()
        }
        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Unsupported() }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { self }
        func decodeNil() -> Bool { false }
        func decode(_ type: UInt.Type) throws -> UInt {
            switch value {
            case .unsigned(let number): return number
            case .signed(let number):
                guard number >= 0 else { throw NotUnsigned() }
                return UInt(number)
            }
        }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { throw Unsupported() }
    }
}
