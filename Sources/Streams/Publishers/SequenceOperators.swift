// Combine's overloads of the operators for `Publishers.Sequence`: the operator runs on the sequence at once,
// when it is applied (not when a subscriber asks), and the result is again a publisher of a sequence, a
// `Result.Publisher`, an `Optional.Publisher`, `Just` or `Empty`: the types Combine returns, so code that names
// them ports by swapping the import. Each closure therefore runs once per element before anything is
// subscribed, as in Combine; use `eraseToAnyPublisher()` (or any stage before the operator) to get the
// streaming operator instead, for example over an endless sequence.

extension Publishers.Sequence {
    /// Whether every element satisfies `predicate`, computed at once (Combine's eager overload).
    ///
    /// ```swift
    /// let c = [2, 4].publisher.allSatisfy { $0 % 2 == 0 }.sink { print($0) }   // true
    /// ```
    @inlinable
    public func allSatisfy(_ predicate: (Elements.Element) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(.success(sequence.allSatisfy(predicate)))
    }

    /// Whether every element satisfies the throwing `predicate`, computed at once; a thrown error becomes the
    /// publisher's failure (Combine's eager overload).
    @inlinable
    public func tryAllSatisfy(_ predicate: (Elements.Element) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try sequence.allSatisfy(predicate) })
    }

    /// All the elements as one array, collected at once (Combine's eager overload).
    ///
    /// ```swift
    /// let c = (1...3).publisher.collect().sink { print($0) }   // [1, 2, 3]
    /// ```
    @inlinable
    public func collect() -> Result<[Elements.Element], Failure>.Publisher {
        Result<[Elements.Element], Failure>.Publisher(.success(Array(sequence)))
    }

    /// The non-`nil` results of `transform`, computed at once (Combine's eager overload).
    @inlinable
    public func compactMap<ElementOfResult>(
        _ transform: (Elements.Element) -> ElementOfResult?
    ) -> Publishers.Sequence<[ElementOfResult], Failure> {
        Publishers.Sequence<[ElementOfResult], Failure>(sequence: sequence.compactMap(transform))
    }

    /// Whether any element satisfies `predicate`, computed at once (Combine's eager overload).
    @inlinable
    public func contains(where predicate: (Elements.Element) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(.success(sequence.contains(where: predicate)))
    }

    /// Whether any element satisfies the throwing `predicate`, computed at once; a thrown error becomes the
    /// publisher's failure (Combine's eager overload).
    @inlinable
    public func tryContains(where predicate: (Elements.Element) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try sequence.contains(where: predicate) })
    }

    /// The elements after the leading ones that satisfy `predicate` (Combine's overload; the predicate runs
    /// at once over the leading elements).
    @inlinable
    public func drop(
        while predicate: (Elements.Element) -> Bool
    ) -> Publishers.Sequence<DropWhileSequence<Elements>, Failure> {
        Publishers.Sequence<DropWhileSequence<Elements>, Failure>(sequence: sequence.drop(while: predicate))
    }

    /// The elements after the first `count` (Combine's overload).
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
        Publishers.Sequence<DropFirstSequence<Elements>, Failure>(sequence: sequence.dropFirst(count))
    }

    /// The elements that satisfy `isIncluded`, filtered at once (Combine's eager overload).
    @inlinable
    public func filter(_ isIncluded: (Elements.Element) -> Bool) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.filter(isIncluded))
    }

    /// No values, only the completion: an `Empty` that finishes at once (Combine's overload).
    @inlinable
    public func ignoreOutput() -> Empty<Elements.Element, Failure> {
        Empty()
    }

    /// Each element transformed by `transform`, mapped at once (Combine's eager overload).
    ///
    /// ```swift
    /// let c = [1, 2].publisher.map { $0 * 10 }.sink { print($0) }   // 10 20
    /// ```
    @inlinable
    public func map<ElementOfResult>(
        _ transform: (Elements.Element) -> ElementOfResult
    ) -> Publishers.Sequence<[ElementOfResult], Failure> {
        Publishers.Sequence<[ElementOfResult], Failure>(sequence: sequence.map(transform))
    }

    /// At most the first `maxLength` elements (Combine's overload).
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
        Publishers.Sequence<PrefixSequence<Elements>, Failure>(sequence: sequence.prefix(maxLength))
    }

    /// The leading elements that satisfy `predicate`, taken at once (Combine's eager overload).
    @inlinable
    public func prefix(
        while predicate: (Elements.Element) -> Bool
    ) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence.prefix(while: predicate)))
    }

    /// The elements folded into one value by `nextPartialResult`, computed at once (Combine's eager overload).
    ///
    /// ```swift
    /// let c = (1...4).publisher.reduce(0, +).sink { print($0) }   // 10
    /// ```
    @inlinable
    public func reduce<Accumulator>(
        _ initialResult: Accumulator,
        _ nextPartialResult: @escaping (Accumulator, Elements.Element) -> Accumulator
    ) -> Result<Accumulator, Failure>.Publisher {
        Result<Accumulator, Failure>.Publisher(.success(sequence.reduce(initialResult, nextPartialResult)))
    }

    /// The elements folded by the throwing `nextPartialResult`, computed at once; a thrown error becomes the
    /// publisher's failure (Combine's eager overload).
    @inlinable
    public func tryReduce<Accumulator>(
        _ initialResult: Accumulator,
        _ nextPartialResult: @escaping (Accumulator, Elements.Element) throws -> Accumulator
    ) -> Result<Accumulator, any Error>.Publisher {
        Result<Accumulator, any Error>.Publisher(Result { try sequence.reduce(initialResult, nextPartialResult) })
    }

    /// Each `nil` element replaced by `output`, at once (Combine's eager overload; as in Combine, the elements
    /// keep their optional type).
    @inlinable
    public func replaceNil<ElementOfResult>(
        with output: ElementOfResult
    ) -> Publishers.Sequence<[Elements.Element], Failure> where Elements.Element == ElementOfResult? {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.map { $0 ?? output })
    }

    /// Every intermediate result of folding the elements with `nextPartialResult`, computed at once
    /// (Combine's eager overload).
    @inlinable
    public func scan<ElementOfResult>(
        _ initialResult: ElementOfResult,
        _ nextPartialResult: @escaping (ElementOfResult, Elements.Element) -> ElementOfResult
    ) -> Publishers.Sequence<[ElementOfResult], Failure> {
        var accumulator = initialResult
        var results: [ElementOfResult] = []
        results.reserveCapacity(sequence.underestimatedCount)
        for element in sequence {
            accumulator = nextPartialResult(accumulator, element)
            results.append(accumulator)
        }
        return Publishers.Sequence<[ElementOfResult], Failure>(sequence: results)
    }

    /// The same sequence with the failure type `NewFailure` (Combine's overload; it never fails).
    @inlinable
    public func setFailureType<NewFailure: Error>(
        to failureType: NewFailure.Type
    ) -> Publishers.Sequence<Elements, NewFailure> {
        Publishers.Sequence<Elements, NewFailure>(sequence: sequence)
    }
}

