// Combine's overloads of the operators for `Optional.Publisher`: the operator runs on the optional value at
// once, when it is applied, and the result is again an `Optional.Publisher` (or `Just`, `Empty`): the types
// Combine returns, so code that names them ports by swapping the import. Closures run at most once, before
// anything is subscribed, as in Combine. As in Combine, an operator that would publish a summary of no values
// (`contains`, `allSatisfy`, `count`, `reduce`, `collect` aside) publishes nothing for `nil`: the streaming
// operators, after `eraseToAnyPublisher()`, publish `false`, `true`, `0` or the initial result instead.

extension Optional.Publisher where Wrapped: Equatable {
    /// Whether the value equals `output`; nothing for `nil` (Combine's overload).
    @inlinable
    public func contains(_ output: Output) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(self.output.map { $0 == output })
    }

    /// This publisher: one value has no repeats (Combine's overload).
    @inlinable
    public func removeDuplicates() -> Optional<Wrapped>.Publisher { self }
}

extension Optional.Publisher where Wrapped: Comparable {
    /// This publisher: the least of at most one value (Combine's overload).
    @inlinable
    public func min() -> Optional<Wrapped>.Publisher { self }

    /// This publisher: the greatest of at most one value (Combine's overload).
    @inlinable
    public func max() -> Optional<Wrapped>.Publisher { self }
}

extension Optional.Publisher {
    /// Whether the value satisfies `predicate`; nothing for `nil` (Combine's overload).
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// The value in a one-element array, or an empty array for `nil` (Combine's overload).
    @inlinable
    public func collect() -> Optional<[Output]>.Publisher {
        Optional<[Output]>.Publisher(output.map { [$0] } ?? [])
    }

    /// The result of `transform` on the value, unless either is `nil` (Combine's overload).
    @inlinable
    public func compactMap<ElementOfResult>(
        _ transform: (Output) -> ElementOfResult?
    ) -> Optional<ElementOfResult>.Publisher {
        Optional<ElementOfResult>.Publisher(output.flatMap(transform))
    }

    /// This publisher: the least of at most one value; `areInIncreasingOrder` is not called (Combine's
    /// overload).
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher { self }

    /// This publisher: the greatest of at most one value; `areInIncreasingOrder` is not called (Combine's
    /// overload).
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher { self }

    /// Whether the value satisfies `predicate`; nothing for `nil` (Combine's overload).
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// One; nothing for `nil` (Combine's overload).
    @inlinable
    public func count() -> Optional<Int>.Publisher {
        Optional<Int>.Publisher(output.map { _ in 1 })
    }

    /// The value, unless `count` is at least one (Combine's overload). `count` must not be negative.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        precondition(count >= 0, "dropFirst(_:): count must not be negative")
        return Optional<Output>.Publisher(count > 0 ? nil : output)
    }

    /// The value, unless it satisfies `predicate` (Combine's overload).
    @inlinable
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(output.flatMap { predicate($0) ? nil : $0 })
    }

    /// This publisher: its value is the first (Combine's overload).
    @inlinable
    public func first() -> Optional<Output>.Publisher { self }

    /// The value if it satisfies `predicate` (Combine's overload).
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// This publisher: its value is the last (Combine's overload).
    @inlinable
    public func last() -> Optional<Output>.Publisher { self }

    /// The value if it satisfies `predicate` (Combine's overload).
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// The value if it satisfies `isIncluded` (Combine's overload).
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(output.flatMap { isIncluded($0) ? $0 : nil })
    }

    /// No value, only `.finished` (Combine's overload).
    @inlinable
    public func ignoreOutput() -> Empty<Output, Never> { Empty() }

    /// The value transformed by `transform`, computed at once (Combine's overload).
    ///
    /// ```swift
    /// let length: Optional<Int>.Publisher = Optional("abc").publisher.map(\.count)
    /// ```
    @inlinable
    public func map<ElementOfResult>(_ transform: (Output) -> ElementOfResult) -> Optional<ElementOfResult>.Publisher {
        Optional<ElementOfResult>.Publisher(output.map(transform))
    }

    /// The value if `index` is 0 (Combine's overload). `index` must not be negative.
    @inlinable
    public func output(at index: Int) -> Optional<Output>.Publisher {
        precondition(index >= 0, "output(at:): index must not be negative")
        return Optional<Output>.Publisher(index == 0 ? output : nil)
    }

    /// The value if `range` starts at 0 and is not empty (Combine's overload). Neither bound may be negative.
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        let positions = range.relative(to: 0..<Int.max)
        precondition(positions.lowerBound >= 0, "output(in:): the range's bounds must not be negative")
        return Optional<Output>.Publisher(positions.lowerBound == 0 && !positions.isEmpty ? output : nil)
    }

    /// The value if `maxLength` is at least one (Combine's overload). `maxLength` must not be negative.
    @inlinable
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        precondition(maxLength >= 0, "prefix(_:): maxLength must not be negative")
        return Optional<Output>.Publisher(maxLength > 0 ? output : nil)
    }

    /// The value if it satisfies `predicate` (Combine's overload).
    @inlinable
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// The value folded into `initialResult` by `nextPartialResult`; nothing for `nil` (Combine's overload).
    @inlinable
    public func reduce<Accumulator>(
        _ initialResult: Accumulator,
        _ nextPartialResult: (Accumulator, Output) -> Accumulator
    ) -> Optional<Accumulator>.Publisher {
        Optional<Accumulator>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }

    /// The one intermediate result, as `reduce(_:_:)` computes it; nothing for `nil` (Combine's overload).
    @inlinable
    public func scan<ElementOfResult>(
        _ initialResult: ElementOfResult,
        _ nextPartialResult: (ElementOfResult, Output) -> ElementOfResult
    ) -> Optional<ElementOfResult>.Publisher {
        reduce(initialResult, nextPartialResult)
    }

    /// This publisher: at most one value has no repeats; `predicate` is not called (Combine's overload).
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Optional<Output>.Publisher { self }

    /// This publisher: it never fails (Combine's overload).
    @inlinable
    public func replaceError(with output: Output) -> Optional<Output>.Publisher { self }

    /// The value, or `output` for `nil` (Combine's overload).
    @inlinable
    public func replaceEmpty(with output: Output) -> Just<Output> { Just<Output>(self.output ?? output) }

    /// This publisher: it never fails, so there is nothing to retry (Combine's overload).
    @inlinable
    public func retry(_ times: Int) -> Optional<Output>.Publisher { self }
}
