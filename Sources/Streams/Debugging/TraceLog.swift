/// One event a ``Publisher/trace(_:to:scheduler:)`` tap saw: which tap, which of its subscriptions, when, and
/// what.
///
/// ```swift
/// for event in log.events where event.kind == .cancel {
///     print(event.name, "cancelled at", event.time)
/// }
/// ```
public struct TraceEvent: Hashable, Sendable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Hashable, Sendable, CustomStringConvertible {
        /// The upstream's subscription arrived (it is passed on just after).
        case subscription
        /// The downstream called `request(_:)` with this demand.
        case request(Subscribers.Demand)
        /// The downstream returned this demand (never `.none`) from receiving a value.
        case synchronousRequest(Subscribers.Demand)
        /// A value, as `String(describing:)`.
        case value(String)
        /// The upstream finished.
        case finished
        /// The upstream failed; the error's `String(describing:)`.
        case failure(String)
        /// The downstream cancelled (before any completion).
        case cancel

        /// As a timeline shows it: `subscribe`, `request(unlimited)`, `request(1)`,
        /// `request(1) (synchronous)`, `value "focus"`, `finished`, `failure "timed out"`, `cancel`.
        public var description: String {
            switch self {
            case .subscription: "subscribe"
            case .request(let demand): "request(\(Self.amount(demand)))"
            case .synchronousRequest(let demand): "request(\(Self.amount(demand))) (synchronous)"
            case .value(let value): "value \(String(reflecting: value))"
            case .finished: "finished"
            case .failure(let error): "failure \(String(reflecting: error))"
            case .cancel: "cancel"
            }
        }

        private static func amount(_ demand: Subscribers.Demand) -> String {
            demand.max.map { String($0) } ?? "unlimited"
        }
    }

    /// The tap's name, as given to ``Publisher/trace(_:to:scheduler:)``.
    public var name: String
    /// Which subscription of the tap: 1 for the first subscription recorded under ``name``, 2 for the next…
    public var subscription: Int
    /// When, from the log's ``TraceLog/origin``, on the tap's scheduler.
    public var time: Duration
    /// What happened.
    public var kind: Kind

    /// An event of tap `name`'s `subscription`, `time` after the log's origin.
    public init(name: String, subscription: Int = 1, time: Duration, kind: Kind) {
        self.name = name
        self.subscription = subscription
        self.time = time
        self.kind = kind
    }

    /// E.g. `keys: value "f" at 0.001 s`.
    public var description: String { "\(name): \(kind) at \(TraceText.seconds(time)) s" }
}

/// The events of any number of ``Publisher/trace(_:to:scheduler:)`` taps, each stamped with its scheduler's
/// time — shown as marble diagrams (the syntax StreamsTesting's `expectMarbles` reads) or as a timeline that
/// also shows demand and cancellation.
///
/// - Time: an event's ``TraceEvent/time`` is its scheduler's `now` minus ``origin``: the `origin` given to
///   ``init(origin:onEvent:)``, else the first event's time. Give all the taps of a log the same clock.
/// - Threading: thread-safe. Events are appended under a lock; `onEvent` runs on the event's thread, outside
///   the lock, before the event is passed on (so calls from different threads may overlap, and may arrive in
///   a different order than ``events`` lists them).
/// - Lifetime: a tap holds its log until its subscription ends; the log holds no tap.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let log = TraceLog()
/// let keys = try scheduler.hot("-a-b------c|")
/// let results = keys.trace("keys", to: log, scheduler: scheduler)
///     .debounce(for: scheduler.frames(3), scheduler: scheduler)
///     .trace("results", to: log, scheduler: scheduler)
///     .record(on: scheduler)
/// scheduler.run()
/// log.marbles(for: "results", frame: scheduler.frameDuration)   // "------b----(c|)"
/// print(log.marbleChart(frame: scheduler.frameDuration))
/// // keys     -a-b------c|
/// // results  ------b----(c|)
/// print(log.timeline(for: "results"))
/// //   0.000 s  subscribe
/// //   0.000 s  request(unlimited)
/// //   0.006 s  value "b"
/// //   0.011 s  value "c"
/// //   0.011 s  finished
/// ```
public final class TraceLog: Sendable, CustomStringConvertible {
    private struct State {
        var origin: SchedulerInstant?
        var events: [TraceEvent] = []
        /// How many subscriptions each name has had (kept by ``removeAll()``, so numbers stay unique).
        var subscriptionCounts: [String: Int] = [:]
        /// Whether events are recorded (see ``TraceLog/isRecording``).
        var isRecording = true
    }

