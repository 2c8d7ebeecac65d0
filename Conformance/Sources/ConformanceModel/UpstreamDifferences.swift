/// Known differences in what a pipeline does to its *source* (compared with `conformance --upstream`), for
/// cases where the subscriber sees the same events on both libraries.
///
/// The logs given to these predicates have their opening handshake in one order (see `canonicalHandshake` in
/// the `conformance` target), so only demand, cancels and (re)subscriptions differ. Like the subscriber-side
/// tags, each is narrow: it names the stage that must be there and the exact shape of the difference.
extension KnownDifference {
    /// Every known upstream difference, in the order they are tried: the deliberate ones of the root README
    /// first, then OpenCombine's own faults.
    public static let upstream: [KnownDifference] = [
        KnownDifference(
            tag: "throttle-asks-source-after-subscription",
            reason: "throttle hands the subscription downstream before it asks its source for values (Combine asks first)"
        ) { pipeline, streams, openCombine in
            guard pipeline.stages.contains(where: { if case .throttle = $0 { true } else { false } }) else { return false }
            if demandAfterSubscription(openCombine) == streams { return true }
            // A subscriber that cancels inside receive(subscription:) stops Streams before it asks at all.
            return pipeline.subscriber.cancelOnSubscription && stopsEarlier(streams, than: openCombine)
                && upstreamLines(streams).map { String($0.drop { $0 != " " }) } == [" upstream subscribed", " upstream cancel"]
        },
        KnownDifference(
            tag: "prefix-cancels-source-at-nth-value",
            reason: "prefix(n) cancels its source at the n-th value (prefix(0): at once, asking nothing); Combine asks on and waits for one more value or the completion"
        ) { pipeline, streams, openCombine in
            guard pipeline.stages.contains(where: { if case .prefix = $0 { true } else { false } }) else { return false }
            if stopsEarlier(streams, than: openCombine) { return true }
            // Or it does not pass on the demand returned for the n-th value: the logs differ in one request only,
            // smaller on Streams, made in the tick in which Streams cancels the source.
            guard streams.count == openCombine.count else { return false }
            let differing = streams.indices.filter { streams[$0] != openCombine[$0] }
            guard differing.count == 1, let index = differing.first,
                let ours = requested(streams[index]), let theirs = requested(openCombine[index]),
                tick(of: streams[index]) == tick(of: openCombine[index]), ours < theirs
            else { return false }
            return streams.contains { $0 == "\(tick(of: streams[index])) upstream cancel" }
        },
        KnownDifference(
            tag: "flatMap-cancels-upstream-on-inner-failure",
            reason: "when an inner publisher fails, flatMap cancels its source before it delivers the failure; Combine leaves the source running"
        ) { pipeline, streams, openCombine in
            guard
                pipeline.stages.contains(where: {
                    if case .flatMap(_, .failingOn) = $0 { true } else { false }
                }), let failure = streams.last(where: { $0.contains(" failure ") }),
                stopsEarlier(streams, than: openCombine)
            else { return false }
            // Streams' extra cancel, if any, comes with the failure.
            guard let cancel = streams.last(where: { $0.hasSuffix(" upstream cancel") }) else { return true }
            return tick(of: cancel) == tick(of: failure)
        },
        KnownDifference(
            tag: "share-skips-connect-after-cancel-during-connect",
            reason: "share() and autoconnect() do not subscribe their source when the first subscriber cancels inside receive(subscription:); Combine connects anyway"
        ) { pipeline, streams, openCombine in
            guard pipeline.subscriber.cancelOnSubscription, autoconnects(pipeline) else { return false }
            return upstreamLines(streams).isEmpty && stopsEarlier(streams, than: openCombine)
        },
        KnownDifference(
            tag: "buffer-asks-inside-handshake",
            reason: "OpenCombine's buffer asks its source before it hands the subscription down; behind Streams' retry or prefix(untilOutputFrom:) (which hand theirs down first) or a subject (which handles a request made during a subscription once that subscription is made) the same demand comes after it: only where the subscription line sits differs"
        ) { pipeline, streams, openCombine in
            guard pipeline.stages.contains(where: { if case .buffer = $0 { true } else { false } }) else { return false }
            return withoutSubscriptionLine(streams) == withoutSubscriptionLine(openCombine)
        },
        KnownDifference(
            tag: "buffer-keepFull-refills-as-values-pass",
            reason: "buffer(prefetch: .keepFull) asks its source for a refill as each value passes through (before a synchronous source's completion; one request per value); OpenCombine asks in other amounts or after the completion: the logs differ only in their demand lines (and where the subscription line sits, as in buffer-asks-inside-handshake)"
        ) { pipeline, streams, openCombine in
            guard
                pipeline.stages.contains(where: {
                    if case .buffer(_, keepFull: true, _) = $0 { true } else { false }
                })
            else { return false }
            let withoutDemand = { (log: [String]) in log.filter { !$0.contains(" upstream demand ") } }
            return withoutSubscriptionLine(withoutDemand(streams)) == withoutSubscriptionLine(withoutDemand(openCombine))
        },
        KnownDifference(
            tag: "flatMap-skips-source-after-cancel-during-handshake",
            reason: "flatMap, switchToLatest and flatMapLatest hand their subscription down first, as in Combine, but do not subscribe their source when the subscriber cancels inside receive(subscription:); Combine subscribes it, then cancels it"
        ) { pipeline, streams, openCombine in
            guard pipeline.subscriber.cancelOnSubscription,
                pipeline.stages.contains(where: { stage in
                    switch stage {
                    case .flatMap, .switchToLatest, .flatMapLatest: true
                    default: false
                    }
                })
            else { return false }
            return upstreamLines(streams).isEmpty && stopsEarlier(streams, than: openCombine)
        },
        KnownDifference(
            tag: "subject-serializes-reentrant-sends-demand",
            reason: "a value sent into a subject from inside receive(_:) is delivered after that call returns, so the demand it returned reaches the source first (and a value a stage drops gives its demand back); Combine nests the call and drops the value for want of demand"
        ) { pipeline, streams, openCombine in
            guard let k = pipeline.subscriber.sendOnValue else { return false }
            switch pipeline.source {
            case .subject, .currentValue: break
            default: return false
            }
            // Only the demand given at the tick of the k-th value (where the re-entrant send happens) differs.
            let values = streams.filter { $0.contains(" value ") }
            guard k <= values.count else { return false }
            let reentry = tick(of: values[k - 1])
            func withoutDemandThen(_ log: [String]) -> [String] {
                log.filter { !($0.contains(" upstream demand ") && tick(of: $0) == reentry) }
            }
            return withoutDemandThen(streams) == withoutDemandThen(openCombine)
        },
        KnownDifference(
            tag: "replaceEmpty-passes-demand-upstream",
            reason: "The source's side of replaceEmpty-passes-demand-through: Streams asks its source for what the subscriber asks; Combine asks .unlimited"
        ) { pipeline, streams, openCombine in
            guard pipeline.stages.contains(where: { if case .replaceEmpty = $0 { true } else { false } }),
                openCombine.contains(where: { $0.hasSuffix(" upstream demand unlimited") })
            else { return false }
            let withoutDemand = { (log: [String]) in log.filter { !$0.contains(" upstream demand ") } }
            return withoutDemand(streams) == withoutDemand(openCombine)
        },
        KnownDifference(
            tag: "handshake-request-served-after-subscription",
            reason: "a Future or a CurrentValueSubject serves a request made inside receive(subscription:) once that call returns, and retry subscribes its source after handing its subscription down (root README), so ignoreOutput's .unlimited, asked after it hands its subscription down, reaches the source in the same tick as the subscriber's first request; in OpenCombine the source completes inside that request, before ignoreOutput asks"
        ) { pipeline, streams, openCombine in
            let servesAfterHandshake: Bool
            switch pipeline.source {
            case .future(_, at: 0), .currentValue: servesAfterHandshake = true
            default: servesAfterHandshake = pipeline.stages.contains { if case .retry = $0 { true } else { false } }
            }
            guard servesAfterHandshake, pipeline.stages.contains(.ignoreOutput), streams.count == openCombine.count
            else { return false }
            // One demand line differs: Streams' is `.unlimited`, OpenCombine's the subscriber's first request, in
            // the same tick.
            let differing = streams.indices.filter { streams[$0] != openCombine[$0] }
            guard differing.count == 1, let index = differing.first,
                let ours = requested(streams[index]), let theirs = requested(openCombine[index])
            else { return false }
            return ours == Int.max && theirs < ours && tick(of: streams[index]) == tick(of: openCombine[index])
        },
        KnownDifference(
            tag: "demand-for-a-value-returned-past-subscribe-on",
            reason: "retry and a bounded flatMap return the demand a value brings to their source with that value's return; OpenCombine's make it a request, which subscribe(on:) schedules, so it reaches the source later (summed with the next) or not at all once the source has finished: the logs differ only in their demand lines, OpenCombine's never more in a tick"
        ) { pipeline, streams, openCombine in
            guard pipeline.stages.contains(.subscribeOn),
                pipeline.stages.contains(where: {
                    switch $0 {
                    case .retry, .flatMap(maxPublishers: .some, _): true
                    default: false
                    }
                })
            else { return false }
            let withoutDemand = { (log: [String]) in log.filter { !$0.contains(" upstream demand ") } }
            guard withoutDemand(streams) == withoutDemand(openCombine) else { return false }
            let ours = demandByTick(streams)
            return demandByTick(openCombine).allSatisfy { tick, amount in amount <= ours[tick, default: 0] }
        },
        KnownDifference(
            tag: "prefixUntilOutput-subscribes-downstream-first-handshake",
            reason: "The source's side of prefixUntilOutput-subscribes-downstream-first: Streams hands the subscription down before it subscribes its source; OpenCombine subscribes first"
        ) { pipeline, streams, openCombine in
            // Given in one handshake order, the logs of a case that differs in that order alone are equal; no
            // other stage that orders its handshake differently (retry, throttle) is there.
            guard pipeline.stages.contains(where: { if case .prefixUntilOutput = $0 { true } else { false } }),
                !pipeline.stages.contains(where: { stage in
                    switch stage {
                    case .retry, .throttle: true
                    default: false
                    }
                })
            else { return false }
            return streams == openCombine
        },
        KnownDifference(
            tag: "retry-subscribes-downstream-first-handshake",
            reason: "retry hands its subscription down before it subscribes its source (root README), so a subscriber that cancels inside receive(subscription:) never gets the source subscribed; OpenCombine subscribes first"
        ) { pipeline, streams, openCombine in
            // As above: the order alone differs, with no other stage that orders its handshake differently; or the
            // subscriber cancelled in receive(subscription:) and Streams never subscribed the source.
            guard pipeline.stages.contains(where: { if case .retry = $0 { true } else { false } }),
                !pipeline.stages.contains(where: { stage in
                    switch stage {
                    case .prefixUntilOutput, .throttle: true
                    default: false
                    }
                })
            else { return false }
            if streams == openCombine { return true }
            return pipeline.subscriber.cancelOnSubscription && upstreamLines(streams).isEmpty
                && stopsEarlier(streams, than: openCombine)
        },
        KnownDifference(
            tag: "opencombine-drop-keeps-source-after-trigger-completes",
            reason: "OpenCombine's drop(untilOutputFrom:) forwards the completion of a trigger that completes at once, then subscribes its source anyway and asks it for values (DropUntilOutput.Inner.receive(subscription:) ignores otherFinished); Streams cancels the source at once"
        ) { pipeline, streams, openCombine in
            guard pipeline.stages.contains(where: { stage in
                guard case .dropUntilOutput(let trigger) = stage else { return false }
                switch trigger {
                case .empty, .fail, .sequence([]), .deferred([]), .future(nil, at: 0): return true
                // A subject whose first event is its completion: it completes at once for a `drop` subscribed after
                // that (behind a `prepend`, or connected late), and the rest of the predicate checks the shape.
                case .subject(let events):
                    guard let first = events.first else { return false }
                    if case .value = first { return false }
                    return true
                default: return false
                }
            }), streams != openCombine else { return false }
            // Per subscription of the source (a `retry` makes several): Streams subscribes it and cancels it (a stage
            // in between, a `buffer`, may ask it for values as it is subscribed); OpenCombine subscribes it and asks,
            // its lines starting with Streams' before the cancel.
            let ours = subscriptions(upstreamLines(streams)), theirs = subscriptions(upstreamLines(openCombine))
            guard !ours.isEmpty, ours.count == theirs.count else { return false }
            return zip(ours, theirs).allSatisfy { ours, theirs in
                let kinds = ours.map { String($0.drop { $0 != " " }) }
                guard kinds.last == " upstream cancel",
                    kinds.dropLast().dropFirst().allSatisfy({ $0.hasPrefix(" upstream demand ") })
                else { return false }
                return ours.count - 1 <= theirs.count && Array(theirs.prefix(ours.count - 1)) == Array(ours.dropLast())
                    && !theirs.contains { $0.hasSuffix(" upstream cancel") }
            }
        },
        KnownDifference(
            tag: "opencombine-autoconnect-connects-again-during-connect",
            reason: "OpenCombine's autoconnect() (and share(), built the same way) records its connection only after connect() returns (Autoconnect.receive(subscriber:)), so a subscriber that arrives during connect, such as retry resubscribing after a failure the source sends at once, connects the source a second time (which runs, and fails and is cancelled, again); Streams claims the connection before connecting (and a connection made for a subscriber that comes after the subject completed is cancelled by the subject at once)"
        ) { pipeline, streams, openCombine in
            guard autoconnects(pipeline),
                pipeline.stages.contains(where: { if case .retry = $0 { true } else { false } }),
                stopsEarlier(streams, than: openCombine)
            else { return false }
            // OpenCombine subscribes the source a second time, and its source lines past Streams' (which may end in
            // the cancel of a second connection made after the subject completed) only subscribe and ask.
            let theirs = upstreamLines(openCombine).map { String($0.drop { $0 != " " }) }
            let ours = upstreamLines(streams).map { String($0.drop { $0 != " " }) }
            // Or: Streams' source lines are OpenCombine's first connection, ended by a cancel, and OpenCombine's
            // lines after them are one more connection, run again and cancelled again (the source fails again
            // at once, as retry re-subscribing `share()` after its source failed finds).
            let again = theirs.dropFirst(ours.count)
            if ours.last == " upstream cancel", Array(theirs.prefix(ours.count)) == ours,
                again.first == " upstream subscribed", again.last == " upstream cancel",
                again.allSatisfy({
                    $0 == " upstream subscribed" || $0.hasPrefix(" upstream demand ") || $0 == " upstream cancel"
                })
            {
                return true
            }
            var common = upstreamLines(streams).count
            if streams.last(where: { $0.contains(" upstream ") })?.hasSuffix(" upstream cancel") == true { common -= 1 }
            let extra = theirs.dropFirst(common)
            return theirs.filter({ $0 == " upstream subscribed" }).count >= 2 && !extra.isEmpty
                && extra.allSatisfy { $0.hasPrefix(" upstream demand ") || $0 == " upstream subscribed" }
        },
        KnownDifference(
            tag: "opencombine-keeps-source-after-cancel",
            reason: "OpenCombine asks its source for values, subscribes it, or never cancels it after the pipeline was cancelled (Drop loses a cancel sent from receive(subscription:), Autoconnect one sent during connect, Concatenate subscribes its second publisher after a cancel); Streams cancels its source"
        ) { pipeline, streams, openCombine in
            guard stopsEarlier(streams, than: openCombine), let cancelPoint = cancelPoint(of: pipeline, in: openCombine)
            else { return false }
            // OpenCombine's first upstream line that Streams has not got comes after the cancel.
            let common = upstreamLines(streams).count - (streams.last?.hasSuffix(" upstream cancel") == true ? 1 : 0)
            let theirs = openCombine.indices.filter { openCombine[$0].contains(" upstream ") }
            return common >= theirs.count || theirs[common] > cancelPoint
        },
    ]

