// A settings store written as Combine apps write it (only `import Combine` became `import Streams` plus
// `import StreamsFoundation`): `NotificationCenter.default.publisher(for:)` with `compactMap` over `userInfo`,
// a `PassthroughSubject` of events merged with them, `share()`, `multicast(subject:)`, `assign(to:on:)`, an
// `AnyCancellable?` property, and `Publishers.Merge` / `Publishers.CombineLatest` spelled out as stored types.
import Dispatch
import Foundation
import Streams
import StreamsFoundation
import Testing

extension Notification.Name {
    static let settingsThemeDidChange = Notification.Name("SettingsStore.themeDidChange")
    static let settingsUserDidLogOut = Notification.Name("SettingsStore.userDidLogOut")
}

enum SettingsEvent: Equatable {
    case themeChanged(String)
    case fontSizeChanged(Int)
    case loggedOut
}

final class SettingsStore: ObservableObject {
    @Published var theme = "light"
    @Published var fontSize = 14
    @Published private(set) var isLoggedIn = true

    /// Events the app sends itself (a settings screen, a debug menu).
    let events = PassthroughSubject<SettingsEvent, Never>()

    let themeNotifications: Publishers.CompactMap<NotificationCenter.Publisher, SettingsEvent>
    let allEvents: Publishers.Share<
        Publishers.Merge<
            Publishers.CompactMap<NotificationCenter.Publisher, SettingsEvent>, PassthroughSubject<SettingsEvent, Never>
        >
    >
    lazy var appearance: Publishers.CombineLatest<Published<String>.Publisher, Published<Int>.Publisher> =
        Publishers.CombineLatest($theme, $fontSize)

    var cancellable: AnyCancellable?
    private var cancellables = Set<AnyCancellable>()

    init(center: NotificationCenter = .default) {
        themeNotifications = center.publisher(for: .settingsThemeDidChange)
            .compactMap { $0.userInfo?["theme"] as? String }
            .map { SettingsEvent.themeChanged($0) }
        allEvents = Publishers.Merge(themeNotifications, events).share()

        allEvents
            .sink { [weak self] event in
                switch event {
                case .themeChanged(let theme): self?.theme = theme
                case .fontSizeChanged(let size): self?.fontSize = size
                case .loggedOut: self?.isLoggedIn = false
                }
            }
            .store(in: &cancellables)

        cancellable = center.publisher(for: .settingsUserDidLogOut)
            .map { _ in SettingsEvent.loggedOut }
            .merge(with: events.filter { $0 == .loggedOut })
            .sink { [weak self] _ in self?.isLoggedIn = false }
    }
}

/// A label that shows the current appearance, kept up to date with `assign(to:on:)`.
final class AppearanceLabel {
    var text = ""
    var cancellable: AnyCancellable?

    func bind(to store: SettingsStore) {
        cancellable = store.appearance
            .map { theme, size in "\(theme) \(size)pt" }
            .assign(to: \.text, on: self)
    }
}

@Suite(.serialized) struct SettingsStoreTests {
    @Test func notificationsAndSentEventsUpdateTheStore() {
        let store = SettingsStore()
        let label = AppearanceLabel()
        label.bind(to: store)
        #expect(label.text == "light 14pt")

        NotificationCenter.default.post(name: .settingsThemeDidChange, object: nil, userInfo: ["theme": "dark"])
        #expect(store.theme == "dark")
        #expect(label.text == "dark 14pt")
        NotificationCenter.default.post(name: .settingsThemeDidChange, object: nil, userInfo: ["colour": "red"])
        #expect(store.theme == "dark")  // compactMap drops a notification without the key
        store.events.send(.fontSizeChanged(18))
        #expect(label.text == "dark 18pt")

        NotificationCenter.default.post(name: .settingsUserDidLogOut, object: nil)
        #expect(!store.isLoggedIn)
        store.cancellable?.cancel()
        label.cancellable = nil
        store.theme = "sepia"
        #expect(label.text == "dark 18pt")  // cancelled by releasing the AnyCancellable
    }

    @Test func sharedEventsReachEverySubscriberFromOneSubscription() {
        let center = NotificationCenter()
        let store = SettingsStore(center: center)
        var first: [SettingsEvent] = []
        var second: [SettingsEvent] = []
        let one = store.allEvents.sink { first.append($0) }
        let two = store.allEvents.sink { second.append($0) }
        center.post(name: .settingsThemeDidChange, object: nil, userInfo: ["theme": "dark"])
        store.events.send(.fontSizeChanged(12))
        #expect(first == [.themeChanged("dark"), .fontSizeChanged(12)])
        #expect(second == first)
        _ = (one, two)
    }

    @Test func aMulticastSubjectStartsOnConnect() {
        let store = SettingsStore(center: NotificationCenter())
        var subscriptions = 0
        let multicast = store.events
            .handleEvents(receiveSubscription: { _ in subscriptions += 1 })
            .multicast(subject: PassthroughSubject<SettingsEvent, Never>())
        var audit: [SettingsEvent] = []
        var analytics: [SettingsEvent] = []
        let auditLog = multicast.sink { audit.append($0) }
        let analyticsLog = multicast.sink { analytics.append($0) }
        store.events.send(.fontSizeChanged(10))  // not connected yet: missed by both
        #expect(subscriptions == 0)
        let connection = multicast.connect()
        #expect(subscriptions == 1)
        store.events.send(.loggedOut)
        #expect(audit == [.loggedOut])
        #expect(analytics == [.loggedOut])
        #expect(!store.isLoggedIn)
        connection.cancel()
        store.events.send(.fontSizeChanged(20))
        #expect(audit == [.loggedOut])
        _ = (auditLog, analyticsLog)
    }
}