    private let state: Locked<State>
    private let givenOrigin: SchedulerInstant?
    private let onEvent: (@Sendable (TraceEvent) -> Void)?

    /// An empty log.
    ///
    /// - Parameters:
    ///   - origin: the scheduler time that is time zero; `nil`: the first event's time.
    ///   - onEvent: called with each event once recorded, for live display — on the event's thread, outside
    ///     the log's lock, before the event is passed on. It must not block for long: the pipeline waits.
    ///
    /// ```swift
    /// let log = TraceLog { event in print(event) }   // keys: value "f" at 0.100 s
    /// ```
    public init(origin: SchedulerInstant? = nil, onEvent: (@Sendable (TraceEvent) -> Void)? = nil) {
        givenOrigin = origin
        state = Locked(State(origin: origin))
        self.onEvent = onEvent
    }

    /// The scheduler time that is time zero: the `origin` given at init, else the first event's; `nil` before
    /// the first event.
    public var origin: SchedulerInstant? { state.withLock { $0.origin } }

    /// Every event of every tap, in the order recorded.
    public var events: [TraceEvent] { state.withLock { $0.events } }

    /// The events of the taps named `name`, in the order recorded.
    public func events(for name: String) -> [TraceEvent] { events.filter { $0.name == name } }

    /// The taps' names, in the order of their first event.
    public var names: [String] {
        var seen = Set<String>()
        return events.compactMap { seen.insert($0.name).inserted ? $0.name : nil }
    }

    /// Whether events are recorded (`true` at first). While `false`, the taps pass everything on and the log
    /// records nothing and calls no `onEvent` (subscriptions are still numbered): a trace an app leaves in place
    /// and switches on when someone wants to look, at the cost of one lock per event.
    ///
    /// ```swift
    /// log.isRecording = false   // quiet
    /// log.removeAll()
    /// log.isRecording = true    // a fresh timeline from the next event
    /// ```
    public var isRecording: Bool {
        get { state.withLock { $0.isRecording } }
        set { state.withLock { $0.isRecording = newValue } }
    }

    /// Forgets every event (and the origin, unless one was given at init); subscriptions still going on keep
    /// recording, and numbering continues where it was.
    public func removeAll() {
        state.withLock {
            $0.events = []
            $0.origin = givenOrigin
        }
    }

    /// Appends an event of tap `name` at `now` and calls `onEvent`. A `nil` `subscription` (with
    /// `.subscription`) numbers a new subscription of `name`. Returns the subscription's number.
    @discardableResult
    func record(_ kind: TraceEvent.Kind, name: String, subscription: Int?, at now: SchedulerInstant) -> Int {
        let (event, number) = state.withLock { state -> (TraceEvent?, Int) in
            let number: Int
            if let subscription {
                number = subscription
            } else {
                number = (state.subscriptionCounts[name] ?? 0) + 1
                state.subscriptionCounts[name] = number
            }
            guard state.isRecording else { return (nil, number) }
            let origin = state.origin ?? now
            state.origin = origin
            let event = TraceEvent(name: name, subscription: number, time: now - origin, kind: kind)
            state.events.append(event)
            return (event, number)
        }
        if let event { onEvent?(event) }
        return number
    }

    /// Every event as one line, time first: `timeline(for:)` for all the taps, with their names.
    public var description: String { timeline() }
}

// MARK: - Marble diagrams

