// Combine's overloads of the operators for `Result.Publisher`: the operator runs on the result at once, when it
// is applied, and the result is again a `Result.Publisher` (or `Empty`): the types Combine returns, so code
// that names them ports by swapping the import. Closures run at most once, before anything is subscribed, as
// in Combine; on a failure they do not run and the failure passes through. The `try` forms turn a thrown error
// into the failure, typed `any Error`.

extension Result.Publisher where Output: Equatable {
    /// Whether the success value equals `output` (Combine's overload).
    @inlinable
    public func contains(_ output: Output) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map { $0 == output })
    }

    /// This publisher: one value has no repeats (Combine's overload).
    @inlinable
    public func removeDuplicates() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher where Output: Comparable {
    /// This publisher: the least of at most one value (Combine's overload).
    @inlinable
    public func min() -> Result<Output, Failure>.Publisher { self }

    /// This publisher: the greatest of at most one value (Combine's overload).
    @inlinable
    public func max() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher {
    /// Whether the success value satisfies `predicate` (Combine's overload).
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Whether the success value satisfies the throwing `predicate` (Combine's overload).
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(result.mapSuccessThrowing(predicate))
    }

    /// Whether the success value satisfies `predicate` (Combine's overload).
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Whether the success value satisfies the throwing `predicate` (Combine's overload).
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(result.mapSuccessThrowing(predicate))
    }

    /// The success value in a one-element array (Combine's overload).
    @inlinable
    public func collect() -> Result<[Output], Failure>.Publisher {
        Result<[Output], Failure>.Publisher(result.map { [$0] })
    }

    /// This publisher: the least of at most one value; `areInIncreasingOrder` is not called (Combine's
    /// overload).
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// The success value, or the error the throwing `areInIncreasingOrder` throws when called with the value
    /// twice (Combine's overload).
    @inlinable
    public func tryMin(by areInIncreasingOrder: (Output, Output) throws -> Bool) -> Result<Output, any Error>.Publisher
    {
        Result<Output, any Error>.Publisher(result.checkedThrowing(areInIncreasingOrder))
    }

    /// This publisher: the greatest of at most one value; `areInIncreasingOrder` is not called (Combine's
    /// overload).
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// The success value, or the error the throwing `areInIncreasingOrder` throws when called with the value
    /// twice (Combine's overload).
    @inlinable
    public func tryMax(by areInIncreasingOrder: (Output, Output) throws -> Bool) -> Result<Output, any Error>.Publisher
    {
        Result<Output, any Error>.Publisher(result.checkedThrowing(areInIncreasingOrder))
    }

    /// One, for a success (Combine's overload).
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(result.map { _ in 1 })
    }

    /// This publisher: its value is the first (Combine's overload).
    @inlinable
    public func first() -> Result<Output, Failure>.Publisher { self }

    /// This publisher: its value is the last (Combine's overload).
    @inlinable
    public func last() -> Result<Output, Failure>.Publisher { self }

    /// An `Empty` that finishes at once (Combine's overload; as in Combine, a failure is not kept: the type it
    /// returns cannot fail).
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> { Empty() }

    /// The success value transformed by `transform` (Combine's overload).
    ///
    /// ```swift
    /// let doubled: Result<Int, ParseError>.Publisher = Result.success(21).publisher.map { $0 * 2 }
    /// ```
    @inlinable
    public func map<ElementOfResult>(
        _ transform: (Output) -> ElementOfResult
    ) -> Result<ElementOfResult, Failure>.Publisher {
        Result<ElementOfResult, Failure>.Publisher(result.map(transform))
    }

    /// The success value transformed by the throwing `transform` (Combine's overload).
    @inlinable
    public func tryMap<ElementOfResult>(
        _ transform: (Output) throws -> ElementOfResult
    ) -> Result<ElementOfResult, any Error>.Publisher {
        Result<ElementOfResult, any Error>.Publisher(result.mapSuccessThrowing(transform))
    }

    /// The failure transformed by `transform` (Combine's overload).
    @inlinable
    public func mapError<TransformedFailure: Error>(
        _ transform: (Failure) -> TransformedFailure
    ) -> Result<Output, TransformedFailure>.Publisher {
        Result<Output, TransformedFailure>.Publisher(result.mapError(transform))
    }

    /// This publisher: one value has no repeats; `predicate` is not called (Combine's overload).
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// The success value, or the error the throwing `predicate` throws when called with the value twice
    /// (Combine's overload).
    @inlinable
    public func tryRemoveDuplicates(
        by predicate: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        Result<Output, any Error>.Publisher(result.checkedThrowing(predicate))
    }

    /// The success value, or `output` in place of a failure (Combine's overload).
    @inlinable
    public func replaceError(with output: Output) -> Result<Output, Never>.Publisher {
        switch result {
        case .success(let value): Result<Output, Never>.Publisher(.success(value))
        case .failure: Result<Output, Never>.Publisher(.success(output))
        }
    }

    /// This publisher: it is never empty (Combine's overload).
    @inlinable
    public func replaceEmpty(with output: Output) -> Result<Output, Failure>.Publisher { self }

    /// This publisher: a retry would produce the same result (Combine's overload).
    @inlinable
    public func retry(_ times: Int) -> Result<Output, Failure>.Publisher { self }

    /// The success value folded into `initialResult` by `nextPartialResult` (Combine's overload).
    @inlinable
    public func reduce<Accumulator>(
        _ initialResult: Accumulator,
        _ nextPartialResult: (Accumulator, Output) -> Accumulator
    ) -> Result<Accumulator, Failure>.Publisher {
        Result<Accumulator, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// The success value folded by the throwing `nextPartialResult` (Combine's overload).
    @inlinable
    public func tryReduce<Accumulator>(
        _ initialResult: Accumulator,
        _ nextPartialResult: (Accumulator, Output) throws -> Accumulator
    ) -> Result<Accumulator, any Error>.Publisher {
        Result<Accumulator, any Error>.Publisher(result.mapSuccessThrowing { try nextPartialResult(initialResult, $0) })
    }

    /// The one intermediate result, as `reduce(_:_:)` computes it (Combine's overload).
    @inlinable
    public func scan<ElementOfResult>(
        _ initialResult: ElementOfResult,
        _ nextPartialResult: (ElementOfResult, Output) -> ElementOfResult
    ) -> Result<ElementOfResult, Failure>.Publisher {
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
}

extension Result.Publisher where Failure == Never {
    /// The success value, typed as able to fail with `NewFailure` (Combine's overload).
    @inlinable
    public func setFailureType<NewFailure: Error>(
        to failureType: NewFailure.Type
    ) -> Result<Output, NewFailure>.Publisher {
        switch result {
        case .success(let value): Result<Output, NewFailure>.Publisher(.success(value))
        }
    }
}

extension Result {
    /// The success value transformed by the throwing `transform`; a failure, or a thrown error, as `any Error`.
    @inlinable
    func mapSuccessThrowing<NewSuccess>(_ transform: (Success) throws -> NewSuccess) -> Result<NewSuccess, any Error> {
        switch self {
        case .success(let value): Result<NewSuccess, any Error> { try transform(value) }
        case .failure(let error): .failure(error)
        }
    }

    /// The success value once `check` has run on it twice without throwing (Combine's `try` forms of
    /// operators that would compare the one value with itself).
    @inlinable
    func checkedThrowing(_ check: (Success, Success) throws -> Bool) -> Result<Success, any Error> {
        mapSuccessThrowing { value in
            _ = try check(value, value)
            return value
        }
    }
}
