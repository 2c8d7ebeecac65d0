import Synchronization

extension Subscribers {
    /// A subscriber that writes each value to a key path of an object.
    ///
    /// Holds the object strongly until cancelled or completed (as Combine does); cancel releases it. A cancel
    /// from inside a write (the object's setter cancels) releases it once that write returns, never under it.
    /// - Threading: writes happen on the thread the publisher delivers on, serially. `cancel()` and ``object`` may
    ///   be called from any thread; a value racing with a cancel may still be written, none after the cancel
    ///   returns on the delivering thread. Writing a value takes no lock: a few atomic operations, no allocation
    ///   (the subscriber is one object). The object itself is written without synchronisation.
    /// - Performance: a key path written as a literal where the subscriber is made (`assign(to: \.title, on:
    ///   model)`) is compiled into a direct write to the property (or a call of its setter); a key path held in a
    ///   variable goes through the runtime's generic key-path write on every value, as in Combine (some hundred
    ///   nanoseconds: an allocation, a type-metadata lookup).
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible, @unchecked Sendable {
        /// Never fails.
        public typealias Failure = Never

        /// `waiting` → (`subscribing` →) `subscribed` → `terminal`, as a ``Subscribers/Sink``'s: whoever moves it
        /// to `terminal` from `subscribed` owns `upstream`.
        @usableFromInline
        let status = Atomic<UInt8>(SinkStatus.waiting)

        /// Who is reading `target` now (the count in the low bits: a write, or ``object`` on any thread), plus
        /// ``AssignReaders/releasing`` once a completion or cancel asked for the object to be let go. A reader
        /// enters only while `releasing` is clear; the release happens exactly once, when `releasing` is set and
        /// no reader is left: by the one that set it if nobody was reading, else by the last reader out.
        @usableFromInline
        let readers = Atomic<UInt32>(0)

        /// The upstream subscription: written only while `subscribing`, taken only by the thread that ends the
        /// subscriber from `subscribed` (see ``Subscribers/Sink``).
        @usableFromInline
        @exclusivity(unchecked)
        var upstream = SubscriptionSlot()

        /// The object written to; `nil` once released. Read only by a thread counted in `readers`, and set to
        /// `nil` only by the one release, when `readers` holds no reader and lets none in.
        @usableFromInline
        @exclusivity(unchecked)
        var target: Root?

        /// The key path written on ``object``.
        public var keyPath: ReferenceWritableKeyPath<Root, Input> {
            guard let keyPath = access(nil, nil) else { preconditionFailure("access returns its key path for nil") }
            return keyPath
        }

        /// Given an object and a value, writes the value to the object through the key path and returns `nil`;
        /// given neither, returns the key path (see `init`). One closure, one word pair in the object. Immutable.
        @usableFromInline
        let access: (Root?, Input?) -> ReferenceWritableKeyPath<Root, Input>?

        /// The object values are written to; `nil` once the subscriber has completed or been cancelled.
        @inlinable
        public var object: Root? { read { $0 } }

        /// Creates a subscriber that assigns to `keyPath` on `object`.
        @inlinable
        @inline(__always)  // where the key path is a literal (see the comment below)
        public init(object: Root, keyPath: consuming ReferenceWritableKeyPath<Root, Input>) {
            target = object
            // The key path has one use, `keyPathSource`'s capture (consumed, not copied: a copy's retain and release
            // would count as uses), and `access` calls that closure rather than capturing the key path itself.
            // Inlined where `keyPath` is a literal, the optimiser then copies the literal into the closures (its
            // constant-capture propagation takes a key path only with a single use) and compiles the write into a
            // direct access to the property, instead of the runtime's key-path projection on every value (an
            // allocation and a metadata lookup: subject → `map` → `assign(to:on:)`, about 1,640 instructions per
            // value before, 410 after). Storing the key path as well would be a second use; a second stored closure
            // for `keyPath` would cost 16 bytes per subscriber (a larger heap chunk); `access` returning a captured
            // key path itself would create that key path on every write.
            let path = consume keyPath
            let keyPathSource = { path }
            access = { object, input in
                guard let object, let input else { return keyPathSource() }
                object[keyPath: keyPathSource()] = input
                return nil
            }
        }

        /// Stores the subscription and requests `.unlimited` (cancels it if one is already stored, or the
        /// subscriber has ended).
        @inlinable
        public func receive(subscription: any Subscription) {
            if SinkStatus.store(subscription, status: status, upstream: &upstream) { subscription.request(.unlimited) }
        }

        /// Assigns the value.
        @inlinable
        public func receive(_ input: Input) -> Subscribers.Demand {
            let access = self.access
            read { object in _ = access(object, input) }
            return .none
        }

        /// Releases the object.
        @inlinable
        public func receive(completion: Subscribers.Completion<Never>) {
            let previous = status.exchange(SinkStatus.terminal, ordering: .acquiringAndReleasing)
            guard previous != SinkStatus.terminal else { return }
            if previous == SinkStatus.subscribed { upstream.clear() }
            release()
        }

        /// Cancels upstream and releases the object.
        @inlinable
        public func cancel() {
            let previous = status.exchange(SinkStatus.terminal, ordering: .acquiringAndReleasing)
            guard previous != SinkStatus.terminal else { return }
            release()
            if previous == SinkStatus.subscribed { upstream.take().cancel() }  // moved out, not copied
        }

        /// Runs `body` on the object unless it has been released (then returns `nil`), as a counted reader.
        @inlinable
        func read<Result>(_ body: (Root) -> Result) -> Result? {
            var current = readers.load(ordering: .relaxed)
            while true {
                guard current & AssignReaders.releasing == 0 else { return nil }
                let (entered, found) = readers.weakCompareExchange(
                    expected: current, desired: current &+ 1, successOrdering: .acquiring, failureOrdering: .relaxed)
                if entered { break }
                current = found
            }
            let result = target.map(body)
            if readers.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == AssignReaders.releasing {
                releaseTarget()  // the last reader out after a release was asked for
            }
            return result
        }

        /// Asks for the object to be let go: now if nobody is reading it, else by the last reader out.
        @inlinable
        func release() {
            if readers.bitwiseOr(AssignReaders.releasing, ordering: .acquiringAndReleasing).oldValue == 0 {
                releaseTarget()
            }
        }

        @usableFromInline
        func releaseTarget() {
            let released = target.take()
            _ = released
        }

        /// `Assign`.
        public var description: String { "Assign" }
    }
}

extension Subscribers.Assign: CustomReflectable {
    /// The object (`nil` once released) and the key path, as in Combine; not the subscriber's atomics and closures.
    public var customMirror: Mirror {
        Mirror(self, children: ["object": object as Any, "keyPath": keyPath], displayStyle: .class)
    }
}

/// The flag in ``Subscribers/Assign``'s `readers` count.
@usableFromInline
enum AssignReaders {
    @usableFromInline static let releasing: UInt32 = 1 << 31
}

extension Publisher where Failure == Never {
    /// Assigns each value to `keyPath` on `object`.
    ///
    /// ```swift
    /// let c = subject.assign(to: \.title, on: model)
    /// ```
    @inlinable
    @inline(__always)  // where the key path is a literal: see `Subscribers.Assign.init(object:keyPath:)`
    public func assign<Root>(
        to keyPath: consuming ReferenceWritableKeyPath<Root, Output>, on object: Root
    ) -> AnyCancellable {
        let assign = Subscribers.Assign(object: object, keyPath: keyPath)
        subscribe(assign)
        return ObjectCancellable(assign)
    }
}