extension TraceLog {
    /// One subscription of tap `name` as a marble diagram, in exactly the syntax StreamsTesting's
    /// `expectMarbles` reads, with frame 0 at the subscription: fed back to `expectMarbles` for the same
    /// pipeline on a `TestScheduler` with this frame length, it matches.
    ///
    /// - Marks: a value is one character (see ``legend(for:)``), `|` finished, `#` failed; each takes one
    ///   frame, `-` is a frame with nothing. Several events in one frame are a group, `(ab)` or `(c|)`.
    ///   Requests and cancellation are not drawn (see `timeline(for:)`).
    /// - Symbols: when every value of `name` (over all its subscriptions) is described by one character that
    ///   a diagram reads as a value, that character; otherwise `a`, `b`, `c`… for each distinct description,
    ///   in order of appearance (then `A`…`Z`, then Greek letters).
    /// - Time: each event goes in the frame its time falls in (times are rounded down to whole frames); a gap
    ///   of more than 30 empty frames is written as a time progression such as ` 500ms ` between spaces. A
    ///   digit value that would start a word read as a time progression (`5` before `s`) is wrapped as `(5)`.
    ///
    /// ```swift
    /// log.marbles(for: "results", frame: scheduler.frameDuration)   // "------b----(c|)"
    /// ```
    ///
    /// - Parameters:
    ///   - name: the tap.
    ///   - frame: the length of one frame (a `TestScheduler`'s `frameDuration`); must be positive.
    ///   - subscription: which subscription (``TraceEvent/subscription``); `nil`: the first one in the log.
    /// - Returns: the diagram, or an empty string if nothing was recorded.
    public func marbles(for name: String, frame: Duration, subscription: Int? = nil) -> String {
        precondition(frame > .zero, "a frame must be longer than zero")
        let all = events(for: name)
        guard let number = subscription ?? all.first?.subscription else { return "" }
        let row = TraceRow(name: name, subscription: number, events: all.filter { $0.subscription == number })
        guard let start = row.start else { return "" }
        let symbols = TraceSymbols(of: all)
        return TraceMarbles.render(
            [row.marks(from: start, frame: frame, symbols: symbols, markSubscription: false)],
            frame: frame)[0]
    }

    /// What the value characters of tap `name`'s diagrams stand for, e.g. `a = "focus", b = "focused"`; an empty
    /// string when each value is drawn as its own one-character description.
    public func legend(for name: String) -> String {
        TraceSymbols(of: events(for: name)).legendText
    }

    /// The value character → value description table of tap `name`'s diagrams: the `values:` argument that
    /// lets `expectMarbles` read ``marbles(for:frame:subscription:)`` back for a `String` output (for another
    /// output type, map each description to its value).
    ///
    /// ```swift
    /// expectMarbles(pipeline, log.marbles(for: "results", frame: frame),
    ///               values: log.marbleValues(for: "results"), on: scheduler)
    /// ```
    public func marbleValues(for name: String) -> [Character: String] {
        let symbols = TraceSymbols(of: events(for: name))
        return Dictionary(symbols.table.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
    }

    /// Several taps on one time axis: one labelled, aligned marble row per subscription (a tap with several
    /// subscriptions gets a row for each, labelled `name (2)`…), then the legend (`where a = "f", …`) if any,
    /// its letters given in time order over all the rows.
    ///
    /// Frame 0 is the earliest subscription shown. A row whose subscription is later starts with a `^` there
    /// (its zero column). Each row, without its label, is a diagram `expectMarbles` reads; the symbols are shared
    /// by all rows (the rule of ``marbles(for:frame:subscription:)`` applied to all the values shown), so equal
    /// values have equal characters. Events of different rows in the same frame are in the same column; a
    /// group in one row widens the column in all rows (spaces take no time).
    ///
    /// ```swift
    /// print(log.marbleChart(for: ["keys", "results"], frame: .milliseconds(100)))
    /// // keys     -a-b------c|
    /// // results  ------b----(c|)
    /// // where a = "f", b = "fo", c = "foc"
    /// ```
    ///
    /// - Parameters:
    ///   - names: the taps, in row order; `nil`: every tap, in the order of their first event.
    ///   - frame: the length of one frame; must be positive.
    public func marbleChart(for names: [String]? = nil, frame: Duration) -> String {
        precondition(frame > .zero, "a frame must be longer than zero")
        let events = self.events
        let rows = TraceRow.rows(of: events, names: names)
        guard let start = rows.compactMap(\.start).min() else { return "" }
        let symbols = TraceSymbols(of: rows.flatMap(\.events))
        let diagrams = TraceMarbles.render(
            rows.map { $0.marks(from: start, frame: frame, symbols: symbols, markSubscription: true) }, frame: frame)
        let labels = TraceRow.labels(of: rows)
        let width = labels.map(\.count).max() ?? 0
        var lines = zip(labels, diagrams).map { label, diagram in
            TraceText.padded(label, to: width) + "  " + diagram
        }
        if !symbols.legend.isEmpty { lines.append("where " + symbols.legendText) }
        return lines.joined(separator: "\n")
    }
}

// MARK: - Timelines

extension TraceLog {
    /// Every event of tap `name`, one line each, with its time in seconds — including demand and cancellation:
    ///
    /// ```
    ///   0.000 s  subscribe
    ///   0.000 s  request(unlimited)
    ///   0.500 s  value "focus"
    ///   0.800 s  cancel
    /// ```
    ///
    /// Times are rounded down to the millisecond. Lines are in time order (equal times in the order
    /// recorded). When the tap had several subscriptions, each line also says which, as `name (2)`.
    public func timeline(for name: String) -> String {
        TraceText.timeline(TraceRow.rows(of: events, names: [name]), alwaysLabelled: false)
    }

