extension TestScheduler {
    /// A hot ``TestPublisher`` playing `diagram` once, from now (the `^` column), on this scheduler.
    ///
    /// ```swift
    /// let clicks = try scheduler.hot("-a--b-^-c--d--|", values: ["a": 1, "b": 2, "c": 3, "d": 4])
    /// ```
    /// - Throws: ``MarbleError`` for an invalid diagram (with its column).
    public func hot<Output>(_ diagram: String, values: [Character: Output]) throws(MarbleError)
        -> TestPublisher<Output, Never>
    {
        try makeHot(diagram, values: values, error: nil)
    }

    /// A hot ``TestPublisher`` whose `#` fails with `error`.
    public func hot<Output, Failure: Error>(_ diagram: String, values: [Character: Output], error: Failure)
        throws(MarbleError) -> TestPublisher<Output, Failure>
    {
        try makeHot(diagram, values: values, error: error)
    }

    /// A hot ``TestPublisher`` of `String`s: each value character stands for itself.
    ///
    /// ```swift
    /// let input = try scheduler.hot("-a-b------c|")
    /// ```
    public func hot(_ diagram: String) throws(MarbleError) -> TestPublisher<String, Never> {
        try makeHot(diagram, values: [:], error: nil)
    }

    /// A hot ``TestPublisher`` of `String`s whose `#` fails with `error`.
    public func hot<Failure: Error>(_ diagram: String, error: Failure) throws(MarbleError)
        -> TestPublisher<String, Failure>
    {
        try makeHot(diagram, values: [:], error: error)
    }

    /// A cold ``TestPublisher``: each subscription plays the next of `timelines` from the moment it subscribes
    /// (the last timeline repeats; none at all: it never emits).
    ///
    /// ```swift
    /// let attempts = try scheduler.cold("--#", "--a|", values: ["a": 42], error: TestError())
    /// ```
    /// - Throws: ``MarbleError`` for an invalid diagram (a cold diagram has no `^`).
    public func cold<Output>(_ timelines: String..., values: [Character: Output]) throws(MarbleError)
        -> TestPublisher<Output, Never>
    {
        try makeCold(timelines, values: values, error: nil)
    }

    /// A cold ``TestPublisher`` whose `#` fails with `error`.
    public func cold<Output, Failure: Error>(_ timelines: String..., values: [Character: Output], error: Failure)
        throws(MarbleError) -> TestPublisher<Output, Failure>
    {
        try makeCold(timelines, values: values, error: error)
    }

    /// A cold ``TestPublisher`` of `String`s: each value character stands for itself.
    ///
    /// ```swift
    /// let response = try scheduler.cold("---(r|)")
    /// ```
    public func cold(_ timelines: String...) throws(MarbleError) -> TestPublisher<String, Never> {
        try makeCold(timelines, values: [:], error: nil)
    }

    /// A cold ``TestPublisher`` of `String`s whose `#` fails with `error`.
    public func cold<Failure: Error>(_ timelines: String..., error: Failure) throws(MarbleError)
        -> TestPublisher<String, Failure>
    {
        try makeCold(timelines, values: [:], error: error)
    }

    private func makeHot<Output, Failure: Error>(
        _ diagram: String, values: [Character: Output], error: Failure?
    ) throws(MarbleError) -> TestPublisher<Output, Failure> {
        let parsed = try MarbleDiagram(diagram, values: values, error: error, frame: frameDuration)
        return TestPublisher(kind: .hot, timelines: [parsed], scheduler: self)
    }

    private func makeCold<Output, Failure: Error>(
        _ timelines: [String], values: [Character: Output], error: Failure?
    ) throws(MarbleError) -> TestPublisher<Output, Failure> {
        var parsed: [MarbleDiagram<Output, Failure>] = []
        for timeline in timelines {
            parsed.append(
                try MarbleDiagram(timeline, values: values, error: error, frame: frameDuration, allowsZeroColumn: false)
            )
        }
        return TestPublisher(kind: .cold, timelines: parsed, scheduler: self)
    }
}
