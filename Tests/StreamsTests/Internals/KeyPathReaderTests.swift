import Testing

@testable import Streams

/// `KeyPathReader` reads what applying the key path reads, whether it finds an inline offset (stored properties
/// of structs, nested structs, tuples) or falls back to the key path (classes, computed properties, optional
/// chains), and keeps what it reads alive (a copied `String` or class reference outlives the value it came from).
@Suite struct KeyPathReaderTests {
    struct Inner: Equatable {
        var flag: Bool
        var label: String
    }

    struct Item {
        var id: Int
        var name: String
        var inner: Inner
        var pair: (Int8, Double)
        var owner: Owner
        var maybe: Inner?
        var doubled: Int { id * 2 }
    }

    final class Owner {
        var title: String
        init(title: String) { self.title = title }
    }

    static var item: Item {
        Item(
            id: 7, name: "seven" + String(repeating: "!", count: 40), inner: Inner(flag: true, label: "in"),
            pair: (3, 2.5), owner: Owner(title: "boss"), maybe: Inner(flag: false, label: "opt"))
    }

    @Test func storedPropertiesOfStructsAreReadAtTheirOffset() {
        #expect(KeyPathReader(\Item.id).offset != nil)
        #expect(KeyPathReader(\Item.inner.label).offset != nil)
        #expect(KeyPathReader(\Item.pair.1).offset != nil)
        #expect(KeyPathReader(\Item.id).read(Self.item) == 7)
        #expect(KeyPathReader(\Item.name).read(Self.item) == Self.item.name)
        #expect(KeyPathReader(\Item.inner).read(Self.item) == Inner(flag: true, label: "in"))
        #expect(KeyPathReader(\Item.inner.flag).read(Self.item))
        #expect(KeyPathReader(\Item.inner.label).read(Self.item) == "in")
        #expect(KeyPathReader(\Item.pair.0).read(Self.item) == 3)
        #expect(KeyPathReader(\Item.pair.1).read(Self.item) == 2.5)
        let item = Self.item
        #expect(KeyPathReader(\Item.owner).read(item) === item.owner)
    }

    @Test func otherKeyPathsAreApplied() {
        #expect(KeyPathReader(\Item.doubled).offset == nil)
        #expect(KeyPathReader(\Item.owner.title).offset == nil)
        #expect(KeyPathReader(\Item.maybe?.label).offset == nil)
        #expect(KeyPathReader(\Owner.title).offset == nil)
        #expect(KeyPathReader(\Item.doubled).read(Self.item) == 14)
        #expect(KeyPathReader(\Item.owner.title).read(Self.item) == "boss")
        #expect(KeyPathReader(\Item.maybe?.label).read(Self.item) == "opt")
        #expect(KeyPathReader(\Owner.title).read(Owner(title: "boss")) == "boss")
    }

    @Test func whatIsReadOutlivesTheValueItCameFrom() {
        weak var weakOwner: Owner?
        var name: String
        var owner: Owner?
        do {
            let item = Item(
                id: 1, name: String(repeating: "n", count: 100), inner: Inner(flag: false, label: ""), pair: (0, 0),
                owner: Owner(title: "t"), maybe: nil)
            weakOwner = item.owner
            name = KeyPathReader(\Item.name).read(item)
            owner = KeyPathReader(\Item.owner).read(item)
        }
        #expect(name == String(repeating: "n", count: 100))
        #expect(weakOwner != nil)
        owner = nil
        #expect(owner == nil)
        #expect(weakOwner == nil)
    }

    @Test func mapOfAKeyPathPublishesWhatTheKeyPathReads() {
        var out: [String] = []
        _ = [Self.item].publisher.eraseToAnyPublisher().map(\.inner.label).sink { out.append($0) }
        _ = [Self.item].publisher.eraseToAnyPublisher().map(\.id, \.doubled).sink { out.append("\($0.0) \($0.1)") }
        _ = [Self.item].publisher.eraseToAnyPublisher().map(\.pair.0, \.owner.title, \.name.count)
            .sink { out.append("\($0.0) \($0.1) \($0.2)") }
        #expect(out == ["in", "7 14", "3 boss 45"])
    }
}
