extension Publisher {
    /// Publishes the value of `keyPath` for each value.
    ///
    /// - Demand and timing: one value out per value in, synchronously, on the upstream's thread; the
    ///   subscription is the upstream's own (no lock, no allocation per value), as `map` with a closure.
    ///
    /// ```swift
    /// let c = users.map(\.name).sink { print($0) }
    /// ```
    @inlinable
    public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
        Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
    }

    /// Publishes the values of two key paths, as a tuple, for each value.
    ///
    /// - Demand and timing: one value out per value in, synchronously, on the upstream's thread; the
    ///   subscription is the upstream's own.
    ///
    /// ```swift
    /// let c = rolls.map(\.die1, \.die2).sink { print($0.0 + $0.1) }
    /// ```
    @inlinable
    public func map<T0, T1>(_ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>)
        -> Publishers.MapKeyPath2<Self, T0, T1>
    {
        Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
    }

    /// Publishes the values of three key paths, as a tuple, for each value.
    ///
    /// - Demand and timing: one value out per value in, synchronously, on the upstream's thread; the
    ///   subscription is the upstream's own.
    ///
    /// ```swift
    /// let c = rolls.map(\.die1, \.die2, \.die3).sink { print($0.0 + $0.1 + $0.2) }
    /// ```
    @inlinable
    public func map<T0, T1, T2>(
        _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>, _ keyPath2: KeyPath<Output, T2>
    ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
        Publishers.MapKeyPath3(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
    }
}

extension Publishers {
    /// The publisher returned by `map(_:)` given a key path: the value of that key path.
    public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are read.
        public let upstream: Upstream
        /// The key path of the property published.
        public let keyPath: KeyPath<Upstream.Output, Output>

        @inlinable
        init(upstream: Upstream, keyPath: KeyPath<Upstream.Output, Output>) {
            self.upstream = upstream
            self.keyPath = keyPath
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let reader = KeyPathReader(keyPath)
            upstream.receive(
                subscriber: MapInner(downstream: subscriber, transform: { (value: Upstream.Output) in
                    reader.read(value)
                }))
        }
    }

    /// The publisher returned by ``Publisher/map(_:_:)``: the values of two key paths, as a tuple.
    public struct MapKeyPath2<Upstream: Publisher, Output0, Output1>: Publisher {
        /// The pair of values read.
        public typealias Output = (Output0, Output1)
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are read.
        public let upstream: Upstream
        /// The key path of the first property published.
        public let keyPath0: KeyPath<Upstream.Output, Output0>
        /// The key path of the second property published.
        public let keyPath1: KeyPath<Upstream.Output, Output1>

        @inlinable
        init(
            upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let reader0 = KeyPathReader(keyPath0)
            let reader1 = KeyPathReader(keyPath1)
            upstream.receive(
                subscriber: MapInner(downstream: subscriber, transform: { (value: Upstream.Output) in
                    (reader0.read(value), reader1.read(value))
                }))
        }
    }

    /// The publisher returned by ``Publisher/map(_:_:_:)``: the values of three key paths, as a tuple.
    public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: Publisher {
        /// The three values read.
        public typealias Output = (Output0, Output1, Output2)
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are read.
        public let upstream: Upstream
        /// The key path of the first property published.
        public let keyPath0: KeyPath<Upstream.Output, Output0>
        /// The key path of the second property published.
        public let keyPath1: KeyPath<Upstream.Output, Output1>
        /// The key path of the third property published.
        public let keyPath2: KeyPath<Upstream.Output, Output2>

        @inlinable
        init(
            upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>, keyPath2: KeyPath<Upstream.Output, Output2>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
            self.keyPath2 = keyPath2
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let reader0 = KeyPathReader(keyPath0)
            let reader1 = KeyPathReader(keyPath1)
            let reader2 = KeyPathReader(keyPath2)
            upstream.receive(
                subscriber: MapInner(downstream: subscriber, transform: { (value: Upstream.Output) in
                    (reader0.read(value), reader1.read(value), reader2.read(value))
                }))
        }
    }
}
