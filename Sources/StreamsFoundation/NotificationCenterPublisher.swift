import Foundation
import Streams

extension NotificationCenter {
    /// A publisher of the notifications named `name` (from `object`, when given) posted to this center —
    /// Combine's `NotificationCenter.publisher(for:object:)`.
    ///
    /// - Demand: a notification posted while the subscriber has no demand is dropped, as in Combine.
    /// - Threading: delivered on the posting thread; posts from several threads are delivered one at a time.
    /// - Cancellation: removes the observer.
    ///
    /// ```swift
    /// let c = NotificationCenter.default.publisher(for: .NSSystemClockDidChange).sink { print($0.name) }
    /// ```
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher {
        Publisher(center: self, name: name, object: object)
    }

    /// The publisher returned by `publisher(for:object:)`.
    public struct Publisher: Streams.Publisher {
        /// The notifications.
        public typealias Output = Notification
        /// Never fails.
        public typealias Failure = Never

        /// The center observed.
        public let center: NotificationCenter
        /// The name observed.
        public let name: Notification.Name
        /// The sender observed, or `nil` for any.
        public let object: AnyObject?

        /// A publisher of `center`'s notifications named `name` from `object`.
        public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        /// Attaches `subscriber`: observes until it cancels.
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Notification, S.Failure == Never {
            // The subject serialises posts from several threads and drops those nobody has demand for.
            let subject = PassthroughSubject<Notification, Never>()
            let observer = ObserverToken(
                center.addObserver(forName: name, object: object, queue: nil) { subject.send($0) })
            let center = Sendability(center)
            subject
                .handleEvents(receiveCancel: { center.value.removeObserver(observer.value) })
                .receive(subscriber: subscriber)
        }
    }
}

/// The token `addObserver` returns. Sound as `@unchecked Sendable`: immutable, and only passed back to
/// `removeObserver`, which is thread-safe.
struct ObserverToken: @unchecked Sendable {
    let value: any NSObjectProtocol
    init(_ value: any NSObjectProtocol) { self.value = value }
}

/// A Foundation object used from another thread through thread-safe methods only (a notification center's
/// `removeObserver`, a URL session task's `cancel`). Sound as `@unchecked Sendable` for that reason: each use
/// site names the method it calls.
struct Sendability<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
