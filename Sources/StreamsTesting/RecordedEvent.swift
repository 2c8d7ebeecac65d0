import Streams

/// One event a ``TestRecorder`` saw, stamped with the virtual time (offset from the scheduler's origin).
///
/// Equatable when `Output` is: failures compare with `==` when the error type is `Equatable`, otherwise
/// by type and description, so `Failure` need not be `Equatable` (nor `Void`-like) to be asserted on.
///
/// ```swift
/// #expect(recorder.events == [.value("ip", at: .milliseconds(600)), .finished(at: .milliseconds(600))])
/// ```
public enum RecordedEvent<Output, Failure: Error> {
    /// A value and when it arrived.
    case value(Output, at: Duration)
    /// Normal completion and when it arrived.
    case finished(at: Duration)
    /// Failure and when it arrived.
    case failure(Failure, at: Duration)

    /// When the event arrived.
    public var time: Duration {
        switch self {
        case .value(_, let time), .finished(let time), .failure(_, let time): return time
        }
    }

    /// The value, if this is a value event.
    public var value: Output? {
        if case .value(let value, _) = self { return value }
        return nil
    }
}

extension RecordedEvent: Equatable where Output: Equatable {
    /// Same kind, same time, equal value or equivalent failure.
    public static func == (lhs: RecordedEvent, rhs: RecordedEvent) -> Bool {
        switch (lhs, rhs) {
        case (.value(let a, let t1), .value(let b, let t2)): return a == b && t1 == t2
        case (.finished(let t1), .finished(let t2)): return t1 == t2
        case (.failure(let a, let t1), .failure(let b, let t2)): return t1 == t2 && errorsMatch(a, b)
        default: return false
        }
    }
}

/// Compares two errors: with `==` when their type is `Equatable`, else by type and description.
public func errorsMatch(_ lhs: any Error, _ rhs: any Error) -> Bool {
    if let equatable = lhs as? any Equatable { return equatable.isEqual(toAny: rhs) }
    return type(of: lhs) == type(of: rhs) && String(describing: lhs) == String(describing: rhs)
}

extension Equatable {
    fileprivate func isEqual(toAny other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}

extension RecordedEvent: CustomStringConvertible {
    /// E.g. `value(3) at 0.5 seconds`.
    public var description: String {
        switch self {
        case .value(let value, let time): return "value(\(value)) at \(time)"
        case .finished(let time): return "finished at \(time)"
        case .failure(let error, let time): return "failure(\(error)) at \(time)"
        }
    }
}

extension RecordedEvent: Sendable where Output: Sendable, Failure: Sendable {}
