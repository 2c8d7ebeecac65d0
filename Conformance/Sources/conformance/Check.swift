import ConformanceModel
import ConformanceOpenCombine
import ConformanceStreams

/// How one pipeline fares: both libraries' logs and whether, and where, they disagree.
///
/// With `upstream`, the logs also carry what the pipeline does to its source (`upstream subscribed`,
/// `upstream demand n`, `upstream cancel`); the subscriber's lines are still judged on their own first, so a
/// case disagrees *at the subscriber* exactly as without `upstream`, and disagrees *upstream only* when the
/// subscriber sees the same events but the source is asked for, or cancelled, differently.
struct Check {
    /// Whether the logs include the source's side.
    let upstream: Bool

    /// Where two logs differ.
    enum Verdict: Equatable {
        case agree
        /// The subscriber sees different events (or, for a pipeline without a reference, a contract violation).
        case atSubscriber
        /// The subscriber sees the same events; the source is asked for values or cancelled differently.
        case upstreamOnly
        /// The logs differ only in whether the pipeline subscribes to its source before or after it hands the
        /// subscriber its subscription (see ``canonicalHandshake(_:)``).
        case handshakeOrder
    }

    /// Streams' log.
    func streams(_ pipeline: Pipeline) -> [String] { StreamsRunner.run(pipeline, upstream: upstream) }

    /// OpenCombine's log, or a single line saying it crashed on this pipeline (it runs in a forked child).
    func reference(_ pipeline: Pipeline) -> [String] {
        isolated { OpenCombineRunner.run(pipeline, upstream: upstream) } ?? [openCombineCrashed]
    }

    /// Where the libraries disagree on `pipeline`. A pipeline OpenCombine cannot run (``Pipeline/hasReference``)
    /// is judged against the contract alone: it fails when Streams' subscriber notes a violation.
    func verdict(_ pipeline: Pipeline) -> Verdict {
        let ours = streams(pipeline)
        guard pipeline.hasReference else {
            return ours.contains(where: { $0.contains(" ! ") }) ? .atSubscriber : .agree
        }
        let theirs = reference(pipeline)
        if ours == theirs { return .agree }
        guard subscriberLines(ours) == subscriberLines(theirs) else { return .atSubscriber }
        return canonicalHandshake(ours) == canonicalHandshake(theirs) ? .handshakeOrder : .upstreamOnly
    }

    /// The known difference that explains how the (shrunk) `pipeline` disagrees, if any: a subscriber-side tag
    /// for `.atSubscriber`, a source-side tag otherwise. Never for a pipeline without a reference.
    func knownDifference(_ pipeline: Pipeline, _ verdict: Verdict) -> KnownDifference? {
        guard pipeline.hasReference, verdict != .agree else { return nil }
        let ours = streams(pipeline)
        let theirs = reference(pipeline)
        if verdict == .atSubscriber {
            return KnownDifference.explaining(pipeline, streams: subscriberLines(ours), openCombine: subscriberLines(theirs))
        }
        return KnownDifference.explainingUpstream(
            pipeline, streams: canonicalHandshake(ours), openCombine: canonicalHandshake(theirs))
    }
}

/// The log with its opening handshake in one order: among the lines before the first event that is neither
/// the subscriber's `subscription` nor the source's `upstream subscribed`, the source's lines come first.
/// Two logs equal in this form differ only in which the pipeline does first: subscribe to its source, or
/// hand its subscriber the subscription.
func canonicalHandshake(_ log: [String]) -> [String] {
    let end = log.firstIndex { !$0.hasSuffix(" subscription") && !$0.hasSuffix(" upstream subscribed") } ?? log.endIndex
    let handshake = log[..<end]
    return handshake.filter { $0.hasSuffix(" upstream subscribed") } + handshake.filter { $0.hasSuffix(" subscription") }
        + log[end...]
}

/// The log without the source's side: what the subscriber sees.
func subscriberLines(_ log: [String]) -> [String] { log.filter { !$0.contains(" upstream ") } }
