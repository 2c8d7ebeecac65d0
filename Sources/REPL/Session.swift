import Features
import Foundation
import Streams

/// The REPL as a stream transformer: input lines in; view-model inputs, and output lines out.
///
/// - Lines: a line starting with `:` is a command (see ``CommandHelp``); a blank line is ignored; any other
///   line is a search text sent to `ProductSearchViewModel.search(_:)`, so lines typed or piped quickly are
///   debounced (500 ms) into one search for the last text.
/// - Order: lines run in order. A search line runs at once; a command (or a line that cannot be understood)
///   waits until earlier work has settled — the search and its answer, a page, a fetch, a list — so a script's
///   `:next` pages the results of the line before it, and output never interleaves. A command does not wait out
///   the debounce: when it comes after a search still being debounced, the search runs at once
///   (`ProductSearchViewModel.submit()`), so a script of 10,000 mixed lines runs in seconds.
/// - Interactive mode (``typing(_:)``): each edit of the line being typed feeds the search view model's
///   debounce; the results of what is typed are published as ``OutputLine/live(_:)`` lines, replaced as they
///   change. ``interrupt()`` cancels what is in flight; ``quit()``, `:quit` and Ctrl-D end at once, cancelling
///   requests in flight. ``completions(for:)`` completes commands and their arguments.
/// - Time limits: every request fails with a timeout after `timeout` (which cancels it), and a command waits
///   at most `timeout` for its answer, then says so and goes on.
/// - Failures: every `.error` line counts (``failureCount``); with `bail` the session stops reading at the first
///   and ends once pending work has settled. Piped `streams-repl` exits 1 when ``hadFailure``.
/// - Output: ``output`` publishes ``OutputLine``s: results on `.output`, problems on `.error` (the session
///   goes on), and in interactive mode a banner, a `.prompt` whenever the session waits for input, and state
///   lines ("searching…"). Piped (not interactive): only results and errors, so scripts see stable output.
///   Every line is escaped for the terminal (``TerminalText``): text from the server, the store or the input
///   shows control characters and bidirectional overrides as `\u{XX}`, never acts on them.
/// - End: when the input finishes (or `:quit` runs in piped mode), the session finishes pending work — the last debounced
///   search and its answer, requests in flight (store writes are synchronous) — then ``output`` finishes.
///   ``isIdle`` tells whether everything has settled.
/// - Threading: input, view-model outputs and timers are all received on `scheduler` (`receive(on:)`), so the
///   session runs serially there; ``output`` is published on `scheduler`. Use a serial scheduler (a serial
///   `DispatchQueue`, or a `TestScheduler` in tests). State is kept under a lock; nothing is called out
///   while holding it.
///
/// ```swift
/// let session = try Session(input: lines, store: store, scheduler: DispatchQueue(label: "repl"))
/// let printing = session.output.sink(receiveCompletion: { _ in exit(0) }) { print($0) }
/// session.start()
/// ```
public final class Session: @unchecked Sendable {
    /// The interactive prompt.
    public static let prompt = "> "

    private let store: FeatureStore
    private let scheduler: any Scheduler
    private let clients: ClientFactory
    private let isInteractive: Bool
    private let input: AnyPublisher<InputLine, Never>
    private let state = Locked(SessionState())
    private let viewModels: Locked<ViewModelSet>
    private let outputSubject = PassthroughSubject<OutputLine, Never>()
    private let idleSubject = CurrentValueSubject<Bool, Never>(true)
    private let inputSubscription = Locked<AnyCancellable?>(nil)
    private let viewModelSubscriptions = Locked<[String: AnyCancellable]>([:])
    private let timeout: Duration
    private let bail: Bool
    /// The search pipeline's trace (`:trace on|off`): always attached, recording only while on.
    let searchTrace: TraceLog
    /// The latest wait of each command (`:fetch`, `:prices`…), so an old wait's deadline ignores a newer wait.
    private let answerWaits = Locked<[String: Int]>([:])

    /// How long a request, and a command waiting for its answer, may take by default: 5 s (`--timeout`).
    public static let defaultTimeout: Duration = .seconds(5)