    /// The first upstream difference that explains a mismatch on the source's side only, if any.
    public static func explainingUpstream(_ pipeline: Pipeline, streams: [String], openCombine: [String])
        -> KnownDifference?
    {
        upstream.first { $0.explains(pipeline, streams, openCombine) }
    }
}

/// The amount of an `upstream demand` line (`Int.max` for unlimited), or `nil` for another line.
func requested(_ line: String) -> Int? {
    guard line.contains(" upstream demand ") else { return nil }
    let amount = line.split(separator: " ").last ?? ""
    return amount == "unlimited" ? Int.max : Int(amount)
}

/// Whether a stage connects its source for its first subscriber: `share()` or an autoconnected connectable.
func autoconnects(_ pipeline: Pipeline) -> Bool {
    pipeline.stages.contains {
        if $0 == .share { return true }
        if case .connectable(_, connectAt: nil) = $0 { return true }
        return false
    }
}

/// The source's lines of a log.
func upstreamLines(_ log: [String]) -> [String] { log.filter { $0.contains(" upstream ") } }

/// The demand a log asks of its source, summed per tick (`Int.max` once `.unlimited`).
func demandByTick(_ log: [String]) -> [Int: Int] {
    var sums: [Int: Int] = [:]
    for line in log {
        guard let amount = requested(line) else { continue }
        let sum = sums[tick(of: line), default: 0]
        sums[tick(of: line)] = amount == Int.max || sum > Int.max - amount ? Int.max : sum + amount
    }
    return sums
}

