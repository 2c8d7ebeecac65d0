#if canImport(Observation)
    import Observation

    /// The state of an `@Observable` model as a publisher: the value a closure reads now, then the value it reads
    /// after every change to an observable property it read.
    ///
    /// Spelled `Observed(on: scheduler) { model.query }`, or `Observed { model.query }` for a model isolated to
    /// the main actor. The closure may read several properties (`"\(model.first) \(model.last)"`), and
    /// models nested in one another: a change to any property it read last time is a change.
    ///
    /// How it works: the closure runs inside `withObservationTracking`, whose `onChange` fires once, on the
    /// first change to a property read — on *willSet*, on the mutating thread, before the property holds the
    /// new value. Reading there would see the old value, so `onChange` only schedules a re-read on
    /// `scheduler`; the re-read runs the closure again (seeing the change) inside a new
    /// `withObservationTracking`, which re-arms tracking, and publishes what it read.
    ///
    /// - Threading: `scheduler` must be the model's own serial context — the thread, queue or actor that
    ///   mutates it (`.mainActor` for a `@MainActor` model, the serial queue that owns it, a `TestScheduler` in
    ///   tests). Then the re-read runs after the mutation that triggered it has finished, and never races a
    ///   mutation. The first value is read synchronously during `subscribe`, on the subscribing thread: subscribe
    ///   from that context too. Every later read runs on `scheduler`.
    /// - Delivery: serial. Values are delivered on the thread that read them (the subscribing thread, then
    ///   `scheduler`), or on the thread whose `request` finds a value waiting; one delivery at a time, never
    ///   nested (a `request` from inside `receive(_:)` is served after it returns), never under a lock.
    /// - Coalescing: changes made before the scheduled re-read runs (several properties set in one turn)
    ///   give one value, read after all of them. Every change that triggers a re-read gives a value, even when
    ///   it is equal to the previous one: add `removeDuplicates()` to drop those.
    /// - Demand: the current value is delivered once the subscriber has demand; while it has none, only the
    ///   newest value read is kept (tracking goes on) and delivered when demand arrives, as with
    ///   ``CurrentValueSubject``.
    /// - Completion: never completes; a value cannot fail (`Failure == Never`).
    /// - Cancellation: `cancel()` stops tracking — a re-read already scheduled does nothing, nothing reaches the
    ///   subscriber afterwards (a delivery already running on another thread may finish) — and releases the
    ///   closure, so the subscription no longer retains the model. (The model's registrar may keep a
    ///   disarmed `onChange` entry, holding no reference to the model or the subscription, until its next
    ///   change.)
    /// - Each subscription reads and tracks on its own; the publisher is a cheap value holding the closure.
    ///
    /// ```swift
    /// @Observable final class Search: @unchecked Sendable { var query = "" }  // confined to `queue`
    /// let search = Search()
    /// let c = Observed(on: queue) { search.query }
    ///     .sink { print("query:", $0) }   // query: (empty)
    /// queue.schedule { search.query = "swift" }   // then, on `queue`: query: swift
    /// ```
    @available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *)
    public struct Observed<Output: Sendable>: Publisher {
        /// Never fails.
        public typealias Failure = Never

        /// Reads the model; run inside `withObservationTracking` for every value.
        let read: @Sendable () -> Output
        /// Schedules a re-read on the model's context.
        let schedule: @Sendable (@escaping @Sendable () -> Void) -> Void

        /// Publishes what `read` returns now and after every change to an observable property it read,
        /// re-reading on `scheduler` (see the type's documentation for the contract).
        ///
        /// ```swift
        /// let names = Observed(on: queue) { "\(person.first) \(person.last)" }
        /// ```
        ///
        /// - Parameters:
        ///   - scheduler: The model's own serial context: where the closure runs again after each change.
        ///   - read: Reads the model's observable properties; called on the subscribing thread for the first
        ///     value, then on `scheduler`.
        public init<Context: Scheduler>(on scheduler: Context, _ read: @escaping @Sendable () -> Output) {
            self.read = read
            schedule = { action in scheduler.schedule(action) }
        }

        /// Publishes what `read` returns now and after every change, for a model isolated to the main actor:
        /// `Observed(on: .mainActor, read)` with a `@MainActor` closure.
        ///
        /// Subscribe on the main actor: the first value is read during `subscribe`, and the closure is
        /// called inside `MainActor.assumeIsolated`, which stops the program if it is not on the main actor.
        /// Re-reads are scheduled on ``MainActorScheduler`` and so run on the main actor after the mutation's
        /// turn; values are delivered there.
        ///
        /// ```swift
        /// @MainActor @Observable final class Editor { var text = "" }
        /// let editor = Editor()
        /// let c = Observed { editor.text.count }.sink { print("length:", $0) }
        /// editor.text = "abc"   // length: 3, on a later turn of the main actor
        /// ```
        ///
        /// - Parameter read: Reads the model's observable properties, on the main actor.
        public init(_ read: @escaping @MainActor @Sendable () -> Output) {
            self.init(on: MainActorScheduler.shared) { MainActor.assumeIsolated(read) }
        }

        /// Attaches `subscriber`, reads the current value (delivered when demanded) and starts tracking.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            ObservedSubscription(read: read, schedule: schedule, downstream: subscriber).start()
        }
    }

    /// What the `onChange` and scheduled re-read closures call: an ``ObservedSubscription`` seen without its
    /// generic parameters (a closure capturing the subscription itself would capture `Downstream`'s metatype,
    /// which need not be `Sendable`).
    @available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *)
    protocol ObservedTracking: AnyObject, Sendable {
        /// A property read last time is about to change (willSet, on the mutating thread).
        func changed()
        /// Reads the model again, re-arms tracking and publishes the value.
        func track()
    }

    /// One subscription to an ``Observed``: the closure, the newest unsent value, the demand and the downstream.
    ///
    /// Every mutable field is in `state`, under its lock; `schedule` is immutable. The downstream is called
    /// outside the lock, by one deliverer at a time (`delivering`).
    @available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *)
    final class ObservedSubscription<Output: Sendable, Downstream: Subscriber>: Subscription, ObservedTracking,
        CustomStringConvertible, Sendable
    where Downstream.Input == Output, Downstream.Failure == Never {
        struct State {
            /// `nil` once cancelled: nothing more is delivered.
            var downstream: Downstream?
            /// `nil` once cancelled: the model is no longer retained or read.
            var read: (@Sendable () -> Output)?
            /// Requested and not yet delivered.
            var demand = Subscribers.Demand.none
            /// The newest value read and not yet delivered.
            var pending: Output?
            /// A thread is calling the downstream's `receive(_:)`; others leave the value to it.
            var delivering = false
            /// Reads started, and the number of the read whose value is pending or was delivered last: a read
            /// that finishes after a later one (a subscription made off the model's context) is dropped.
            var readsStarted = 0
            var latestStored = 0
        }

        let state: Locked<State>
        let schedule: @Sendable (@escaping @Sendable () -> Void) -> Void

        init(
            read: @escaping @Sendable () -> Output,
            schedule: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
            downstream: Downstream
        ) {
            state = Locked(State(downstream: downstream, read: read))
            self.schedule = schedule
        }

        var description: String { "Observed" }

        /// Hands the subscription to the downstream, then reads the current value and starts tracking.
        func start() {
            state.withLock { $0.downstream }?.receive(subscription: self)
            track()
        }

        func track() {
            let started = state.withLock { state -> (read: @Sendable () -> Output, number: Int)? in
                guard let read = state.read else { return nil }
                state.readsStarted += 1
                return (read, state.readsStarted)
            }
            guard let (read, number) = started else { return }
            let target: any ObservedTracking = self
            let value = withObservationTracking(read, onChange: { [weak target] in target?.changed() })
            let live = state.withLock { state -> Bool in
                guard state.downstream != nil, number > state.latestStored else { return false }
                state.latestStored = number
                state.pending = value
                return true
            }
            if live { drain() }
        }

        func changed() {
            guard state.withLock({ $0.read != nil }) else { return }
            let target: any ObservedTracking = self
            schedule { [weak target] in target?.track() }
        }

        func request(_ demand: Subscribers.Demand) {
            guard demand > .none else { return }
            let live = state.withLock { state -> Bool in
                guard state.downstream != nil else { return false }
                state.demand += demand
                return true
            }
            if live { drain() }
        }

        func cancel() {
            let (downstream, read) = state.withLock { state in
                defer {
                    state.downstream = nil
                    state.read = nil
                    state.pending = nil
                    state.demand = .none
                }
                return (state.downstream, state.read)
            }
            // Released here, outside the lock (a delivery running on another thread holds its own reference).
            _ = (downstream, read)
        }

        /// Delivers the pending value while there is demand, unless another thread is delivering (it will).
        func drain() {
            var next = state.withLock { $0.claimDelivery() }
            while let (downstream, value) = next {
                let more = downstream.receive(value)
                next = state.withLock { state in
                    state.delivering = false
                    guard state.downstream != nil else { return nil }
                    state.demand += more
                    return state.claimDelivery()
                }
            }
        }
    }

    @available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *)
    extension ObservedSubscription.State {
        /// The downstream and the value to deliver now, with one unit of demand taken and `delivering` set; `nil`
        /// if cancelled, nothing is pending, there is no demand, or another thread is delivering.
        mutating func claimDelivery() -> (Downstream, Output)? {
            guard !delivering, let downstream, demand > .none, let value = pending else { return nil }
            pending = nil
            demand -= 1
            delivering = true
            return (downstream, value)
        }
    }
#endif