extension Publishers.Sequence where Failure == Never {
    /// The least element by `areInIncreasingOrder`, or none for an empty sequence, found at once (Combine's
    /// eager overload).
    @inlinable
    public func min(
        by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool
    ) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.min(by: areInIncreasingOrder))
    }

    /// The greatest element by `areInIncreasingOrder`, or none for an empty sequence, found at once
    /// (Combine's eager overload).
    @inlinable
    public func max(
        by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool
    ) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.max(by: areInIncreasingOrder))
    }

    /// The first element that satisfies `predicate`, or none, found at once (Combine's eager overload).
    @inlinable
    public func first(where predicate: (Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.first(where: predicate))
    }
}

extension Publishers.Sequence where Elements.Element: Equatable {
    /// The elements without consecutive repeats, computed at once (Combine's eager overload).
    ///
    /// ```swift
    /// let c = [1, 1, 2, 1].publisher.removeDuplicates().sink { print($0) }   // 1 2 1
    /// ```
    @inlinable
    public func removeDuplicates() -> Publishers.Sequence<[Elements.Element], Failure> {
        var results: [Elements.Element] = []
        for element in sequence where results.last != element {
            results.append(element)
        }
        return Publishers.Sequence<[Elements.Element], Failure>(sequence: results)
    }

    /// Whether the sequence contains `output`, computed at once (Combine's eager overload).
    @inlinable
    public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(.success(sequence.contains(output)))
    }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
    /// The least element, or none for an empty sequence, found at once (Combine's eager overload).
    @inlinable
    public func min() -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.min())
    }

    /// The greatest element, or none for an empty sequence, found at once (Combine's eager overload).
    @inlinable
    public func max() -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.max())
    }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
    /// The first element, or none for an empty collection (Combine's overload).
    @inlinable
    public func first() -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.first)
    }

    /// The element at position `index` from the start, or none when there are fewer (Combine's overload).
    @inlinable
    public func output(at index: Elements.Index) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
    }
}

extension Publishers.Sequence where Elements: Collection {
    /// The number of elements (Combine's overload).
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(.success(sequence.count))
    }

    /// The elements at the positions in `range` (Combine's overload); positions past the end are ignored, as
    /// the streaming `output(in:)` does (OpenCombine's overload traps on them).
    @inlinable
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Elements.Element], Failure> {
        let clamped = range.clamped(to: sequence.startIndex..<sequence.endIndex)
        return Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence[clamped]))
    }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
    /// The last element, or none for an empty collection (Combine's overload).
    @inlinable
    public func last() -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.last)
    }

    /// The last element that satisfies `predicate`, or none, found at once (Combine's eager overload).
    @inlinable
    public func last(where predicate: (Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.last(where: predicate))
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
    /// The number of elements, as a `Just` (Combine's overload).
    @inlinable
    public func count() -> Just<Int> {
        Just(sequence.count)
    }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
    /// `elements`, then this sequence's, as one sequence (Combine's overload).
    @inlinable
    public func prepend(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> {
        prepend(elements)
    }

    /// `elements`, then this sequence's, as one sequence (Combine's overload).
    @inlinable
    public func prepend<OtherSequence: Swift.Sequence>(
        _ elements: OtherSequence
    ) -> Publishers.Sequence<Elements, Failure> where OtherSequence.Element == Elements.Element {
        var joined = Elements(elements)
        joined.append(contentsOf: sequence)
        return Publishers.Sequence<Elements, Failure>(sequence: joined)
    }

    /// `publisher`'s elements, then this sequence's, as one sequence (Combine's overload).
    @inlinable
    public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        prepend(publisher.sequence)
    }

    /// This sequence's elements, then `elements`, as one sequence (Combine's overload).
    @inlinable
    public func append(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> {
        append(elements)
    }

    /// This sequence's elements, then `elements`, as one sequence (Combine's overload).
    @inlinable
    public func append<OtherSequence: Swift.Sequence>(
        _ elements: OtherSequence
    ) -> Publishers.Sequence<Elements, Failure> where OtherSequence.Element == Elements.Element {
        var joined = sequence
        joined.append(contentsOf: elements)
        return Publishers.Sequence<Elements, Failure>(sequence: joined)
    }

    /// This sequence's elements, then `publisher`'s, as one sequence (Combine's overload).
    @inlinable
    public func append(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        append(publisher.sequence)
    }
}
