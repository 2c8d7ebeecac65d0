/// A publisher that replays a recorded list of values and then a recorded completion — Combine's `Record`.
///
/// - Demand: the values go out as requested, in order; the completion follows the last one at once (a
///   completion needs no demand, so an empty recording with a failure fails on subscription).
/// - Every subscriber gets the whole recording from the start.
/// - Threading: delivers on the thread that subscribes or requests.
///
/// ```swift
/// let record = Record<Int, Never>(output: [1, 2, 3], completion: .finished)
/// let recorded = Record<Int, TestError> { recording in
///     recording.receive(1)
///     recording.receive(completion: .failure(TestError()))
/// }
/// ```
public struct Record<Output, Failure: Error>: Publisher {
    /// The values replayed, in order.
    public let recording: Recording

    /// A record of `output` followed by `completion`.
    @inlinable
    public init(output: [Output], completion: Subscribers.Completion<Failure>) {
        recording = Recording(output: output, completion: completion)
    }

    /// A record of what `record` receives; a recording the closure did not complete finishes.
    public init(record: (inout Recording) -> Void) {
        var recording = Recording()
        record(&recording)
        recording.receive(completion: .finished)
        self.recording = recording
    }

    /// A record of `recording`.
    @inlinable
    public init(recording: Recording) {
        self.recording = recording
    }

    /// Attaches `subscriber`: it receives the recorded values as it requests them, then the completion.
    @inlinable
    public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
        let values = recording.output.publisher.setFailureType(to: Failure.self)
        switch recording.completion {
        case .finished: values.receive(subscriber: subscriber)
        case .failure(let error): values.append(Fail(error: error)).receive(subscriber: subscriber)
        }
    }
}

extension Record {
    /// Values and a completion, collected by `receive(_:)` and `receive(completion:)`.
    ///
    /// Once completed, a recording keeps what it has: later values and completions are ignored (Combine stops
    /// the program instead).
    public struct Recording {
        /// The values received so far.
        public private(set) var output: [Output]
        /// The completion received (`.finished` until one is received).
        public private(set) var completion: Subscribers.Completion<Failure>
        var isCompleted: Bool

        /// An empty recording.
        public init() {
            output = []
            completion = .finished
            isCompleted = false
        }

        /// A completed recording of `output` and `completion`.
        public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
            self.output = output
            self.completion = completion
            isCompleted = true
        }

        /// Records `input`, unless the recording is complete.
        public mutating func receive(_ input: Output) {
            if !isCompleted { output.append(input) }
        }

        /// Records `completion` and completes the recording, unless it is complete already.
        public mutating func receive(completion: Subscribers.Completion<Failure>) {
            guard !isCompleted else { return }
            self.completion = completion
            isCompleted = true
        }
    }
}

/// A record encodes its recording (under `recording`), as in Combine.
extension Record: Codable where Output: Codable, Failure: Codable {}

/// Combine's encoding of a recording: its `output` array and its `completion`; a decoded recording is complete.
extension Record.Recording: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case output
        case completion
    }

    /// Decodes a complete recording.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            output: try container.decode([Output].self, forKey: .output),
            completion: try container.decode(Subscribers.Completion<Failure>.self, forKey: .completion))
    }

    /// Encodes the values and the completion.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(output, forKey: .output)
        try container.encode(completion, forKey: .completion)
    }

    /// Encodes the recording into `encoder` (Combine's name for ``encode(to:)``).
    public func encode(into encoder: any Encoder) throws {
        try encode(to: encoder)
    }
}
