import Streams

/// The leak-check suites (`LeakChecks*.swift`) build every pipeline as one type, so a table of operators can
/// hold them: the output as text, the failure as `any Error`.
enum LeakCheckPipeline {
    static func erase<P: Publisher>(_ publisher: P) -> AnyPublisher<String, any Error> where P.Failure == Never {
        publisher.map { "\($0)" }.setFailureType(to: (any Error).self).eraseToAnyPublisher()
    }

    static func erase<P: Publisher>(_ publisher: P) -> AnyPublisher<String, any Error> where P.Failure == any Error {
        publisher.map { "\($0)" }.eraseToAnyPublisher()
    }

    static func erase<P: Publisher>(_ publisher: P) -> AnyPublisher<String, any Error> where P.Failure == TestError {
        publisher.map { "\($0)" }.mapError { $0 as any Error }.eraseToAnyPublisher()
    }
}
