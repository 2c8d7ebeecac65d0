/// A deliberate difference between Streams and Combine (each listed, with its reason, in the root README's
/// "How Streams differs from Combine"): a mismatch it explains is tagged, not counted.
///
/// Each tag is judged on the *shrunk* pipeline and both event logs, and is narrow: it names the stage
/// that must be there and the exact shape of the difference in the logs, so a different bug in the same
/// stage still counts.
public struct KnownDifference: Sendable {
    /// A short name, printed in the summary.
    public let tag: String
    /// Why Streams differs (the README's wording, shortened).
    public let reason: String
    /// Whether this difference explains the mismatch of `pipeline` (Streams' log, OpenCombine's log).
    public let explains: @Sendable (_ pipeline: Pipeline, _ streams: [String], _ openCombine: [String]) -> Bool

    /// Every known difference, in the order they are tried.
    public static let all: [KnownDifference] = [
        KnownDifference(
            tag: "opencombine-crashes",
            reason: "OpenCombine 0.14 crashes on this pipeline (e.g. a stack overflow in replaceError + retry); Streams' log is checked for contract violations alone"
        ) { _, streams, openCombine in
            openCombine == [openCombineCrashed] && !streams.contains(where: isViolation)
        },
        // Before `opencombine-breaks-the-contract`: a completion after a cancel is the deliberate difference
        // the root README lists ("Nothing after a cancel"), not a fault of OpenCombine's.
        KnownDifference(
            tag: "nothing-after-cancel",
            reason: "a subscriber that cancels gets nothing more; OpenCombine still sends some completions"
        ) { pipeline, streams, openCombine in
            let script = pipeline.subscriber
            guard script.cancelOnSubscription || script.cancelOnValue != nil || script.cancelAt != nil else { return false }
            return withoutLateCompletions(openCombine) == streams
        },
        // Before `opencombine-breaks-the-contract`: a value beyond demand from `replaceEmpty` is Combine's own
        // behaviour (it asks `.unlimited`), the difference the root README lists.
        KnownDifference(
            tag: "replaceEmpty-passes-demand-through",
            reason: "replaceEmpty passes the subscriber's demand upstream; Combine asks .unlimited, so it sends values nobody asked for"
        ) { pipeline, streams, openCombine in
            guard pipeline.stages.contains(where: { if case .replaceEmpty = $0 { true } else { false } }),
                let first = openCombine.firstIndex(where: isViolation),
                openCombine[first].hasSuffix(" ! value beyond demand"), streams.starts(with: openCombine[..<first])
            else { return false }
            // From there Streams delivers (later, on demand, or never) only values OpenCombine pushed, and ends
            // the same way if it ends.
            let ours = Array(streams[first...])
            let theirs = openCombine[first...].filter { !isViolation($0) }
            guard isSubsequence(values(ours), of: values(theirs)) else { return false }
            guard let end = completion(ours) else { return true }
            return end == completion(theirs)
        },
        KnownDifference(
            tag: "replaceEmpty-passes-demand-so-a-buffer-finish-waits",
            reason: "replaceEmpty passes the subscriber's demand to a buffer before it, and a buffer delivers .finished after its values only with demand (as OpenCombine's does); behind OpenCombine's replaceEmpty, which asks .unlimited, the buffer finishes at once"
        ) { pipeline, streams, openCombine in
            guard let replace = pipeline.stages.firstIndex(where: { if case .replaceEmpty = $0 { true } else { false } }),
                pipeline.stages[..<replace].contains(where: { if case .buffer = $0 { true } else { false } }),
                !openCombine.contains(where: isViolation), openCombine.last?.hasSuffix(" finished") == true
            else { return false }
            // Streams' log is OpenCombine's without the `.finished` that waits for a request that never comes.
            return streams == Array(openCombine.dropLast())
        },
        // Before `opencombine-breaks-the-contract`: OpenCombine's `.finished` before the subscription is what the
        // root README lists as the reason for Streams' order.
        KnownDifference(
            tag: "prefixUntilOutput-subscribes-downstream-first",
            reason: "prefix(untilOutputFrom:) hands its subscription down before subscribing anything, so .finished never precedes the subscription; OpenCombine subscribes the trigger first and finishes before any subscription when it fires at once"
        ) { pipeline, streams, openCombine in
            guard pipeline.stages.contains(where: { if case .prefixUntilOutput = $0 { true } else { false } }),
                let early = openCombine.first, early.hasSuffix(" ! completion before the subscription"),
                let subscription = streams.first, subscription.hasSuffix(" subscription"),
                tick(of: early) == tick(of: subscription)
            else { return false }
            // The same events once Streams' subscription and OpenCombine's early-completion note (and any
            // subscription it hands out after the completion, with its note) are set aside.
            let theirs = openCombine.dropFirst().filter { !$0.hasSuffix(" subscription") && !isViolation($0) }
            return Array(streams.dropFirst()) == theirs
        },
        // The same difference behind a `timeout`: its deadline restarts at its subscriber's first request (as in
        // Combine), which OpenCombine's `replaceEmpty` makes on subscription (`.unlimited`) and Streams' when the
        // subscriber first asks. So the timeout comes later by the tick of that first request, and that is all.
        KnownDifference(
            tag: "replaceEmpty-passes-demand-so-a-timeout-starts-later",
            reason: "replaceEmpty passes the subscriber's first request to a timeout before it, whose deadline restarts at that request (as in Combine); OpenCombine's replaceEmpty asks .unlimited on subscription, so its deadline runs from the subscription"
        ) { pipeline, streams, openCombine in
            let script = pipeline.subscriber
            guard let replace = pipeline.stages.firstIndex(where: { if case .replaceEmpty = $0 { true } else { false } }),
                pipeline.stages[..<replace].contains(where: { if case .timeout = $0 { true } else { false } }),
                script.initial == nil, let firstRequest = script.requests.map(\.tick).min(), firstRequest > 0,
                !streams.contains(where: isViolation), !openCombine.contains(where: isViolation),
                let ours = streams.last, let theirs = openCombine.last,
                ours.hasSuffix(" finished") || ours.contains(" failure "),
                Array(streams.dropLast()) == Array(openCombine.dropLast())
            else { return false }
            // The same completion, later by the tick of the first request.
            return ours.drop { $0 != " " } == theirs.drop { $0 != " " }
                && tick(of: ours) == tick(of: theirs) + firstRequest
        },
        // The same deliberate difference seen through a `buffer` after it: `buffer` asks before it hands the
        // subscription down, and Streams' `prefix(untilOutputFrom:)` subscribes its source only after that
        // handshake, so the source's values reach the buffer once its subscriber has asked; in OpenCombine they
        // reach it first, and what finds it full is dropped. Streams delivers OpenCombine's events and more values.
        KnownDifference(
            tag: "subscribes-downstream-first-fills-buffer-later",
            reason: "prefix(untilOutputFrom:), retry, append and prepend hand their subscription down before subscribing their source (and a connected multicast's subject handles a request made during a subscription once that subscription is made), so a buffer after them gets the source's values once its subscriber has asked, and drops none for being full; OpenCombine subscribes first and the buffer drops what finds it full"
        ) { pipeline, streams, openCombine in
            guard
                let first = pipeline.stages.firstIndex(where: {
                    switch $0 {
                    case .prefixUntilOutput, .retry, .append, .prepend: true
                    case .connectable(_, connectAt: 0): true
                    default: false
                    }
                }),
                pipeline.stages[(first + 1)...].contains(where: { if case .buffer = $0 { true } else { false } }),
                !streams.contains(where: isViolation), !openCombine.contains(where: isViolation),
                streams.filter({ !$0.contains(" value ") }) == openCombine.filter({ !$0.contains(" value ") })
            else { return false }
            return streams.count > openCombine.count && isSubsequence(openCombine, of: streams)
        },
        // OpenCombine's fault, read in its source: `Publishers.Buffer`'s `Inner.receive(subscription:)` asks its
        // upstream (`.max(size)` or `.unlimited`) before it hands the subscription down, and its
        // `receive(completion:)` drains at once, which delivers a failure when there is no demand. So a source
        // that fails on that first request fails the subscriber before it has a subscription. Streams hands the
        // subscription down, then (when that failure is a full `.customError` buffer's, whose values go first)
        // the values the request allows, then the failure. Before `opencombine-breaks-the-contract`, whose "equal up to the
        // violation" does not fit a violation on the first line.
        KnownDifference(
            tag: "opencombine-buffer-fails-before-subscription",
            reason: "OpenCombine's buffer asks its source before handing the subscription down and drains a failure at once, so a source that fails on that request fails the subscriber before its subscription; Streams sends the subscription, then the failure"
        ) { pipeline, streams, openCombine in
            guard pipeline.stages.contains(where: { if case .buffer = $0 { true } else { false } }),
                openCombine.count == 3, openCombine[0].hasSuffix(" ! completion before the subscription"),
                openCombine[1].contains(" failure "), openCombine[2].hasSuffix(" subscription"),
                tick(of: openCombine[0]) == tick(of: openCombine[2])
            else { return false }
            // Streams: that subscription, the values a full buffer's error lets through first (its own
            // buffered values, delivered on the request, as documented), then that failure.
            guard streams.count >= 2, streams.first == openCombine[2], streams.last == openCombine[1] else { return false }
            return streams.dropFirst().dropLast().allSatisfy { $0.contains(" value ") }
        },
        // OpenCombine's fault, read in its source: its buffer fails its subscriber before handing the subscription
        // down (the tag above), and when that subscriber is the subject of a `multicast` or `share()`,
        // `SubjectSubscriber.receive(completion:)` ignores a completion that comes before its subscription
        // (`upstreamSubscription == nil`): the failure never reaches the subject's subscribers. Streams delivers it.
        // Narrow: a buffer before a connectable stage, no completion in OpenCombine's log, and Streams' log that
        // same log and then one failure.
        KnownDifference(
            tag: "opencombine-subject-drops-a-failure-before-its-subscription",
            reason: "OpenCombine's buffer fails its subscriber before handing the subscription down, and when that subscriber is a multicast's or share()'s subject, OpenCombine ignores a completion that comes before the subject's subscription, so the failure never arrives; Streams delivers it"
        ) { pipeline, streams, openCombine in
            guard
                let buffer = pipeline.stages.firstIndex(where: { if case .buffer = $0 { true } else { false } }),
                pipeline.stages[(buffer + 1)...].contains(where: {
                    switch $0 {
                    case .share, .connectable: true
                    default: false
                    }
                }),
                completion(openCombine) == nil, let last = streams.last, last.contains(" failure "),
                !streams.contains(where: isViolation), !openCombine.contains(where: isViolation)
            else { return false }
            return Array(streams.dropLast()) == openCombine
        },
        // OpenCombine's fault, read in its source: `Publishers.Buffer`'s `Inner.drain()` pops up to the demand into
        // a local array and delivers those values with its lock released; a value sent into the source from inside
        // one of those `receive(_:)` calls enters a nested `drain()`, which delivers it at once, ahead of the values
        // the outer drain still holds. Streams' buffer delivers in arrival order.
        KnownDifference(
            tag: "opencombine-buffer-reorders-a-reentrant-value",
            reason: "OpenCombine's buffer delivers a value sent into its source from inside receive(_:) ahead of the values it has already taken out for delivery; Streams' buffer delivers in arrival order"
        ) { pipeline, streams, openCombine in
            guard pipeline.stages.contains(where: { if case .buffer = $0 { true } else { false } }),
                let k = pipeline.subscriber.sendOnValue,
                !streams.contains(where: isViolation), !openCombine.contains(where: isViolation),
                completion(streams) == completion(openCombine)
            else { return false }
            // The same values but the re-entrant one, which OpenCombine delivers earlier.
            let sent = " value \(100 + k)"
            let ours = values(streams)
            let theirs = values(openCombine)
            guard let late = ours.firstIndex(of: sent), let early = theirs.firstIndex(of: sent), early < late
            else { return false }
            var moved = ours
            moved.remove(at: late)
            moved.insert(sent, at: early)
            return moved == theirs
        },
        KnownDifference(
            tag: "opencombine-autoconnect-loses-cancel-during-connect",
            reason: "OpenCombine's Autoconnect ignores a cancel that arrives while connect() runs (a synchronous source's value fails a try stage behind share()), so the source goes on to complete the shared subject and retry's next attempt gets that completion; Streams cancels the connection and each attempt connects anew"
        ) { pipeline, streams, openCombine in
            guard pipeline.source.isSynchronous,
                let shared = pipeline.stages.firstIndex(where: {
                    if $0 == .share { return true }
                    if case .connectable(_, connectAt: nil) = $0 { return true }  // autoconnected
                    return false
                }),
                pipeline.stages[shared...].contains(where: { if case .retry = $0 { true } else { false } }),
                openCombine.last?.hasSuffix(" finished") == true, streams.last?.contains(" failure ") == true
            else { return false }
            return isSubsequence(Array(openCombine.dropLast()), of: Array(streams.dropLast()))
        },
        KnownDifference(
            tag: "opencombine-breaks-the-contract",
            reason: "OpenCombine sends an event after a cancel, after the completion or beyond demand; Streams stops where the contract says"
        ) { _, streams, openCombine in
            guard !streams.contains(where: isViolation), let first = openCombine.firstIndex(where: isViolation)
            else { return false }
            return Array(openCombine[..<first]) == streams
        },
        KnownDifference(
            tag: "debounce-flushes-on-finish",
            reason: "debounce delivers the pending value on .finished (RxSwift, swift-async-algorithms); Combine drops it"
        ) { pipeline, streams, openCombine in
            guard pipeline.stages.contains(where: { if case .debounce = $0 { true } else { false } }) else { return false }
            return withoutFlushedValue(streams) == openCombine
        },
        KnownDifference(
            tag: "prefix-finishes-at-nth-value",
            reason: "prefix(n) finishes (and cancels upstream) at the n-th value instead of waiting for one more"
        ) { pipeline, streams, openCombine in
            guard pipeline.stages.contains(where: { if case .prefix = $0 { true } else { false } }) else { return false }
            return finishesEarlier(streams, than: openCombine)
        },
        KnownDifference(
            tag: "throttle-subscribes-downstream-first",
            reason: "throttle hands the subscription downstream before asking upstream, so what a source sends on request (a sequence, a CurrentValueSubject's value) is not dropped"
        ) { pipeline, streams, openCombine in
            guard let index = pipeline.stages.firstIndex(where: { if case .throttle = $0 { true } else { false } }),
                isSubsequence(values(openCombine), of: values(streams)),
                // Only values differ: the subscription and the completion come at the same ticks.
                streams.filter({ !$0.contains(" value ") }) == openCombine.filter({ !$0.contains(" value ") })
            else { return false }
            let deliversOnRequest: Bool
            if case .currentValue = pipeline.source { deliversOnRequest = true } else { deliversOnRequest = false }
            return pipeline.source.isSynchronous || deliversOnRequest || pipeline.stages[..<index].contains { stage in
                switch stage {
                case .prepend, .append, .catchJust, .replaceError: true
                default: false
                }
            }
        },
        KnownDifference(
            tag: "subject-serializes-reentrant-sends",
            reason: "a value sent into a subject from inside receive(_:) is delivered after that call returns (with the demand it returned, and not after a cancel in it); Combine nests the call"
        ) { pipeline, streams, openCombine in
            guard let k = pipeline.subscriber.sendOnValue else { return false }
            switch pipeline.source {
            case .subject, .currentValue: break
            default: return false
            }
            if withoutReentrantValue(streams, after: k) == withoutReentrantValue(openCombine, after: k) { return true }
            // Cancelled in the same call: Streams delivers nothing after it, while OpenCombine, nested, delivered the
            // re-entrant value (and what it led to, such as a new inner's values) before the cancel took effect.
            // Streams' log is OpenCombine's up to the k-th value, and ends there.
            if pipeline.subscriber.cancelOnValue == k {
                let valueLines = streams.indices.filter { streams[$0].contains(" value ") }
                return valueLines.count == k && valueLines[k - 1] == streams.count - 1
                    && openCombine.count > streams.count && Array(openCombine.prefix(streams.count)) == streams
            }
            // Nested, the re-entrant value can overtake the rest of the current one: a `switchToLatest` (or
            // `flatMapLatest`, which is `map` + `switchToLatest`) switches
            // away from the inner that is still delivering. Serialized, that inner finishes first: Streams
            // delivers everything OpenCombine does, plus what the nested switch dropped.
            guard
                pipeline.stages.contains(where: {
                    switch $0 {
                    case .switchToLatest, .flatMapLatest: true
                    default: false
                    }
                })
            else { return false }
            return isSubsequence(values(openCombine), of: values(streams))
                && streams.last(where: { !$0.contains(" value ") }) == openCombine.last(where: { !$0.contains(" value ") })
        },
        // After the other deliberate differences (a debounce's flushed value explains more precisely what it
        // applies to) but before flatMap's: a bounded flatMap after replaceEmpty gets values it did not ask for.
        KnownDifference(
            tag: "replaceEmpty-pushes-unasked-values-into-a-later-stage",
            reason: "replaceEmpty passes demand through; Combine asks .unlimited, so the stage after it gets values it did not ask for (a bounded flatMap starts their inners at once, append drops them)"
        ) { pipeline, streams, openCombine in
            guard let index = pipeline.stages.firstIndex(where: { if case .replaceEmpty = $0 { true } else { false } })
            else { return false }
            // A stage after it gets those values instead of the subscriber. A `flatMap(maxPublishers: .max(n))`
            // starts their inners at once, so OpenCombine's events come earlier: Streams delivers the same ones,
            // in order, no earlier. A stage that drops what it was not asked for (`append` before the
            // subscriber's demand has arrived through `subscribe(on:)`) loses them: Streams delivers every value
            // OpenCombine does, and more, and ends the same way.
            guard index + 1 < pipeline.stages.count, !openCombine.contains(where: isViolation) else { return false }
            let bounded = pipeline.stages[(index + 1)...].contains { stage in
                if case .flatMap(.some, _) = stage { true } else { false }
            }
            let ours = streams.filter { !$0.hasSuffix(" subscription") }
            let theirs = openCombine.filter { !$0.hasSuffix(" subscription") }
            if bounded {
                return ours != theirs && ours.count == theirs.count
                    && zip(ours, theirs).allSatisfy {
                        $0.drop { $0 != " " } == $1.drop { $0 != " " } && tick(of: $0) >= tick(of: $1)
                    }
            }
            return values(ours).count > values(theirs).count && isSubsequence(values(theirs), of: values(ours))
                && completion(ours) == completion(theirs)
        },
        KnownDifference(
            tag: "flatMap-widens-inners-in-order",
            reason: "when flatMap's demand becomes unlimited it asks its inners in the order they were created; OpenCombine asks them in dictionary order (unspecified in Combine)"
        ) { pipeline, streams, openCombine in
            guard pipeline.stages.contains(where: { if case .flatMap = $0 { true } else { false } }) else { return false }
            return streams != openCombine && sortedWithinTicks(streams) == sortedWithinTicks(openCombine)
        },
        KnownDifference(
            tag: "flatMap-prefetches-one-per-inner",
            reason: "flatMap keeps one value per inner while demand is bounded, so a value is not dropped for want of demand"
        ) { pipeline, streams, openCombine in
            guard pipeline.stages.contains(where: { if case .flatMap = $0 { true } else { false } }) else { return false }
            return isSubsequence(values(openCombine), of: values(streams))
        },
    ]

