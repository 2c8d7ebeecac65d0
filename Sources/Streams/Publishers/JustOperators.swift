// Combine's overloads of the operators for `Just`: the operator runs on the one value at once, when it is
// applied, and the result is again a `Just`, or an `Optional.Publisher` where the value may be dropped, a
// `Result.Publisher` where it may fail, `Empty` or a publisher of a sequence: the types Combine returns, so
// code that names them ports by swapping the import. Closures run once, before anything is subscribed, as
// in Combine.

extension Just where Output: Comparable {
    /// This value, the least of one (Combine's overload).
    @inlinable
    public func min() -> Just<Output> { self }

    /// This value, the greatest of one (Combine's overload).
    @inlinable
    public func max() -> Just<Output> { self }
}

extension Just where Output: Equatable {
    /// Whether the value equals `output` (Combine's overload).
    @inlinable
    public func contains(_ output: Output) -> Just<Bool> { Just<Bool>(self.output == output) }

    /// This value: one value has no repeats (Combine's overload).
    @inlinable
    public func removeDuplicates() -> Just<Output> { self }
}

extension Just {
    /// Whether the value satisfies `predicate`, computed at once (Combine's overload).
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

    /// Whether the value satisfies the throwing `predicate`, computed at once; a thrown error becomes the
    /// failure (Combine's overload).
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try predicate(output) })
    }

    /// Whether the value satisfies `predicate`, computed at once (Combine's overload).
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

    /// Whether the value satisfies the throwing `predicate`, computed at once; a thrown error becomes the
    /// failure (Combine's overload).
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try predicate(output) })
    }

    /// The value in a one-element array (Combine's overload).
    @inlinable
    public func collect() -> Just<[Output]> { Just<[Output]>([output]) }

    /// This value, the least of one; `areInIncreasingOrder` is not called (Combine's overload).
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

    /// This value, the greatest of one; `areInIncreasingOrder` is not called (Combine's overload).
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

    /// One: the number of values (Combine's overload).
    @inlinable
    public func count() -> Just<Int> { Just<Int>(1) }

    /// The value, unless `count` is at least one (Combine's overload). `count` must not be negative.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(output).dropFirst(count)
    }

    /// The value, unless it satisfies `predicate` (Combine's overload).
    @inlinable
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? nil : output)
    }

    /// This value, the first (Combine's overload).
    @inlinable
    public func first() -> Just<Output> { self }

    /// The value if it satisfies `predicate` (Combine's overload).
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// This value, the last (Combine's overload).
    @inlinable
    public func last() -> Just<Output> { self }

    /// The value if it satisfies `predicate` (Combine's overload).
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// No value, only `.finished` (Combine's overload).
    @inlinable
    public func ignoreOutput() -> Empty<Output, Never> { Empty() }

    /// The value transformed by `transform`, computed at once (Combine's overload).
    ///
    /// ```swift
    /// let doubled: Just<Int> = Just(21).map { $0 * 2 }
    /// ```
    @inlinable
    public func map<ElementOfResult>(_ transform: (Output) -> ElementOfResult) -> Just<ElementOfResult> {
        Just<ElementOfResult>(transform(output))
    }

    /// The value transformed by the throwing `transform`, computed at once; a thrown error becomes the failure
    /// (Combine's overload).
    @inlinable
    public func tryMap<ElementOfResult>(
        _ transform: (Output) throws -> ElementOfResult
    ) -> Result<ElementOfResult, any Error>.Publisher {
        Result<ElementOfResult, any Error>.Publisher(Result { try transform(output) })
    }

    /// The result of `transform`, unless it is `nil` (Combine's overload).
    @inlinable
    public func compactMap<ElementOfResult>(
        _ transform: (Output) -> ElementOfResult?
    ) -> Optional<ElementOfResult>.Publisher {
        Optional<ElementOfResult>.Publisher(transform(output))
    }

    /// The value if it satisfies `isIncluded` (Combine's overload).
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(isIncluded(output) ? output : nil)
    }

    /// The value if `index` is 0 (Combine's overload). `index` must not be negative.
    @inlinable
    public func output(at index: Int) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(output).output(at: index)
    }

    /// The value if `range` starts at 0 (Combine's overload; as in Combine, also for the empty range `0..<0`).
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        Optional<Output>.Publisher(range.relative(to: 0..<Int.max).lowerBound == 0 ? output : nil)
    }

    /// The value if `maxLength` is at least one (Combine's overload). `maxLength` must not be negative.
    @inlinable
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(output).prefix(maxLength)
    }

    /// The value if it satisfies `predicate` (Combine's overload).
    @inlinable
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// The value, typed as able to fail with `Failure` (Combine's overload).
    @inlinable
    public func setFailureType<Failure: Error>(to failureType: Failure.Type) -> Result<Output, Failure>.Publisher {
        Result<Output, Failure>.Publisher(.success(output))
    }

    /// The value, typed as able to fail with `Failure`; `transform` is never called (Combine's overload).
    @inlinable
    public func mapError<Failure: Error>(_ transform: (Never) -> Failure) -> Result<Output, Failure>.Publisher {
        Result<Output, Failure>.Publisher(.success(output))
    }

    /// This value: one value has no repeats; `predicate` is not called (Combine's overload).
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> { self }

    /// The value, or the error the throwing `predicate` throws when called with the value twice (Combine's
    /// overload).
    @inlinable
    public func tryRemoveDuplicates(
        by predicate: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        Result<Output, any Error>.Publisher(
            Result {
                _ = try predicate(output, output)
                return output
            })
    }

    /// This value: `Just` never fails (Combine's overload).
    @inlinable
    public func replaceError(with output: Output) -> Just<Output> { self }

    /// This value: `Just` is never empty (Combine's overload).
    @inlinable
    public func replaceEmpty(with output: Output) -> Just<Output> { self }

    /// This value: `Just` never fails, so there is nothing to retry (Combine's overload).
    @inlinable
    public func retry(_ times: Int) -> Just<Output> { self }

    /// The value folded into `initialResult` by `nextPartialResult`, computed at once (Combine's overload).
    @inlinable
    public func reduce<Accumulator>(
        _ initialResult: Accumulator,
        _ nextPartialResult: (Accumulator, Output) -> Accumulator
    ) -> Result<Accumulator, Never>.Publisher {
        Result<Accumulator, Never>.Publisher(.success(nextPartialResult(initialResult, output)))
    }

    /// The value folded by the throwing `nextPartialResult`, computed at once; a thrown error becomes the
    /// failure (Combine's overload).
    @inlinable
    public func tryReduce<Accumulator>(
        _ initialResult: Accumulator,
        _ nextPartialResult: (Accumulator, Output) throws -> Accumulator
    ) -> Result<Accumulator, any Error>.Publisher {
        Result<Accumulator, any Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
    }

    /// The one intermediate result, as `reduce(_:_:)` computes it (Combine's overload).
    @inlinable
    public func scan<ElementOfResult>(
        _ initialResult: ElementOfResult,
        _ nextPartialResult: (ElementOfResult, Output) -> ElementOfResult
    ) -> Result<ElementOfResult, Never>.Publisher {
        reduce(initialResult, nextPartialResult)
    }

    /// The one intermediate result, as `tryReduce(_:_:)` computes it (Combine's overload).
    @inlinable
    public func tryScan<ElementOfResult>(
        _ initialResult: ElementOfResult,
        _ nextPartialResult: (ElementOfResult, Output) throws -> ElementOfResult
    ) -> Result<ElementOfResult, any Error>.Publisher {
        tryReduce(initialResult, nextPartialResult)
    }

    /// `elements`, then the value, as a publisher of an array (Combine's overload).
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
        prepend(elements)
    }

    /// `elements`, then the value, as a publisher of an array (Combine's overload).
    @inlinable
    public func prepend<Elements: Sequence>(
        _ elements: Elements
    ) -> Publishers.Sequence<[Output], Never> where Elements.Element == Output {
        Publishers.Sequence<[Output], Never>(sequence: Array(elements) + [output])
    }

    /// The value, then `elements`, as a publisher of an array (Combine's overload).
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
        append(elements)
    }

    /// The value, then `elements`, as a publisher of an array (Combine's overload).
    @inlinable
    public func append<Elements: Sequence>(
        _ elements: Elements
    ) -> Publishers.Sequence<[Output], Never> where Elements.Element == Output {
        Publishers.Sequence<[Output], Never>(sequence: [output] + Array(elements))
    }
}