    /// A session reading `input`, keeping favourites, basket and count in `store`, timing on `scheduler`,
    /// with its data from `source`.
    ///
    /// - Parameters:
    ///   - input: the lines to run; finishing it ends the session once pending work has settled.
    ///   - store: where the count, favourites and basket are kept (shared by every source).
    ///   - scheduler: where the session runs and the view models time debounces, timeouts and retries; serial.
    ///   - source: the data source to start with (`:source` changes it).
    ///   - isInteractive: whether a person types (stdin is a terminal): adds the banner, the prompt and
    ///     state lines.
    ///   - clients: makes the network client of each source.
    ///   - timeout: how long each request may take (then it is cancelled and fails with a timeout), and how long
    ///     a command (`:fetch`, `:prices`, `:refresh`, `:users`) waits for its answer on `scheduler` (then it
    ///     prints one line saying no answer came, cancels the request and the session goes on). Retries of the
    ///     price list fit in the same wait.
    ///   - bail: stop reading at the first problem (`.error` line), as `--bail` asks.
    /// - Throws: when the client for `source` cannot be made (e.g. the bundled data is unreadable): a fatal
    ///   error, nothing can work.
    public init(
        input: some Publisher<InputLine, Never>, store: FeatureStore, scheduler: any Scheduler,
        source: DataSource = .local, isInteractive: Bool = false, clients: ClientFactory = .live,
        timeout: Duration = Session.defaultTimeout, bail: Bool = false
    ) throws {
        self.timeout = timeout
        self.bail = bail
        self.input = input.eraseToAnyPublisher()
        self.store = store
        self.scheduler = scheduler
        self.clients = clients
        self.isInteractive = isInteractive
        let trace = TraceLog()
        trace.isRecording = false
        searchTrace = trace
        viewModels = Locked(
            try ViewModelSet(
                source: source, clients: clients, store: store, scheduler: scheduler, requestTimeout: timeout,
                trace: trace))
    }

    deinit {
        inputSubscription.withLock { $0 }?.cancel()
        for subscription in viewModelSubscriptions.withLock({ $0.values }) { subscription.cancel() }
    }

    /// The lines to print, in order, on `scheduler`; finishes when the session has ended. Subscribe before
    /// ``start()``: lines published before a subscriber arrives are not replayed.
    public var output: AnyPublisher<OutputLine, Never> { outputSubject.eraseToAnyPublisher() }

    /// Whether everything has settled: no line waiting, no search debouncing or loading, no request in
    /// flight. Publishes the current value on subscription, then each change.
    public var isIdle: AnyPublisher<Bool, Never> { idleSubject.removeDuplicates().eraseToAnyPublisher() }

    /// The data source in use.
    public var source: DataSource { viewModels.withLock { $0.source } }

    /// How many problems were reported so far (each `.error` line counts once).
    public var failureCount: Int { state.withLock { $0.failureCount } }

    /// Whether any problem was reported (piped `streams-repl` then exits 1).
    public var hadFailure: Bool { failureCount > 0 }

    /// How long a request and a command's wait for its answer may take.
    var requestTimeout: Duration { timeout }

    /// Starts: prints the banner (interactive), subscribes to the view models and then to the input.
    public func start() {
        if isInteractive {
            let directory = store.fileURL.deletingLastPathComponent().path
            emit([
                .output("\(REPLOptions.versionLine) — data: \(source), store: \(directory)"),
                .output("Type a search, or :help for the commands; :quit or Ctrl-D to leave."),
            ])
        }
        subscribe(to: viewModels.withLock { $0 })
        let subscription = input.receive(on: scheduler).sink(
            receiveCompletion: { [weak self] _ in self?.inputFinished() },
            receiveValue: { [weak self] line in self?.received(line) })
        inputSubscription.withLock { $0 = subscription }
        scheduleTurn()
    }

    // MARK: Input

    private func received(_ line: InputLine) {
        state.withLock { state in
            guard !state.inputEnded else { return }
            state.pending.append(line)
            state.isPromptShown = false
        }
        scheduleTurn()
    }

    private func inputFinished() {
        state.withLock { $0.inputEnded = true }
        scheduleTurn()
    }

    /// Runs the next line if it may run now, then decides whether to prompt or end. One line per turn, so the
    /// states a line causes are received (they are queued on the scheduler first) before the next line runs.
    /// Schedules a turn (for extensions: after a change that may let a line run or the session end).
    func requestTurn() {
        scheduleTurn()
    }

    private func scheduleTurn() {
        let schedule = state.withLock { state -> Bool in
            guard !state.isTurnScheduled, !state.hasEnded else { return false }
            state.isTurnScheduled = true
            return true
        }
        if schedule { scheduler.schedule { [weak self] in self?.turn() } }
    }

