import Streams

/// A parsed marble diagram: the events it describes, each with its time from the diagram's zero column.
///
/// Syntax (one character, one frame; the frame's length is the scheduler's `frameDuration`, 1 ms by
/// default):
///
/// | Mark | Meaning |
/// | --- | --- |
/// | `-` | one frame passes |
/// | a letter or digit | a value: `values[character]`, or the character itself as a `String` |
/// | `\|` | finished |
/// | `#` | failed with the `error:` argument |
/// | `(ab)` | several events in the same frame; the whole group takes one frame |
/// | `^` | the zero column of a hot diagram (earlier events are in the past) |
/// | space | ignored, for aligning diagrams under each other |
/// | ` 20ms `, ` 1.5s ` | (between spaces) that much time passes |
///
/// Each value, `|`, `#` and `^` takes one frame, so in `"-a-b|"` `a` is at frame 1, `b` at frame 3 and the
/// completion at frame 4. Invalid diagrams throw ``MarbleError`` naming the column.
///
/// ```swift
/// let diagram = try MarbleDiagram<Int, Never>("--a--(bc)--|", values: ["a": 1, "b": 2, "c": 3])
/// diagram.events  // [.value(1, at: 2 ms), .value(2, at: 5 ms), .value(3, at: 5 ms), .finished(at: 8 ms)]
/// ```
public struct MarbleDiagram<Output, Failure: Error> {
    /// The diagram as written.
    public let text: String
    /// The events, in order, timed from the zero column (the `^` if there is one, else the first column).
    /// Events left of a `^` have negative times.
    public let events: [RecordedEvent<Output, Failure>]
    /// The length of one frame.
    public let frame: Duration
    /// The character each event came from, parallel to ``events`` (used to render failures).
    let symbols: [Character]

    /// Parses `text`.
    ///
    /// - Parameters:
    ///   - text: the diagram.
    ///   - values: the value of each value character. A character missing from it stands for itself when
    ///     `Output` is `String` or `Character`; otherwise it is an error.
    ///   - error: the failure `#` stands for; a `#` without it is an error.
    ///   - frame: the length of one frame (default 1 ms).
    ///   - allowsZeroColumn: whether `^` may appear (hot diagrams and expectations; not cold ones).
    /// - Throws: ``MarbleError`` for any invalid diagram.
    public init(
        _ text: String, values: [Character: Output] = [:], error: Failure? = nil,
        frame: Duration = .milliseconds(1), allowsZeroColumn: Bool = true
    ) throws(MarbleError) {
        let tokens = try MarbleParser.tokens(of: text, frame: frame)
        var zero = Duration.zero
        var zeroColumn: Int?
        for token in tokens where token.kind == .subscription {
            guard allowsZeroColumn else {
                throw MarbleError(
                    diagram: text, column: token.column,
                    reason: "'^' marks the subscription point of a hot diagram; a cold diagram starts when subscribed")
            }
            if let zeroColumn {
                throw MarbleError(
                    diagram: text, column: token.column, reason: "a second '^' (the first is at column \(zeroColumn))")
            }
            zeroColumn = token.column
            zero = token.time
        }
        var events: [RecordedEvent<Output, Failure>] = []
        var symbols: [Character] = []
        var completionColumn: Int?
        for token in tokens {
            let time = token.time - zero
            if let completionColumn, token.kind != .subscription {
                throw MarbleError(
                    diagram: text, column: token.column,
                    reason: "an event after the completion at column \(completionColumn)")
            }
            switch token.kind {
            case .subscription:
                continue
            case .cancellation:
                throw MarbleError(
                    diagram: text, column: token.column, reason: "'!' belongs in subscription diagrams only")
            case .finished:
                events.append(.finished(at: time))
                symbols.append("|")
                completionColumn = token.column
            case .failure:
                guard let error else {
                    throw MarbleError(
                        diagram: text, column: token.column, reason: "'#' needs an error: argument to stand for")
                }
                events.append(.failure(error, at: time))
                symbols.append("#")
                completionColumn = token.column
            case .value(let character):
                guard let value = values[character] ?? Self.literal(character) else {
                    let reason =
                        if !values.isEmpty {
                            "no value for '\(character)' in values:"
                        } else if character.isLetter || character.isNumber {
                            "'\(character)' needs a values: dictionary (the output type is \(Output.self))"
                        } else {
                            "unexpected '\(character)': a value is a letter or a digit, or a key of values:"
                        }
                    throw MarbleError(diagram: text, column: token.column, reason: reason)
                }
                events.append(.value(value, at: time))
                symbols.append(character)
            }
        }
        self.text = text
        self.events = events
        self.symbols = symbols
        self.frame = frame
    }

    /// `character` as an `Output` when `Output` is `String` or `Character`, if it is a letter or a digit.
    static func literal(_ character: Character) -> Output? {
        guard character.isLetter || character.isNumber else { return nil }
        return (String(character) as? Output) ?? (character as? Output)
    }
}

extension MarbleDiagram: Sendable where Output: Sendable, Failure: Sendable {}

/// When one subscription started and, if it was cancelled, when; times from the publisher's zero column.
///
/// A subscription that ended with a completion is not cancelled (the Combine contract: a completed
/// subscriber never cancels), so its ``cancelled`` stays `nil`.
public struct SubscriptionPeriod: Equatable, Sendable, CustomStringConvertible {
    /// When the subscriber subscribed.
    public var subscribed: Duration
    /// When the subscription was cancelled, or `nil` if it never was.
    public var cancelled: Duration?

    /// A period from `subscribed` to `cancelled` (`nil`: never cancelled).
    public init(subscribed: Duration, cancelled: Duration? = nil) {
        self.subscribed = subscribed
        self.cancelled = cancelled
    }

    /// Parses a subscription diagram: `^` where the subscription starts, `!` where it is cancelled
    /// (optional), `-` frames, spaces for alignment, `(^!)` both in one frame.
    ///
    /// ```swift
    /// try SubscriptionPeriod("--^---!")  // subscribed at 2 ms, cancelled at 6 ms
    /// ```
    /// - Throws: ``MarbleError`` for a missing or second `^`, a `!` before `^`, or any event mark.
    public init(_ diagram: String, frame: Duration = .milliseconds(1)) throws(MarbleError) {
        var subscribed: Duration?
        var cancelled: Duration?
        for token in try MarbleParser.tokens(of: diagram, frame: frame) {
            switch token.kind {
            case .subscription:
                if subscribed != nil {
                    throw MarbleError(diagram: diagram, column: token.column, reason: "a second '^'")
                }
                subscribed = token.time
            case .cancellation:
                guard subscribed != nil else {
                    throw MarbleError(diagram: diagram, column: token.column, reason: "'!' before the '^'")
                }
                if cancelled != nil {
                    throw MarbleError(diagram: diagram, column: token.column, reason: "a second '!'")
                }
                cancelled = token.time
            case .value, .finished, .failure:
                throw MarbleError(
                    diagram: diagram, column: token.column,
                    reason: "a subscription diagram has only '^', '!', '-' and spaces")
            }
        }
        guard let subscribed else {
            throw MarbleError(
                diagram: diagram, column: diagram.count + 1, reason: "a subscription diagram needs a '^'")
        }
        self.init(subscribed: subscribed, cancelled: cancelled)
    }

    /// E.g. `subscribed at 2 ms, cancelled at 6 ms`.
    public var description: String {
        let start = "subscribed at \(MarbleTime.format(subscribed))"
        guard let cancelled else { return start + ", never cancelled" }
        return start + ", cancelled at \(MarbleTime.format(cancelled))"
    }
}