    /// Every event of the taps `names` (`nil`: all of them), in time order, one line each with its time and
    /// its tap (`keys (2)` for a tap's later subscriptions), names aligned:
    ///
    /// ```
    ///   0.000 s  keys     subscribe
    ///   0.000 s  keys     request(unlimited)
    ///   0.001 s  keys     value "f"
    ///   0.004 s  results  value "f"
    /// ```
    public func timeline(for names: [String]? = nil) -> String {
        TraceText.timeline(TraceRow.rows(of: events, names: names), alwaysLabelled: true)
    }
}

// MARK: - Rendering helpers

extension TraceEvent {
    /// The value's description, for a value event.
    fileprivate var value: String? {
        if case .value(let value) = kind { value } else { nil }
    }
}

/// The events of one subscription of one tap, in time order.
private struct TraceRow {
    var name: String
    var subscription: Int
    var events: [TraceEvent]

    init(name: String, subscription: Int, events: [TraceEvent]) {
        self.name = name
        self.subscription = subscription
        self.events = Self.inTimeOrder(events)
    }

    /// The subscription's time (its first event's, if the subscription itself was removed).
    var start: Duration? {
        (events.first { $0.kind == .subscription } ?? events.first)?.time
    }

    /// Sorted by time, keeping the recorded order of equal times.
    static func inTimeOrder(_ events: [TraceEvent]) -> [TraceEvent] {
        events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// One row per subscription of each name (all names, in order of first event, when `names` is `nil`).
    static func rows(of events: [TraceEvent], names: [String]?) -> [TraceRow] {
        var order: [String] = []
        var subscriptions: [String: [Int]] = [:]
        var grouped: [String: [Int: [TraceEvent]]] = [:]
        for event in events {
            if grouped[event.name] == nil { order.append(event.name) }
            if grouped[event.name]?[event.subscription] == nil {
                subscriptions[event.name, default: []].append(event.subscription)
            }
            grouped[event.name, default: [:]][event.subscription, default: []].append(event)
        }
        var rows: [TraceRow] = []
        for name in names ?? order {
            for number in (subscriptions[name] ?? []).sorted() {
                rows.append(TraceRow(name: name, subscription: number, events: grouped[name]?[number] ?? []))
            }
        }
        return rows
    }

    /// Each row's label: its name, or `name (n)` when the name has several rows.
    static func labels(of rows: [TraceRow]) -> [String] {
        var counts: [String: Int] = [:]
        for row in rows { counts[row.name, default: 0] += 1 }
        return rows.map { (counts[$0.name] ?? 0) > 1 ? "\($0.name) (\($0.subscription))" : $0.name }
    }

    /// The row's marks, in frames from `start`: values, `|`, `#`, and (if `markSubscription` and it is not in
    /// frame 0) `^` at the subscription.
    func marks(from start: Duration, frame: Duration, symbols: TraceSymbols, markSubscription: Bool)
        -> [TraceMarbles.Mark]
    {
        events.compactMap { event in
            let index = TraceMarbles.frameIndex(of: event.time - start, frame: frame)
            switch event.kind {
            case .value(let value): return .init(frame: index, symbol: String(symbols.table[value] ?? "?"))
            case .finished: return .init(frame: index, symbol: "|")
            case .failure: return .init(frame: index, symbol: "#")
            case .subscription: return markSubscription && index > 0 ? .init(frame: index, symbol: "^") : nil
            case .request, .synchronousRequest, .cancel: return nil
            }
        }
    }
}

/// The character each value description is drawn as.
private struct TraceSymbols {
    /// Description → character.
    private(set) var table: [String: Character] = [:]
    /// The assigned characters in order, when they are not the descriptions themselves.
    private(set) var legend: [(Character, String)] = []