    private func turn() {
        enum Step {
            case run(InputLine)
            case end
            case prompt
            case wait
            /// A command (or the end of the input) waits for a search still being debounced: search now.
            case submitSearch
        }
        let step = state.withLock { state -> Step in
            state.isTurnScheduled = false
            // A search line runs at once, so a burst of them is debounced into one search, unless an answer
            // to an earlier command is awaited (its output comes first: output keeps the order of the lines).
            if let line = state.pending.first, state.isSettled || runsAtOnce(line, state) {
                state.pending.removeFirst()
                return .run(line)
            }
            if !state.isQuitting, !state.isSearchSettled, !state.pending.isEmpty || state.inputEnded {
                return .submitSearch
            }
            guard state.isIdle else { return .wait }
            if state.inputEnded {
                guard !state.hasEnded else { return .wait }
                state.hasEnded = true
                return .end
            }
            guard isInteractive, !state.isPromptShown else { return .wait }
            state.isPromptShown = true
            return .prompt
        }
        switch step {
        case .run(let line):
            run(line)
            scheduleTurn()
        case .end:
            publishIdle()
            inputSubscription.withLock { $0 }?.cancel()
            outputSubject.send(completion: .finished)
        case .prompt:
            emit([.prompt(Self.prompt)])
        case .wait:
            break
        case .submitSearch:
            // Searching the text typed so far now (an already searched text is not searched again).
            viewModels.withLock { $0 }.search.submit()
        }
        publishIdle()
    }

    /// Whether `line` runs without waiting for earlier work: search text and blank lines (unless a command's
    /// answer is awaited: its output comes first), and in interactive mode `:quit` (a person leaving does not
    /// wait for a hung server).
    private func runsAtOnce(_ line: InputLine, _ state: SessionState) -> Bool {
        guard case .text(let text) = line else { return false }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if !trimmed.hasPrefix(":") { return !state.isAwaitingAnswer }
        guard isInteractive, let command = try? CommandParser.parse(trimmed), case .command(.quit) = command
        else { return false }
        return true
    }

    private func run(_ line: InputLine) {
        let text: String
        switch line {
        case .unreadable(let reason):
            emit([.error(reason)])
            return
        case .text(let line):
            text = line
        }
        let parsed: ParsedLine
        do {
            parsed = try CommandParser.parse(text)
        } catch {
            state.withLock { $0.history.append(text) }
            emit([.error(error.message)])
            return
        }
        switch parsed {
        case .blank:
            return
        case .search(let search):
            state.withLock { state in
                state.history.append(text)
                state.typedText = search.trimmingCharacters(in: .whitespacesAndNewlines)
                state.isLiveHidden = false
            }
            let viewModel = viewModels.withLock { $0 }.search
            viewModel.search(search)
            if isInteractive {
                // Enter: the results go into the scrollback (now if shown already), and search at once.
                printSearchFromNow()
                viewModel.submit()
            }
        case .command(let command):
            state.withLock { $0.history.append(text) }
            execute(command)
        }
    }

    // MARK: View models

    /// Subscribes to the search and counter outputs of `set` (prices and users load when asked for).
    func subscribe(to set: ViewModelSet) {
        let search = set.search.state.receive(on: scheduler).sink { [weak self] next in
            self?.searchChanged(to: next)
        }
        let counter = set.counter.state.withPrevious().receive(on: scheduler).sink { [weak self] change in
            self?.changed { $0.counterChanged(from: change.previous, to: change.current, interactive: $1) }
        }
        replaceSubscriptions(["search": search, "counter": counter], removing: ["prices", "users"])
    }

    /// Subscribes to the price list (which starts loading it), unless subscribed already; returns whether it
    /// subscribed.
    func subscribeToPrices(of set: ViewModelSet) -> Bool {
        guard viewModelSubscriptions.withLock({ $0["prices"] == nil }) else { return false }
        let prices = set.prices.state.receive(on: scheduler).sink { [weak self] next in
            self?.changed { $0.pricesChanged(to: next, interactive: $1) }
        }
        replaceSubscriptions(["prices": prices], removing: [])
        return true
    }

    /// Subscribes to the users list (which starts loading it), unless subscribed already; returns whether it
    /// subscribed.
    func subscribeToUsers(of set: ViewModelSet) -> Bool {
        guard viewModelSubscriptions.withLock({ $0["users"] == nil }) else { return false }
        let users = set.users.state.receive(on: scheduler).sink { [weak self] next in
            self?.changed { $0.usersChanged(to: next, interactive: $1) }
        }
        replaceSubscriptions(["users": users], removing: [])
        return true
    }

    /// Whether the price list is subscribed to (so it has loaded, or is loading).
    var isSubscribedToPrices: Bool { viewModelSubscriptions.withLock { $0["prices"] != nil } }

    private func replaceSubscriptions(_ added: [String: AnyCancellable], removing removed: [String]) {
        let replaced = viewModelSubscriptions.withLock { subscriptions -> [AnyCancellable] in
            var old: [AnyCancellable] = []
            for key in removed + Array(added.keys) {
                if let subscription = subscriptions.removeValue(forKey: key) { old.append(subscription) }
            }
            subscriptions.merge(added) { _, new in new }
            return old
        }
        for subscription in replaced { subscription.cancel() }  // outside the lock
    }

