/// A publisher that eventually produces one result, shared by all its subscribers.
///
/// - Eager (as in Combine): the work starts when the future is created, not when someone subscribes;
///   the closure passed to `init` runs at once, inside `init`.
/// - The first call of the promise wins; later calls are ignored. The result is kept, so every
///   subscriber, now or later, receives the same result.
/// - Demand: a success is delivered to a subscriber once it has requested at least one value, followed
///   at once by `.finished`; a failure is delivered without waiting for demand. A result known while the
///   subscriber is in `receive(subscription:)` reaches it once that call returns (Combine delivers it inside the
///   request), so the subscriber is never called during its own subscription.
/// - Threading: a subscriber receives the result on the thread that fulfils the promise, or, if the
///   result is already known, on the thread that subscribes or requests. The result and the waiting
///   subscriptions are guarded by a lock.
/// - Retrying: since the result is kept, `retry` gets the same failure again; to run the work once per
///   subscription (and per retry), wrap it: `Deferred { Future { … } }`.
///
/// ```swift
/// let answer = Future<Int, Never> { promise in promise(.success(42)) }
/// let c = answer.sink { print($0) }   // 42
/// ```
public final class Future<Output, Failure: Error>: Publisher, @unchecked Sendable {
    /// The closure that fulfils a future. Call it once; later calls are ignored.
    public typealias Promise = @Sendable (Result<Output, Failure>) -> Void

    /// The result once known and the subscriptions waiting for it, guarded by the lock they share one heap object with
    /// (``Locked``: the state is its header). The unspecialised `deinit` then only releases that object, whose own
    /// `deinit` destroys the state as a value of its generic parameter; a `Result<Output, Failure>?` field of this
    /// class would cost the `deinit` two runtime metadata lookups, once per future (`flatMap { Future { … } }`).
    @usableFromInline
    let guarded = Locked(FutureState<Output, Failure>())

    /// Creates a future and runs `attemptToFulfill` at once, handing it the promise to call (now or
    /// later, from any thread).
    ///
    /// ```swift
    /// let f = Future<Data, LoadError> { promise in loader.load { promise($0) } }
    /// ```
    @inlinable
    public init(_ attemptToFulfill: (@escaping Promise) -> Void) {
        attemptToFulfill { [self] result in fulfil(result) }
    }

    /// Attaches `subscriber`; it gets the result (when known) once it has demand.
    @inlinable
    public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
        let subscription = FutureSubscription(future: self, downstream: subscriber)
        guarded.lock()
        let known = guarded.state.result
        if known == nil { guarded.state.waiting.append(subscription) }
        guarded.unlock()
        subscription.start(result: known)
    }

    @inlinable
    func fulfil(_ result: Result<Output, Failure>) {
        guarded.lock()
        guard guarded.state.result == nil else { return guarded.unlock() }
        guarded.state.result = result
        let targets = guarded.state.waiting
        guarded.state.waiting = []
        guarded.unlock()
        for subscription in targets { subscription.resolve(result) }
    }

    /// The value this future was fulfilled with, or `nil` if it has not been fulfilled yet or failed. What a
    /// subscriber would get now (once it asked for a value); read by `flatMap` and `switchToLatest` instead of
    /// subscribing (see ``ScalarPublisherKind``).
    @inlinable
    var fulfilledValue: Output? {
        guarded.lock()
        defer { guarded.unlock() }
        guard case .success(let value)? = guarded.state.result else { return nil }
        return value
    }

    @inlinable
    func remove(_ subscription: FutureSubscriptionBase<Output, Failure>) {
        guarded.lock()
        if let index = guarded.state.waiting.firstIndex(where: { $0 === subscription }) {
            guarded.state.waiting.remove(at: index)
        }
        guarded.unlock()
    }
}

extension Future where Failure == any Error {
    /// Creates a future that runs `operation` in a new `Task` at once and publishes its value or the
    /// error it throws.
    ///
    /// - Isolation: the task is unstructured and not isolated to any actor (it is started from this
    ///   non-isolated initialiser), so `operation` runs on the global concurrent executor unless it is
    ///   isolated itself (`Future { @MainActor in … }` runs on the main actor). Subscribers receive the result
    ///   from that task, on the thread that runs it, or at once on their own thread if it is already known.
    /// - Cancellation: the task is not cancelled when subscribers cancel: the result is kept for later
    ///   subscribers.
    ///
    /// See <doc:Concurrency>.
    ///
    /// ```swift
    /// let profile = Future { try await client.profile() }
    /// ```
    @inlinable
    public convenience init(operation: @escaping @Sendable () async throws -> Output) where Output: Sendable {
        self.init { promise in
            Task {
                do {
                    promise(.success(try await operation()))
                } catch {
                    promise(.failure(error))
                }
            }
        }
    }
}

