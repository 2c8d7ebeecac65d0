extension TestRecorder {
    /// What the recorder saw, as a marble diagram (frame 0 is its scheduler's time zero; the frame is the
    /// ``TestScheduler/frameDuration``, else 1 ms). A value whose description is one letter or digit stands
    /// for itself; others get a letter explained by a `where …` legend after the diagram.
    ///
    /// ```swift
    /// print(recorder.marbles)   // "--a--b--|"
    /// ```
    public var marbles: String { marbles(lookup: { _ in nil }, reserved: []) }

    /// What the recorder saw, as a marble diagram, writing each value as its key in `values` where there is one.
    ///
    /// ```swift
    /// #expect(recorder.marbles(values: ["a": 1, "b": 2]) == "-a-b|")
    /// ```
    public func marbles(values: [Character: Input]) -> String where Input: Equatable {
        let keys = values.keys.sorted()
        return marbles(lookup: { value in keys.first { values[$0] == value } }, reserved: Set(values.keys))
    }

    private func marbles(lookup: @escaping (Input) -> Character?, reserved: Set<Character>) -> String {
        let recorded = events
        var symbols = MarbleSymbols<Input>(lookup: lookup, reserved: reserved)
        symbols.reserveLiterals(recorded.compactMap(\.value))
        let marks = symbols.marks(for: recorded)
        let frame = (clock as? TestScheduler)?.frameDuration ?? .milliseconds(1)
        let diagram = MarbleRenderer(frame: frame).render([marks]).diagrams[0]
        return symbols.legendText.isEmpty ? diagram : diagram + "  " + symbols.legendText
    }
}