    /// The first known difference that explains the mismatch, if any.
    /// Never when Streams' own log breaks the contract.
    public static func explaining(_ pipeline: Pipeline, streams: [String], openCombine: [String]) -> KnownDifference? {
        guard !streams.contains(where: isViolation) else { return nil }
        return all.first { $0.explains(pipeline, streams, openCombine) }
    }
}

/// The reference log of a pipeline OpenCombine crashed on.
public let openCombineCrashed = "! OpenCombine crashed"

/// Whether a log line is a contract violation the probe noted.
func isViolation(_ line: String) -> Bool { line.contains(" ! ") }

/// The log without completions that arrived after the subscriber cancelled (and their `!` notes).
func withoutLateCompletions(_ log: [String]) -> [String] {
    var result: [String] = []
    var skipNext = false
    for line in log {
        if line.hasSuffix("! completion after cancel") {
            skipNext = true
            continue
        }
        if skipNext {
            skipNext = false
            continue
        }
        result.append(line)
    }
    return result
}

/// The log without the value right after the k-th one at the same tick (where a value sent re-entrantly from
/// inside `receive(_:)` of the k-th value lands, nested or serialized).
func withoutReentrantValue(_ log: [String], after k: Int) -> [String] {
    let valueLines = log.indices.filter { log[$0].contains(" value ") }
    guard k <= valueLines.count else { return log }
    let next = valueLines[k - 1] + 1
    guard next < log.count, log[next].contains(" value "), tick(of: log[next]) == tick(of: log[next - 1]) else { return log }
    var copy = log
    copy.remove(at: next)
    return copy
}

