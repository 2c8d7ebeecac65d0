import Synchronization

extension Publishers {
    /// A publisher that emits the elements of a sequence, then finishes.
    ///
    /// - Demand: elements are produced lazily, only as requested; requesting more from inside
    ///   `receive(_:)` continues the same loop (no recursion, so any length is safe).
    /// - Cancellation: stops before the next element; the iterator is released.
    /// - Threading: delivers on the thread that calls `request(_:)`.
    /// - Operators: as in Combine, most operators applied directly to it (`map`, `filter`, `collect`, `reduce`,
    ///   `count`, …) are eager overloads that run over the whole sequence at once and return a sequence, a
    ///   `Result.Publisher` or an `Optional.Publisher`; `prefix(_:)` and `dropFirst(_:)` stay lazy. Put
    ///   `eraseToAnyPublisher()` first to stream an endless sequence through them.
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

/// Emits the elements of a sequence as demanded, then finishes: backs `Sequence.publisher`.
///
/// It looks one element ahead, so `.finished` follows the last element at once (even with no demand
/// left), and an empty sequence finishes right after the subscription, as in Combine.
///
/// No lock. Requests and a cancel may come from any thread, at once; each records itself (demand in `requested`,
/// the cancel in `isCancelled`) and then counts itself into `work`. The call that finds `work` at zero becomes the
/// *emitter*: it alone touches the iterator, the upcoming element and the subscriber, and it keeps emitting until it
/// has counted off every call that came meanwhile (each may have added demand or cancelled), so none is lost. A
/// value's demand costs one compare-and-swap, and once demand is unlimited a value costs one atomic load (to see a
/// cancel). Once the stream has finished or been cancelled, `work` never returns to zero: later calls do nothing.
///
/// The subscriber and the upcoming element are kept in ``OptionalSlot`` fields (`HeldDownstream` is `Downstream?`,
/// `Upcoming` is `Values.Element?`): `request(_:)`, `cancel()` and `deinit` run unspecialised, and an `Optional`
/// stored property would cost them a runtime metadata lookup each.
@usableFromInline
final class ValuesSubscription<
    Values: Sequence, Downstream: Subscriber, HeldDownstream: OptionalSlot, Upcoming: OptionalSlot
>: Subscription, HoldsDownstreamInSlot, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Values.Element, HeldDownstream.Wrapped == Downstream, Upcoming.Wrapped == Values.Element {
    /// Used in `init`, then only by the emitter (the call that moved `work` from zero), which `work`'s
    /// read-modify-writes hand over from thread to thread (`@exclusivity(unchecked)`: one emitter at a time).
    @usableFromInline
    @exclusivity(unchecked)
    var iterator: Values.Iterator
    /// The element to deliver next (``upcoming``); `nil` once taken for the last time. Owned by the emitter, like
    /// `held` (`start()` reads them before the subscription is handed out).
    @usableFromInline
    @exclusivity(unchecked)
    var heldUpcoming: Upcoming
    /// The subscriber (``HoldsDownstreamInSlot/downstream``), `nil` once finished or cancelled. Owned by the emitter.
    @usableFromInline
    @exclusivity(unchecked)
    var held: HeldDownstream
    /// The outstanding demand, as `Subscribers.Demand`'s raw value (`UInt.max`: unlimited); only the emitter
    /// takes from it.
    @usableFromInline
    let requested = Atomic<UInt>(0)
    /// Requests and cancels not yet seen by the emitter (see the type's notes): atomic, acquiring and releasing.
    @usableFromInline
    let work = Atomic<Int>(0)
    /// Set by `cancel()` before it counts itself into `work`; the emitter checks it before each value.
    @usableFromInline
    let isCancelled = Atomic<Bool>(false)
    /// Runs ``emit()``: made in `init`, which is specialised in client code. `request(_:)` and `cancel()` are
    /// reached through `any Subscription`, whose witness is the unspecialised generic body; calling `emit()`
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
        requested.addDemand(more)
        countIn()
    }

    @inlinable
    func cancel() {
        isCancelled.store(true, ordering: .relaxed)
        countIn()
    }

    /// Counts one call into `work`; the call that finds it at zero becomes the emitter.
    @inlinable
    func countIn() {
        guard work.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 else { return }
        emitSpecialised(self)
    }

    /// The emitter's loop: delivers while there is demand, then counts off the calls it has seen; it stops when no
    /// call came meanwhile, or for good at the end of the sequence or on a cancel.
    @inlinable
    func emit() {
        var seen = 1
        while true {
            while let downstream {
                guard !isCancelled.load(ordering: .relaxed) else { return release() }
                let wanted = requested.load(ordering: .relaxed)
                guard wanted > 0, let element = upcoming else { break }
                if wanted == .max { return emitUnlimited(from: element, to: downstream) }
                requested.takeOneDemand()
                let more = downstream.receive(element)
                if more > .none { requested.addDemand(more) }
                upcoming = iterator.next()
                if upcoming == nil { return finish(downstream) }
            }
            seen = work.wrappingSubtract(seen, ordering: .acquiringAndReleasing).newValue
            if seen == 0 { return }
        }
    }

    /// The loop once demand is `.unlimited` (it stays so): one atomic load per value, to see a cancel. Demand
    /// returned by `receive(_:)` cannot change anything any more. Never counts off: `work` stays above zero.
    @inlinable
    func emitUnlimited(from first: Values.Element, to downstream: Downstream) {
        upcoming = nil
        var element = first
        while true {
            guard !isCancelled.load(ordering: .relaxed) else { return release() }
            _ = downstream.receive(element)
            guard let following = iterator.next() else { return finish(downstream) }
            element = following
        }
    }

    /// The sequence is exhausted (the emitter's call): `.finished` at once, unless the subscriber has cancelled.
    @inlinable
    func finish(_ downstream: Downstream) {
        self.downstream = nil
        guard !isCancelled.load(ordering: .relaxed) else { return }
        downstream.receive(completion: .finished)
    }

    /// Cancelled (the emitter's call): lets go of the subscriber and the upcoming element.
    @inlinable
    func release() {
        downstream = nil
        upcoming = nil
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