    /// Marks the answer to `command` awaited (`awaiting` set) and bounds the wait: if it is still awaited
    /// ``answerTimeout`` later, it stops waiting, prints one line on `.error` and lets the next line run. A late
    /// answer is then recorded but not printed.
    func awaitAnswer(to command: String, _ awaiting: any WritableKeyPath<SessionState, Bool> & Sendable) {
        state.withLock { $0[keyPath: awaiting] = true }
        let wait = answerWaits.withLock { waits -> Int in
            waits[command, default: 0] += 1
            return waits[command, default: 0]
        }
        _ = scheduler.schedule(afterDelay: timeout) { [weak self] in
            self?.answerTimedOut(command, awaiting, wait: wait)
        }
    }

    private func answerTimedOut(_ command: String, _ awaiting: any WritableKeyPath<SessionState, Bool> & Sendable, wait: Int) {
        guard answerWaits.withLock({ $0[command] == wait }) else { return }
        let gaveUp = state.withLock { state -> Bool in
            guard state[keyPath: awaiting] else { return false }
            state[keyPath: awaiting] = false
            return true
        }
        guard gaveUp else { return }
        emit([.error(Self.noAnswer(to: command, after: timeout))])
        let set = currentViewModels
        switch command {
        case ":fetch": set.counter.cancel()
        case ":users": set.users.cancel()
        default: set.prices.cancel()
        }
        scheduleTurn()
    }

    /// The line printed when `command` got no answer within `timeout`, e.g. "no answer to :refresh within
    /// 5 s; going on without it (check that the server is running, or allow more time with --timeout)".
    static func noAnswer(to command: String, after timeout: Duration) -> String {
        let seconds = timeout.components.seconds + (timeout.components.attoseconds > 0 ? 1 : 0)
        return "no answer to \(command) within \(seconds) s; going on without it "
            + "(check that the server is running, or allow more time with --timeout)"
    }

    /// A new search state: printed as results lines (piped), or as the live lines under the input line
    /// (interactive).
    private func searchChanged(to next: SearchState) {
        let trace = traceLines()
        let (lines, live, settled) = state.withLock { state -> ([OutputLine], [String]?, Bool) in
            state.rememberBrands(of: next)
            if !isInteractive || state.isPrintingSearch {
                let lines = state.searchChanged(to: next, interactive: isInteractive)
                return (lines, nil, state.isSearchSettled)
            }
            _ = state.searchChanged(to: next, interactive: true)
            state.printedResults = nil  // shown live, not printed
            return ([], state.liveChange(trace: trace), false)
        }
        if let live { emit([.live(live)]) }
        emit(lines)
        // Printed results end with the timeline of the search that produced them (`:trace on`).
        if settled, !lines.isEmpty, !trace.isEmpty { emitTraceAndStartAnew() }
        scheduleTurn()
    }

    /// Applies a view-model change to the state, prints what it decides, and lets the next line run.
    private func changed(_ change: (inout SessionState, Bool) -> [OutputLine]) {
        let lines = state.withLock { change(&$0, isInteractive) }
        emit(lines)
        scheduleTurn()
    }

    // MARK: Helpers for commands

    /// The state, read or changed under the lock (never calling out).
    func withState<Result>(_ body: (inout SessionState) -> Result) -> Result {
        state.withLock(body)
    }

    /// The view models in use.
    var currentViewModels: ViewModelSet { viewModels.withLock { $0 } }

    /// Replaces the view models (for `:source`).
    func replaceViewModels(with set: ViewModelSet) {
        viewModels.withLock { $0 = set }
        subscribe(to: set)
    }

    /// The store.
    var featureStore: FeatureStore { store }

    /// The client factory.
    var clientFactory: ClientFactory { clients }

    /// The scheduler.
    var sessionScheduler: any Scheduler { scheduler }

    /// Whether the session is interactive.
    var interactive: Bool { isInteractive }

    /// Stops reading input: the session ends once pending work has settled (`:quit`).
    func stopReading() {
        state.withLock { state in
            state.inputEnded = true
            state.pending.removeAll()
        }
        let subscription = inputSubscription.withLock { $0 }
        subscription?.cancel()
    }

    /// Publishes lines (never under a lock): the one place every line leaves the session, so every line is
    /// escaped here (``OutputLine/escaped``) — product names, server messages, echoed input, stored favourites
    /// alike — and none can reach the terminal with a control sequence in it.
    func emit(_ lines: [OutputLine]) {
        let failures = lines.count { if case .error = $0 { true } else { false } }
        if failures > 0 {
            let first = state.withLock { state -> Bool in
                state.failureCount += failures
                return state.failureCount == failures
            }
            if bail, first { stopReading() }
        }
        for line in lines { outputSubject.send(line.escaped) }
    }

    private func publishIdle() {
        idleSubject.send(state.withLock { $0.isIdle && !$0.isTurnScheduled })
    }
}