extension Future where Failure == Never {
    /// Creates a future that runs `operation` in a new `Task` at once and publishes its value.
    ///
    /// - Isolation: as for the throwing form, `operation` runs in an unstructured, non-isolated task (on the
    ///   global concurrent executor unless it is itself isolated, e.g. `@MainActor in`), and subscribers receive
    ///   the value from that task.
    /// - Cancellation: the task is not cancelled when subscribers cancel: the result is kept for later
    ///   subscribers.
    ///
    /// ```swift
    /// let total = Future { await cart.total() }
    /// ```
    @inlinable
    public convenience init(operation: @escaping @Sendable () async -> Output) where Output: Sendable {
        self.init { promise in
            Task { promise(.success(await operation())) }
        }
    }
}

extension Future where Output: Sendable {
    /// The future's value, once it is fulfilled; throws its failure — Combine's `Future.value`.
    ///
    /// Waits for the promise, also when the calling task is cancelled (the future keeps running for its
    /// other subscribers); a fulfilled future answers at once.
    ///
    /// - Isolation: the getter is non-isolated; it subscribes, requests one value and suspends until the
    ///   promise is called, on whatever thread calls it. The awaiting code resumes in its own isolation (after
    ///   `await future.value` in a `@MainActor` function, on the main actor). See <doc:Concurrency>.
    ///
    /// ```swift
    /// let user = try await Future { try await api.user() }.value
    /// ```
    public var value: Output {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                subscribe(FutureValueSubscriber<Output, Failure> { continuation.resume(with: $0) })
            }
        }
    }
}

extension Future where Failure == Never, Output: Sendable {
    /// The future's value, once it is fulfilled — Combine's `Future.value` for a future that cannot fail.
    ///
    /// The same contract as the throwing form: waits for the promise even if the calling task is cancelled,
    /// and resumes the awaiting code in its own isolation.
    ///
    /// ```swift
    /// let total = await Future { await cart.total() }.value
    /// ```
    public var value: Output {
        get async {
            await withCheckedContinuation { continuation in
                subscribe(FutureValueSubscriber<Output, Never> { continuation.resume(with: $0) })
            }
        }
    }
}

/// Asks a future for its one value and hands over the result once. Sound as `@unchecked Sendable`: a
/// publisher calls a subscriber serially, and `resume` is set in `init` and called at most once (guarded
/// by `once`).
final class FutureValueSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    private let resume: (Result<Input, Failure>) -> Void
    private let once = OnceFlag()

    init(resume: @escaping (Result<Input, Failure>) -> Void) { self.resume = resume }

    func receive(subscription: any Subscription) { subscription.request(.max(1)) }

    func receive(_ input: Input) -> Subscribers.Demand {
        if once.set() { resume(.success(input)) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        if case .failure(let error) = completion, once.set() { resume(.failure(error)) }
    }
}

/// A ``Future``'s state, guarded by its lock.
@usableFromInline
struct FutureState<Output, Failure: Error> {
    /// The result, once the promise has been called.
    @usableFromInline
    var result: Result<Output, Failure>?
    /// The subscriptions waiting for the result.
    @usableFromInline
    var waiting: ContiguousArray<FutureSubscriptionBase<Output, Failure>> = []

    @inlinable
    init() {}
}

/// A future's subscription, erased over the downstream type so the future can keep a list of them. No state
/// of its own: the subclass guards its state with its `lock`.
@usableFromInline
class FutureSubscriptionBase<Output, Failure: Error>: @unchecked Sendable {
    @inlinable
    init() {}

    @inlinable
    func resolve(_ result: Result<Output, Failure>) { preconditionFailure("abstract") }
}

