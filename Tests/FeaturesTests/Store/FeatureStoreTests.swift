import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@testable import Features

@Suite struct FeatureStoreTests {
    /// Removed with the suite instance, after each test.
    private let temporary = TemporaryDirectory()
    private var directory: URL { temporary.url }
    private var fileURL: URL { directory.appendingPathComponent(FeatureStore.fileName) }

    private func files() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    private func product(_ index: Int) throws -> Product {
        try #require(Fixtures.products.indices.contains(index) ? Fixtures.products[index] : nil)
    }

    @Test func aNewDirectoryStartsEmptyAndIsCreated() throws {
        let nested = directory.appendingPathComponent("a/b")
        let store = try FeatureStore(directory: nested)
        #expect(store.snapshot == .empty)
        #expect(FileManager.default.fileExists(atPath: nested.path))
    }

    @Test func theCountSurvivesANewStoreOnTheSameDirectory() throws {
        let first = try FeatureStore(directory: directory)
        try first.incrementFetchCount()
        #expect(try first.incrementFetchCount() == 2)
        let second = try FeatureStore(directory: directory)
        #expect(second.snapshot.fetchCount == 2)
        try second.resetFetchCount()
        #expect(try FeatureStore(directory: directory).snapshot.fetchCount == 0)
    }

    @Test func theFileIsJSONAndNoTemporaryFileIsLeft() throws {
        let store = try FeatureStore(directory: directory)
        try store.incrementFetchCount()
        try store.addFavourite(try product(0))
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: fileURL)) as? [String: Any]
        #expect(object?["fetchCount"] as? Int == 1)
        #expect(object?["version"] as? Int == 1)
        #expect(files() == [FeatureStore.fileName, FeatureStore.lockFileName])
    }

    @Test func aCorruptFileIsMovedAsideWithAClearErrorAndKeepsItsBytes() throws {
        let bytes = Data("{\"fetchCount\": 7, oops".utf8)
        try bytes.write(to: fileURL)
        let moment = Date(timeIntervalSince1970: 1_700_000_000)
        var caught: FeatureStoreError?
        do {
            _ = try FeatureStore(directory: directory, clock: { moment })
        } catch {
            caught = error
        }
        guard case .corruptFile(let path, let movedTo, let reason) = caught else {
            Issue.record("expected corruptFile, got \(String(describing: caught))")
            return
        }
        #expect(path == fileURL.path)
        #expect(movedTo == fileURL.path + ".corrupt-2023-11-14T221320.000Z")
        #expect(!reason.isEmpty)
        #expect(caught?.description.contains("moved to") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: movedTo)) == bytes)
        #expect(!FileManager.default.fileExists(atPath: fileURL.path))
        // Opening again starts empty; the bad file stays aside, and a second one gets another name.
        #expect(try FeatureStore(directory: directory).snapshot == .empty)
        try bytes.write(to: fileURL)
        #expect(throws: FeatureStoreError.self) { try FeatureStore(directory: directory, clock: { moment }) }
        #expect(files().filter { $0.contains(".corrupt-") }.count == 2)
    }

    @Test func aDirectoryInPlaceOfTheFileIsReportedAndLeftInPlace() throws {
        try FileManager.default.createDirectory(at: fileURL, withIntermediateDirectories: true)
        #expect {
            try FeatureStore(directory: directory)
        } throws: { error in
            guard case .unreadableFile(let path, let reason) = error as? FeatureStoreError else { return false }
            return path == fileURL.path && reason.hasPrefix("it is a directory, not a file")
        }
        #expect(!files().contains { $0.contains(".corrupt-") })
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: fileURL.path, isDirectory: &isDirectory)
        #expect(exists && isDirectory.boolValue)
    }

    @Test func anImpossibleValueCountsAsCorrupt() throws {
        try Data(#"{"version":1,"fetchCount":-3,"favourites":[],"basket":{"items":[]}}"#.utf8).write(to: fileURL)
        #expect {
            try FeatureStore(directory: directory)
        } throws: { error in
            guard case .corruptFile(_, _, let reason) = error as? FeatureStoreError else { return false }
            return reason.contains("negative")
        }
    }

    @Test func aCountAtItsMaximumIsNotIncrementedPastItAndIsKept() throws {
        let text = #"{"version":1,"fetchCount":\#(Int.max),"favourites":[],"basket":{"items":[]}}"#
        try Data(text.utf8).write(to: fileURL)
        let store = try FeatureStore(directory: directory)
        #expect(throws: FeatureStoreError.self) { try store.incrementFetchCount() }
        #expect(store.snapshot.fetchCount == Int.max)
        #expect(try FeatureStore(directory: directory).snapshot.fetchCount == Int.max)
        try store.resetFetchCount()
        #expect(try store.incrementFetchCount() == 1)
    }

    @Test func aNewerFormatIsRefusedAndLeftInPlace() throws {
        let bytes = Data(#"{"version":2,"somethingNew":true}"#.utf8)
        try bytes.write(to: fileURL)
        #expect(throws: FeatureStoreError.unsupportedVersion(path: fileURL.path, version: 2)) {
            try FeatureStore(directory: directory)
        }
        #expect(try Data(contentsOf: fileURL) == bytes)
    }

    @Test func aFileCorruptedWhileOpenFailsTheChangeThenContinuesFromTheLastGoodState() throws {
        let store = try FeatureStore(directory: directory)
        try store.incrementFetchCount()
        try store.incrementFetchCount()
        try Data("garbage".utf8).write(to: fileURL)
        #expect(throws: FeatureStoreError.self) { try store.incrementFetchCount() }
        #expect(store.snapshot.fetchCount == 2)
        #expect(try store.incrementFetchCount() == 3)
        #expect(try FeatureStore(directory: directory).snapshot.fetchCount == 3)
    }

    @Test func concurrentIncrementsFromTwoStoresOnOneDirectoryAreNeverLost() throws {
        let stores = [try FeatureStore(directory: directory), try FeatureStore(directory: directory)]
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for _ in 0..<25 {
                do {
                    try stores[worker % 2].incrementFetchCount()
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(try FeatureStore(directory: directory).snapshot.fetchCount == 200)
        #expect(files() == [FeatureStore.fileName, FeatureStore.lockFileName])
    }

    @Test func aChangeStartsFromWhatAnotherStoreSaved() throws {
        let first = try FeatureStore(directory: directory)
        let second = try FeatureStore(directory: directory)
        try first.incrementFetchCount()
        try first.addFavourite(try product(1))
        #expect(try second.incrementFetchCount() == 2)
        #expect(second.snapshot.favourites.map(\.id) == ["2"])
    }

    @Test func favouritesAreAddedOnceAndRemoved() throws {
        let store = try FeatureStore(directory: directory)
        let recorder = store.favourites.record()
        try store.addFavourite(try product(0))
        try store.addFavourite(try product(1))
        try store.addFavourite(try product(0))
        try store.removeFavourite(productID: "1")
        #expect(recorder.values.map { $0.map(\.id) } == [[], ["1"], ["1", "2"], ["2"]])
        #expect(try FeatureStore(directory: directory).snapshot.favourites.map(\.id) == ["2"])
    }

    @Test func theBasketAddsChangesQuantitiesTotalsAndChecksOut() throws {
        let store = try FeatureStore(directory: directory)
        let recorder = store.basket.record()
        let (a, b) = (try product(0), try product(1))  // 51 and 374
        try store.addToBasket(a)
        try store.addToBasket(b, quantity: 2)
        try store.addToBasket(a)
        #expect(store.snapshot.basket.total == a.price * 2 + b.price * 2)
        #expect(store.snapshot.basket.itemCount == 4)
        try store.setQuantity(5, forProductID: b.id)
        try store.removeFromBasket(productID: a.id)
        #expect(store.snapshot.basket.items == [BasketItem(product: b, quantity: 5)])
        #expect(try FeatureStore(directory: directory).snapshot.basket.total == b.price * 5)
        let order = try store.checkout()
        #expect(order.total == b.price * 5)
        #expect(store.snapshot.basket.isEmpty)
        #expect(try FeatureStore(directory: directory).snapshot.basket.isEmpty)
        #expect(recorder.values.map(\.itemCount) == [0, 1, 3, 4, 7, 5, 0])
    }

    @Test func badQuantitiesAndUnknownProductsAreRefusedWithoutChange() throws {
        let store = try FeatureStore(directory: directory)
        try store.addToBasket(try product(0))
        #expect(throws: FeatureStoreError.invalidQuantity(0, allowed: 1...999)) {
            try store.addToBasket(try product(1), quantity: 0)
        }
        #expect(throws: FeatureStoreError.invalidQuantity(-1, allowed: 0...999)) {
            try store.setQuantity(-1, forProductID: "1")
        }
        #expect(throws: FeatureStoreError.notInBasket(productID: "9")) { try store.setQuantity(2, forProductID: "9") }
        #expect(store.snapshot.basket.items.map(\.quantity) == [1])
        try store.setQuantity(0, forProductID: "1")
        #expect(store.snapshot.basket.isEmpty)
    }

    @Test func quantitiesAreFrom1To999AndNothingOverflowsEvenWithIntMax() throws {
        let store = try FeatureStore(directory: directory)
        let (a, b) = (try product(0), try product(1))
        #expect(throws: FeatureStoreError.invalidQuantity(Int.max, allowed: 1...999)) {
            try store.addToBasket(a, quantity: Int.max)
        }
        #expect(throws: FeatureStoreError.invalidQuantity(1000, allowed: 1...999)) {
            try store.addToBasket(a, quantity: 1000)
        }
        #expect(throws: FeatureStoreError.invalidQuantity(Int.min, allowed: 1...999)) {
            try store.addToBasket(a, quantity: Int.min)
        }
        try store.addToBasket(a, quantity: 999)
        #expect(throws: FeatureStoreError.quantityTooLarge(productID: a.id, current: 999, adding: 1)) {
            try store.addToBasket(a)
        }
        #expect(throws: FeatureStoreError.invalidQuantity(Int.max, allowed: 0...999)) {
            try store.setQuantity(Int.max, forProductID: a.id)
        }
        #expect(store.snapshot.basket.quantity(ofProductID: a.id) == 999)
        #expect(
            FeatureStoreError.invalidQuantity(1000, allowed: 1...999).description
                == "quantity must be a whole number from 1 to 999, got 1000")
        #expect(
            FeatureStoreError.quantityTooLarge(productID: "3", current: 999, adding: 1).description
                == "cannot add 1 more of product 3: the basket already holds 999, and a product's quantity can be "
                + "at most 999 (set it instead, or check out first)")

        // A file written elsewhere may hold Int.max: adding to it is refused, never trapped on.
        var snapshot = store.snapshot
        snapshot.basket.items = [BasketItem(product: a, quantity: Int.max), BasketItem(product: b, quantity: Int.max)]
        try JSONEncoder().encode(snapshot).write(to: directory.appendingPathComponent(FeatureStore.fileName))
        let reopened = try FeatureStore(directory: directory)
        #expect(throws: FeatureStoreError.quantityTooLarge(productID: a.id, current: Int.max, adding: 1)) {
            try reopened.addToBasket(a)
        }
        #expect(reopened.snapshot.basket.itemCount == Int.max)
        #expect(reopened.snapshot.basket.total == a.price * Decimal(Int.max) + b.price * Decimal(Int.max))
        var basket = reopened.snapshot.basket
        basket.add(a, quantity: 5)
        #expect(basket == reopened.snapshot.basket)
        try reopened.setQuantity(2, forProductID: a.id)
        #expect(reopened.snapshot.basket.quantity(ofProductID: a.id) == 2)
    }

    @Test func everySubscriberSeesEveryChangeAndMaySaveFromItsSubscriber() throws {
        let store = try FeatureStore(directory: directory)
        let first = store.fetchCount.record()
        // A subscriber that changes the store while receiving (re-entrancy): resets once the count reaches 2.
        let reentrant = store.fetchCount.sink { count in
            if count == 2 { try? store.resetFetchCount() }
        }
        let second = store.fetchCount.record()
        try store.incrementFetchCount()
        try store.incrementFetchCount()
        #expect(first.values == [0, 1, 2, 0])
        #expect(second.values == [0, 1, 2, 0])
        #expect(store.snapshot.fetchCount == 0)
        reentrant.cancel()
    }
}