    /// The symbols of the values among `events`, taken in time order.
    init(of events: [TraceEvent]) {
        self.init(values: TraceRow.inTimeOrder(events).compactMap(\.value))
    }

    /// Each description as itself when all are one character a diagram reads as a value; else `a`, `b`, …
    /// in order of appearance.
    init(values: [String]) {
        if values.allSatisfy({ $0.count == 1 && Self.isValueMark($0.first!) }) {
            for value in values { table[value] = value.first }
            return
        }
        var next = 0
        for value in values where table[value] == nil {
            let symbol = Self.letter(next)
            next += 1
            table[value] = symbol
            legend.append((symbol, value))
        }
    }

    /// `a = "focus", b = "fo"`.
    var legendText: String {
        legend.map { "\($0.0) = \(String(reflecting: $0.1))" }.joined(separator: ", ")
    }

    /// Whether a diagram reads `character` as a value (not as syntax, not as spacing).
    static func isValueMark(_ character: Character) -> Bool {
        !character.isWhitespace && !"-()|#^!".contains(character)
    }

    private static let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZαβγδεζηθικλμνξοπρστυφχψω")

    /// The `index`-th symbol: the letters above, then CJK ideographs (letters too, so never syntax).
    static func letter(_ index: Int) -> Character {
        if index < letters.count { return letters[index] }
        let scalar = Unicode.Scalar(0x4E00 + min(index - letters.count, 0x51FF)) ?? "?"
        return Character(scalar)
    }
}

/// Lays out rows of marks as aligned marble diagrams: one column per frame that has a mark in any row.
private enum TraceMarbles {
    /// A mark in a frame (frames counted from the diagram's zero).
    struct Mark {
        var frame: Int
        var symbol: String
    }

    /// Gaps of up to this many frames are dashes; longer ones a time progression.
    static let longestDashRun = 30

    /// The frame `time` falls in: `time / frame`, rounded down, exactly.
    static func frameIndex(of time: Duration, frame: Duration) -> Int {
        let estimate = (time / frame).rounded(.down)
        var index = Int(max(min(estimate, 1e15), -1e15))
        while frame * (index + 1) <= time { index += 1 }
        while frame * index > time { index -= 1 }
        return index
    }

    /// One diagram per row (rows sorted by frame, frames not negative), aligned column by column.
    static func render(_ rows: [[Mark]], frame: Duration) -> [String] {
        let frames = Set(rows.flatMap { $0.map(\.frame) }).sorted()
        var fillers: [String] = []
        var cells: [[String]] = Array(repeating: [], count: rows.count)
        var next = Array(repeating: 0, count: rows.count)
        var cursor = 0
        for index in frames {
            let gap = index - cursor
            fillers.append(
                gap <= longestDashRun
                    ? String(repeating: "-", count: max(gap, 0)) : " " + TraceText.progression(frame * gap) + " ")
            for (row, marks) in rows.enumerated() {
                var symbols: [String] = []
                while next[row] < marks.count, marks[next[row]].frame == index {
                    symbols.append(marks[next[row]].symbol)
                    next[row] += 1
                }
                cells[row].append(symbols.count <= 1 ? symbols.first ?? "" : "(" + symbols.joined() + ")")
            }
            cursor = index + 1
        }
        if fillers.first?.first == " " { fillers[0].removeFirst() }  // no leading space
        return layOut(fillers: fillers, cells: cells)
    }