/// Delivers a future's result to one subscriber once it is known, the handshake is over, and (for a
/// success) the subscriber has demand. All its state is guarded by `lock`.
///
/// `request(_:)` and `cancel()` run as specialised code (see ``SpecialisedCall``); the subscriber and the result are
/// kept in ``OptionalSlot`` parameters (`HeldDownstream` is `Downstream?`, `HeldResult` is `Result<Output, Failure>?`),
/// so the unspecialised `deinit` destroys them without a metadata lookup.
@usableFromInline
final class FutureSubscription<Downstream: Subscriber, HeldDownstream: OptionalSlot, HeldResult: OptionalSlot>:
    FutureSubscriptionBase<Downstream.Input, Downstream.Failure>, Subscription, HoldsDownstreamInSlot,
    CustomStringConvertible, @unchecked Sendable
where HeldDownstream.Wrapped == Downstream, HeldResult.Wrapped == Result<Downstream.Input, Downstream.Failure> {
    @usableFromInline
    typealias Output = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let lock = Lock()
    // Guarded by `lock`. `downstream == nil` (``HoldsDownstreamInSlot/downstream``) means delivered or cancelled;
    // `heldResult` is ``result``.
    @usableFromInline
    @exclusivity(unchecked)
    var future: Future<Output, Failure>?
    @usableFromInline
    @exclusivity(unchecked)
    var held: HeldDownstream
    @usableFromInline
    @exclusivity(unchecked)
    var heldResult: HeldResult
    @usableFromInline
    @exclusivity(unchecked)
    var hasDemand = false
    @usableFromInline
    @exclusivity(unchecked)
    var isSubscribed = false
    /// The subscriber cancelled (checked after it received the value, before `.finished`). Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var isCancelled = false

    /// Runs `request(_:)` and `cancel()` as specialised code (see ``SpecialisedCall``). Immutable.
    @usableFromInline
    let specialised: (FutureSubscription, SpecialisedCall) -> Void

    @inlinable
    init(future: Future<Output, Failure>, downstream: Downstream)
    where HeldDownstream == Downstream?, HeldResult == Result<Output, Failure>? {
        self.future = future
        self.held = downstream
        heldResult = nil
        specialised = SpecialisedCall.forwarding()
    }

    /// ``heldResult`` as a plain `Optional`. Guarded by `lock`.
    @inlinable
    var result: Result<Output, Failure>? {
        get { heldResult.wrapped }
        set { heldResult.wrapped = newValue }
    }

    @usableFromInline
    var description: String { "Future" }

    /// Sends the subscription, then the result if it is already known and deliverable.
    @inlinable
    func start(result known: Result<Output, Failure>?) {
        lock.lock()
        let downstream = self.downstream
        lock.unlock()
        downstream?.receive(subscription: self)
        lock.lock()
        isSubscribed = true
        if let known { result = known }
        deliverIfReady()
    }

    @inlinable
    override func resolve(_ result: Result<Output, Failure>) {
        lock.lock()
        future = nil
        guard downstream != nil else { return lock.unlock() }
        self.result = result
        deliverIfReady()
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        specialised(self, .request(demand))
    }

    /// `request(_:)`'s body, specialised (see ``specialised``).
    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        lock.lock()
        guard downstream != nil else { return lock.unlock() }
        hasDemand = true
        deliverIfReady()
    }

    /// `cancel()`'s body, specialised (see ``specialised``).
    @inlinable
    func cancelNow() {
        lock.lock()
        let released = (downstream, future)
        downstream = nil
        future = nil
        result = nil
        isCancelled = true
        lock.unlock()
        released.1?.remove(self)
    }

    /// Lock held on entry, released on return; delivers at most once.
    @inlinable
    func deliverIfReady() {
        guard isSubscribed, let downstream, let result else { return lock.unlock() }
        if case .success = result, !hasDemand { return lock.unlock() }
        self.downstream = nil
        self.result = nil
        let future = self.future
        self.future = nil
        lock.unlock()
        _ = future
        switch result {
        case .success(let value):
            _ = downstream.receive(value)
            // Nothing after a cancel, even one from inside `receive(_:)`.
            if lock.withLock({ isCancelled }) { return }
            downstream.receive(completion: .finished)
        case .failure(let error):
            downstream.receive(completion: .failure(error))
        }
    }
}

// `request(_:)` and `cancel()` run `requestNow(_:)` and `cancelNow()` through `specialised`.
extension FutureSubscription: SpecialisedSubscription {}