/// The log without the one value delivered right before `.finished` at the same tick.
func withoutFlushedValue(_ log: [String]) -> [String] {
    guard let finished = log.lastIndex(where: { $0.hasSuffix(" finished") }), finished > 0 else { return log }
    let value = log[finished - 1]
    guard value.contains(" value "), tick(of: value) == tick(of: log[finished]) else { return log }
    var copy = log
    copy.remove(at: finished - 1)
    return copy
}

/// Whether both logs carry the same values and `early` finishes, where `late` finishes later, fails later,
/// or never completes.
func finishesEarlier(_ early: [String], than late: [String]) -> Bool {
    guard values(early) == values(late), let finish = early.last, finish.hasSuffix(" finished") else { return false }
    guard let end = late.last(where: { $0.hasSuffix(" finished") || $0.contains(" failure ") }) else { return true }
    return tick(of: end) > tick(of: finish) || end.contains(" failure ")
}

/// The log with each run of values delivered at the same tick sorted: equal for two logs that differ only in
/// the order of same-instant values.
func sortedWithinTicks(_ log: [String]) -> [String] {
    var result: [String] = []
    var run: [String] = []
    for line in log {
        if line.contains(" value "), run.isEmpty || tick(of: run[0]) == tick(of: line) {
            run.append(line)
            continue
        }
        result += run.sorted()
        run = []
        if line.contains(" value ") { run.append(line) } else { result.append(line) }
    }
    return result + run.sorted()
}

/// The log's completion without its tick (`finished`, `failure boom(1)`), if it has one.
func completion(_ log: [String]) -> String? {
    log.last { $0.hasSuffix(" finished") || $0.contains(" failure ") }.map { String($0.drop { $0 != " " }) }
}

func values(_ log: [String]) -> [String] {
    log.filter { $0.contains(" value ") }.map { String($0.drop { $0 != " " }) }
}

func tick(of line: String) -> Int { Int(line.prefix { $0 != " " }) ?? -1 }

func isSubsequence(_ small: [String], of large: [String]) -> Bool {
    var iterator = large.makeIterator()
    return small.allSatisfy { element in
        while let next = iterator.next() { if next == element { return true } }
        return false
    }
}
