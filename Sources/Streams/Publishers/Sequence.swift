import Synchronization

extension Publishers {
    /// A publisher that emits the elements of a sequence, then finishes.
    ///
    /// - Demand: elements are produced lazily, only as requested; requesting more from inside
    ///   `receive(_:)` continues the same loop (no recursion, so any length is safe).
    /// - Cancellation: stops before the next element; the iterator is released.
    /// - Threading: delivers on the thread that calls `request(_:)`.
    ///
    /// ```swift
    /// let c = (1...3).publisher.sink { print($0) }   // 1 2 3
    /// ```
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        /// The element type.
        public typealias Output = Elements.Element

        /// The sequence published.
        public let sequence: Elements

        /// A publisher of `sequence`.
        @inlinable
        public init(sequence: Elements) { self.sequence = sequence }

        /// Attaches `subscriber`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            ValuesSubscription<Elements, S, S?, Output?>(values: sequence, downstream: subscriber).start()
        }
    }
}

extension Sequence {
    /// A publisher of this sequence's elements (see ``Publishers/Sequence``).
    ///
    /// ```swift
    /// let c = ["a", "b"].publisher.sink { print($0) }
    /// ```
    @inlinable
    public var publisher: Publishers.Sequence<Self, Never> { Publishers.Sequence(sequence: self) }
}

/// Emits the elements of a sequence as demanded, then finishes: backs `Just` and `Sequence.publisher`.
///
/// It looks one element ahead, so `.finished` follows the last element at once (even with no demand
/// left), and an empty sequence finishes right after the subscription, as in Combine. Shared across threads:
/// `iterator` is confined to the emitting thread, the other `var`s are guarded by `lock`.
///
/// The subscriber and the upcoming element are kept in ``OptionalSlot`` fields (`HeldDownstream` is `Downstream?`,
/// `Upcoming` is `Values.Element?`): `request(_:)`, `cancel()` and `deinit` run unspecialised, and an `Optional`
/// stored property would cost them a runtime metadata lookup each.
@usableFromInline
final class ValuesSubscription<
    Values: Sequence, Downstream: Subscriber, HeldDownstream: OptionalSlot, Upcoming: OptionalSlot
>: Subscription, HoldsDownstreamInSlot, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Values.Element, HeldDownstream.Wrapped == Downstream, Upcoming.Wrapped == Values.Element {
    @usableFromInline
    let lock = Lock()
    /// Used in `init`, then only by the emitting thread (the one that set `isEmitting`), without the lock.
    @usableFromInline
    @exclusivity(unchecked)
    var iterator: Values.Iterator
    /// The element to deliver next (``upcoming``); `nil` once the sequence is exhausted. Guarded by `lock`, like the
    /// `var`s below (`start()` uses them unlocked, before the subscription is handed out).
    @usableFromInline
    @exclusivity(unchecked)
    var heldUpcoming: Upcoming
    /// The subscriber (``HoldsDownstreamInSlot/downstream``), `nil` once finished or cancelled. Guarded by `lock`, like
    /// the `var`s below.
    @usableFromInline
    @exclusivity(unchecked)
    var held: HeldDownstream
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none
    @usableFromInline
    @exclusivity(unchecked)
    var isEmitting = false
    /// Set by `cancel()`; the unlimited-demand loop checks it instead of taking the lock per value.
    @usableFromInline
    let isCancelled = Atomic<Bool>(false)
    /// Runs ``emit()``: made in `init`, which is specialised in client code. `request(_:)` is reached
    /// through `any Subscription`, whose witness is the unspecialised generic body; calling `emit()`
    /// directly from there ran the per-value loop through generic metadata (~3× slower per value).
    @usableFromInline
    let emitSpecialised: (ValuesSubscription) -> Void

    @inlinable
    init(values: Values, downstream: Downstream) {
        iterator = values.makeIterator()
        heldUpcoming = nil
        held = HeldDownstream(holding: downstream)
        emitSpecialised = { $0.emit() }
        upcoming = iterator.next()
    }

    /// ``heldUpcoming`` as a plain `Optional`, for specialised code.
    @inlinable
    var upcoming: Values.Element? {
        get { heldUpcoming.wrapped }
        set { heldUpcoming.wrapped = newValue }
    }

    @usableFromInline
    var description: String { "Sequence" }

    /// Sends the subscription, or the completion at once for an empty sequence.
    @inlinable
    func start() {
        guard let downstream else { return }
        if upcoming == nil {
            self.downstream = nil
            downstream.receiveImmediateCompletion(.finished)
        } else {
            downstream.receive(subscription: self)
        }
    }

    @inlinable
    func request(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        lock.lock()
        guard !held.isNil else { return lock.unlock() }
        demand += more
        guard !isEmitting else { return lock.unlock() }
        isEmitting = true
        lock.unlock()
        emitSpecialised(self)
    }

    /// Runs on the one thread that set `isEmitting`; only that thread touches the iterator.
    @inlinable
    func emit() {
        while true {
            lock.lock()
            guard let downstream, demand > .none, let element = upcoming else {
                isEmitting = false
                return lock.unlock()
            }
            if demand == .unlimited {
                lock.unlock()
                return emitUnlimited(from: element, to: downstream)
            }
            demand -= 1
            lock.unlock()
            let more = downstream.receive(element)
            let following = iterator.next()
            lock.lock()
            upcoming = following
            if more > .none { demand += more }
            let live = self.downstream != nil
            if following == nil { self.downstream = nil }
            lock.unlock()
            if following == nil {
                if live { downstream.receive(completion: .finished) }
                return
            }
        }
    }

    /// The loop once demand is `.unlimited` (it stays so): no lock per value, one atomic load to see a
    /// cancel. Demand returned by `receive(_:)` cannot change anything any more.
    @inlinable
    func emitUnlimited(from first: Values.Element, to downstream: Downstream) {
        var element = first
        while true {
            guard !isCancelled.load(ordering: .acquiring) else {
                lock.lock()
                isEmitting = false
                return lock.unlock()
            }
            _ = downstream.receive(element)
            guard let following = iterator.next() else {
                lock.lock()
                upcoming = nil
                let live = self.downstream != nil
                self.downstream = nil
                lock.unlock()
                if live { downstream.receive(completion: .finished) }
                return
            }
            element = following
        }
    }

    @inlinable
    func cancel() {
        lock.lock()
        let released = held
        held = nil
        lock.unlock()
        isCancelled.store(true, ordering: .releasing)
        _ = released
    }
}

/// A mirror without children: the Swift runtime traps when it reflects a noncopyable stored property (an atomic)
/// of a generic class, which `dump` and test-failure messages would otherwise do.
extension ValuesSubscription: CustomReflectable {
    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: [:]) }
}

// Equal when their parts are equal, as in Combine.
extension Publishers.Sequence: Equatable where Elements: Equatable {}