/// Source lines split at each `upstream subscribed` (which starts each group).
func subscriptions(_ lines: [String]) -> [[String]] {
    var groups: [[String]] = []
    for line in lines {
        if line.hasSuffix(" upstream subscribed") || groups.isEmpty {
            groups.append([line])
        } else {
            groups[groups.count - 1].append(line)
        }
    }
    return groups
}

/// The log without the subscriber's `subscription` line: equal for two logs that differ only in where it sits.
func withoutSubscriptionLine(_ log: [String]) -> [String] { log.filter { !$0.hasSuffix(" subscription") } }

/// Whether Streams does less to the source than OpenCombine and then stops: its source lines, without a final
/// `upstream cancel`, are a prefix of OpenCombine's, and the logs differ.
func stopsEarlier(_ streams: [String], than openCombine: [String]) -> Bool {
    guard streams != openCombine else { return false }
    var ours = upstreamLines(streams)
    if ours.last?.hasSuffix(" upstream cancel") == true { ours.removeLast() }
    let theirs = upstreamLines(openCombine)
    return ours.count <= theirs.count && Array(theirs.prefix(ours.count)) == ours
}

/// The log with the demand asked of the source summed per tick, as one line at the end of each tick's lines:
/// equal for two logs that ask the same in each tick, in whatever order with the values.
func demandSummedPerTick(_ log: [String]) -> [String] {
    var result: [String] = []
    var pending: (tick: Int, total: Int?)?  // total nil: unlimited
    func flush() {
        guard let (tick, total) = pending else { return }
        result.append("\(tick) upstream demand \(total.map(String.init) ?? "unlimited")")
        pending = nil
    }
    for line in log {
        if let p = pending, tick(of: line) != p.tick { flush() }
        guard line.contains(" upstream demand ") else {
            result.append(line)
            continue
        }
        let amount = Int(line.split(separator: " ").last ?? "")  // nil: unlimited
        if let (tick, total) = pending {
            pending = (tick, total.flatMap { total in amount.map { total + $0 } })
        } else {
            pending = (tick(of: line), amount)
        }
    }
    flush()
    return result
}