    /// Joins the columns into rows, padding each column to its widest cell; a cell that would start a word
    /// read as a time progression is wrapped in a group, and the layout redone until none does.
    private static func layOut(fillers: [String], cells: [[String]]) -> [String] {
        var wrapped = Set<[Int]>()  // [row, column]
        while true {
            func text(_ row: Int, _ column: Int) -> String {
                let cell = cells[row][column]
                if cell.isEmpty { return "-" }
                return wrapped.contains([row, column]) ? "(" + cell + ")" : cell
            }
            let widths = fillers.indices.map { column in cells.indices.map { text($0, column).count }.max() ?? 1 }
            var changed = false
            var output: [String] = []
            for row in cells.indices {
                var characters: [Character] = []
                var starts: [(offset: Int, column: Int)] = []
                var end = 0
                for column in fillers.indices {
                    characters += fillers[column]
                    let cell = text(row, column)
                    if !cells[row][column].isEmpty {
                        starts.append((characters.count, column))
                        end = characters.count + cell.count
                    }
                    characters += cell
                    characters += repeatElement(" ", count: widths[column] - cell.count)
                }
                characters.removeSubrange(end...)  // after the last mark: nothing to say
                for (offset, column) in starts
                where offset == 0 || characters[offset - 1].isWhitespace {
                    var wordEnd = offset
                    while wordEnd < characters.count, !characters[wordEnd].isWhitespace { wordEnd += 1 }
                    if TraceText.readsAsProgression(characters[offset..<wordEnd]) {
                        wrapped.insert([row, column])
                        changed = true
                    }
                }
                output.append(String(characters))
            }
            if !changed { return output }
        }
    }
}

/// Text formatting shared by the renderings.
private enum TraceText {
    static let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000

    /// Whether `word` is a time progression to the marble parser: `<digits>[.<digits>](ms|s)`.
    static func readsAsProgression(_ word: ArraySlice<Character>) -> Bool {
        let number: ArraySlice<Character>
        if word.count > 2, word.suffix(2) == ["m", "s"] {
            number = word.dropLast(2)
        } else if word.last == "s" {
            number = word.dropLast()
        } else {
            return false
        }
        let isDigit = { (character: Character) in character.isASCII && character.isNumber }
        guard let first = number.first, isDigit(first), number.last != "." else { return false }
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.allSatisfy { $0.allSatisfy(isDigit) }
    }

    /// A time progression for a positive `duration`, exactly: `250ms`, `2s`, `1.5ms` (or two words, `2s 1.5ms`,
    /// beyond a billion seconds).
    static func progression(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return "\(seconds)s" }
        if seconds >= 1_000_000_000 {
            return "\(seconds)s " + progression(.init(secondsComponent: 0, attosecondsComponent: attoseconds))
        }
        let milliseconds = seconds * 1000 + attoseconds / attosecondsPerMillisecond
        let fraction = attoseconds % attosecondsPerMillisecond
        guard fraction != 0 else { return "\(milliseconds)ms" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 15 - digits.count) + digits
        while digits.last == "0" { digits.removeLast() }
        return "\(milliseconds).\(digits)ms"
    }

    /// Seconds with three decimals, rounded down to the millisecond: `0.500`, `12.000`, `-0.250`.
    static func seconds(_ duration: Duration) -> String {
        if duration < .zero { return "-" + seconds(.zero - duration) }
        let (whole, attoseconds) = duration.components
        let milliseconds = attoseconds / attosecondsPerMillisecond
        let digits = String(milliseconds)
        return "\(whole)." + String(repeating: "0", count: 3 - digits.count) + digits
    }

    /// `text` followed by spaces up to `width` characters.
    static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(width - text.count, 0))
    }

    /// One line per event of `rows`, in time order: `  0.500 s  `, the row's label (when labelled: always,
    /// or when there are several rows), then the event.
    static func timeline(_ rows: [TraceRow], alwaysLabelled: Bool) -> String {
        let labelled = alwaysLabelled || rows.count > 1
        let labels = TraceRow.labels(of: rows)
        var lines: [(event: TraceEvent, label: String)] = []
        for (row, label) in zip(rows, labels) {
            lines += row.events.map { ($0, label) }
        }
        lines = lines.enumerated()
            .sorted { ($0.element.event.time, $0.offset) < ($1.element.event.time, $1.offset) }
            .map(\.element)
        let times = lines.map { seconds($0.event.time) }
        let timeWidth = times.map(\.count).max() ?? 0
        let labelWidth = labels.map(\.count).max() ?? 0
        return zip(lines, times).map { line, time in
            let head = "  " + String(repeating: " ", count: timeWidth - time.count) + time + " s  "
            return head + (labelled ? padded(line.label, to: labelWidth) + "  " : "") + line.event.kind.description
        }.joined(separator: "\n")
    }
}