/// The log with demand asked of the source before the subscriber got its subscription moved to right after
/// that subscription (the order `throttle` uses on Streams).
func demandAfterSubscription(_ log: [String]) -> [String] {
    guard let subscription = log.firstIndex(where: { $0.hasSuffix(" subscription") }) else { return log }
    let early = log[..<subscription].filter { $0.contains(" upstream demand ") }
    let rest = log[..<subscription].filter { !$0.contains(" upstream demand ") }
    return rest + [log[subscription]] + early + log[(subscription + 1)...]
}

/// Where in `log` the pipeline is cancelled: at the subscriber's scripted cancel, or at the first value when a
/// stage cancels its upstream by itself (`prefix`, `first`, `first(where:)`); `nil` when nothing cancels.
func cancelPoint(of pipeline: Pipeline, in log: [String]) -> Int? {
    let script = pipeline.subscriber
    var points: [Int] = []
    if script.cancelOnSubscription, let index = log.firstIndex(where: { $0.hasSuffix(" subscription") }) {
        points.append(index)
    }
    let valueLines = log.indices.filter { log[$0].contains(" value ") }
    if let k = script.cancelOnValue, k <= valueLines.count { points.append(valueLines[k - 1]) }
    if let cancelAt = script.cancelAt { points.append(log.firstIndex { tick(of: $0) >= cancelAt } ?? log.count) }
    let cancelsItself = pipeline.stages.contains {
        switch $0 {
        case .prefix, .first, .firstWhere, .contains, .containsWhere, .allSatisfy, .prefixWhile, .outputAt, .outputIn,
            .prefixUntilOutput, .tryFirst, .tryContains, .tryAllSatisfy, .tryPrefixWhile:
            true
        default: false
        }
    }
    if cancelsItself, let first = valueLines.first { points.append(first) }
    // Such a stage cancels its upstream as it finishes, also when it finishes without a value (`prefix(while:)` whose
    // first value fails the predicate, `prefix(untilOutputFrom:)` whose trigger fired).
    if cancelsItself, let finished = log.firstIndex(where: { $0.hasSuffix(" finished") }) { points.append(finished) }
    // `switchToLatest` and `flatMapLatest` cancel their source when an inner publisher fails, as they deliver the
    // failure.
    let switches = pipeline.stages.contains {
        switch $0 {
        case .switchToLatest, .flatMapLatest: true
        default: false
        }
    }
    if switches, let failure = log.firstIndex(where: { $0.contains(" failure ") }) { points.append(failure) }
    // A `try` stage cancels its upstream when its closure throws, as it delivers the failure.
    let throwing = pipeline.stages.contains {
        switch $0 {
        case .tryMap, .tryFirst, .tryLast, .tryContains, .tryAllSatisfy, .tryMin, .tryReduce, .tryDropWhile,
            .tryPrefixWhile, .tryFilter, .tryCompactMap, .tryScan, .tryRemoveDuplicates:
            true
        default: false
        }
    }
    if throwing, let failure = log.firstIndex(where: { $0.contains(" failure ") }) {
        points.append(failure)
    }
    return points.min()
}
