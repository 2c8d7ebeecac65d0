// A networking service written as Combine apps write it (only `import Combine` became `import Streams` plus
// `import StreamsFoundation`): dataTaskPublisher → tryMap on the HTTPURLResponse → map(\.data) → decode →
// mapError → retry → receive(on: DispatchQueue.main) → eraseToAnyPublisher, a Future around a completion-handler
// API, and Just / Fail / catch / replaceError. Tested against the loopback HTTP server of the test support.
import Dispatch
import Foundation
import LoopbackHTTPServer
import Streams
import StreamsFoundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct TodoItem: Codable, Equatable, Identifiable {
    let id: Int
    let title: String
    let completed: Bool
}

enum TodoAPIError: Error, Equatable {
    case invalidRequest
    case invalidResponse
    case badStatus(Int)
    case decoding
    case transport(URLError.Code)
    case unknown
}

protocol TodoServiceProtocol {
    func fetchTodos() -> AnyPublisher<[TodoItem], TodoAPIError>
    func todo(id: Int) -> AnyPublisher<TodoItem, TodoAPIError>
}

final class TodoAPIService: TodoServiceProtocol {
    private let baseURL: URL
    private let session: URLSession
    private var cache: [Int: TodoItem] = [:]

    init(baseURL: URL, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
    }

    func fetchTodos() -> AnyPublisher<[TodoItem], TodoAPIError> {
        session.dataTaskPublisher(for: baseURL.appendingPathComponent("todos"))
            .tryMap { element -> URLSession.DataTaskPublisher.Output in
                guard let httpResponse = element.response as? HTTPURLResponse else {
                    throw TodoAPIError.invalidResponse
                }
                guard (200..<300).contains(httpResponse.statusCode) else {
                    throw TodoAPIError.badStatus(httpResponse.statusCode)
                }
                return element
            }
            .map(\.data)
            .decode(type: [TodoItem].self, decoder: JSONDecoder())
            .mapError { error -> TodoAPIError in
                switch error {
                case let apiError as TodoAPIError: return apiError
                case is DecodingError: return .decoding
                case let urlError as URLError: return .transport(urlError.code)
                default: return .unknown
                }
            }
            .retry(2)
            .receive(on: DispatchQueue.main)
            .eraseToAnyPublisher()
    }

    /// The pre-Combine API this app still has: a completion handler.
    func loadTodo(id: Int, completion: @escaping @Sendable (Result<TodoItem, TodoAPIError>) -> Void) {
        let url = baseURL.appendingPathComponent("todos").appendingPathComponent(String(id))
        session.dataTask(with: url) { data, response, error in
            if let error = error as? URLError { return completion(.failure(.transport(error.code))) }
            guard let data, let httpResponse = response as? HTTPURLResponse else {
                return completion(.failure(.invalidResponse))
            }
            guard httpResponse.statusCode == 200 else {
                return completion(.failure(.badStatus(httpResponse.statusCode)))
            }
            guard let todo = try? JSONDecoder().decode(TodoItem.self, from: data) else {
                return completion(.failure(.decoding))
            }
            completion(.success(todo))
        }.resume()
    }

    func todo(id: Int) -> AnyPublisher<TodoItem, TodoAPIError> {
        guard id > 0 else {
            return Fail(error: TodoAPIError.invalidRequest).eraseToAnyPublisher()
        }
        if let cached = cache[id] {
            return Just(cached)
                .setFailureType(to: TodoAPIError.self)
                .eraseToAnyPublisher()
        }
        return Future<TodoItem, TodoAPIError> { [weak self] promise in
            guard let self = self else { return promise(.failure(.unknown)) }
            self.loadTodo(id: id) { result in promise(result) }
        }
        .receive(on: DispatchQueue.main)
        .handleEvents(receiveOutput: { [weak self] todo in self?.cache[todo.id] = todo })
        .eraseToAnyPublisher()
    }

    /// Todos for a screen that shows a fallback list instead of an error.
    func todosOrFallback(_ fallback: [TodoItem]) -> AnyPublisher<[TodoItem], Never> {
        fetchTodos()
            .catch { _ in Just(fallback) }
            .eraseToAnyPublisher()
    }

    /// Titles, or none when anything fails.
    func titles() -> AnyPublisher<[String], Never> {
        fetchTodos()
            .map { $0.map(\.title) }
            .replaceError(with: [])
            .eraseToAnyPublisher()
    }
}

@Suite struct TodoAPIServiceTests {
    static let todosJSON = #"[{"id":1,"title":"Buy milk","completed":false},{"id":2,"title":"Walk","completed":true}]"#
    static let todos = [
        TodoItem(id: 1, title: "Buy milk", completed: false), TodoItem(id: 2, title: "Walk", completed: true),
    ]

    @MainActor @Test func todosAreDecodedAndDeliveredOnTheMainQueue() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/todos") { _ in .json(Self.todosJSON) }
        let service = TodoAPIService(baseURL: server.baseURL)
        var received: [[TodoItem]] = []
        var completion: Subscribers.Completion<TodoAPIError>?
        // The main queue, recognised by a queue-specific value (under `swift test` on Linux the main queue is
        // drained by the test runner, not necessarily on the process's first thread).
        let mainQueueKey = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
        var onMainQueue = false
        let cancellable = service.fetchTodos()
            .sink(receiveCompletion: { completion = $0 }, receiveValue: { todos in
                onMainQueue = DispatchQueue.getSpecific(key: mainQueueKey) == true
                received.append(todos)
            })
        #expect(await waitOnMainQueue { completion != nil })
        #expect(received == [Self.todos])
        #expect(completion == .finished)
        #expect(onMainQueue)
        #expect(server.requestCount("/todos") == 1)
        _ = cancellable
    }

    @MainActor @Test func retryResubscribesTwiceThenSucceeds() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/todos") { [server] _ in
            server.requestCount("/todos") < 3 ? .text("busy", status: 503) : .json(Self.todosJSON)
        }
        let service = TodoAPIService(baseURL: server.baseURL)
        var received: [TodoItem] = []
        var finished = false
        let cancellable = service.fetchTodos()
            .sink(receiveCompletion: { _ in finished = true }, receiveValue: { received = $0 })
        #expect(await waitOnMainQueue { finished })
        #expect(received == Self.todos)
        #expect(server.requestCount("/todos") == 3)
        _ = cancellable
    }

    @MainActor @Test func errorsAreMappedAfterTheRetriesRunOut() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/todos") { _ in .text("down", status: 500) }
        let service = TodoAPIService(baseURL: server.baseURL)
        var completion: Subscribers.Completion<TodoAPIError>?
        let cancellable = service.fetchTodos().sink(receiveCompletion: { completion = $0 }, receiveValue: { _ in })
        #expect(await waitOnMainQueue { completion != nil })
        #expect(completion == .failure(.badStatus(500)))
        #expect(server.requestCount("/todos") == 3)

        server.route("GET", "/todos") { _ in .json(#"{"not":"a list"}"#) }
        var decodingCompletion: Subscribers.Completion<TodoAPIError>?
        let second = service.fetchTodos().sink(receiveCompletion: { decodingCompletion = $0 }, receiveValue: { _ in })
        #expect(await waitOnMainQueue { decodingCompletion != nil })
        #expect(decodingCompletion == .failure(.decoding))
        _ = (cancellable, second)
    }

    @MainActor @Test func fallbacksReplaceTheError() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/todos") { _ in .text("down", status: 500) }
        let service = TodoAPIService(baseURL: server.baseURL)
        let fallback = [TodoItem(id: 0, title: "Offline", completed: false)]
        var shown: [TodoItem]?
        var titles: [String]?
        var cancellables = Set<AnyCancellable>()
        service.todosOrFallback(fallback).sink { shown = $0 }.store(in: &cancellables)
        service.titles().sink { titles = $0 }.store(in: &cancellables)
        #expect(await waitOnMainQueue { shown != nil && titles != nil })
        #expect(shown == fallback)
        #expect(titles == [])
    }

    @MainActor @Test func aFutureWrapsTheCompletionHandlerAndJustServesTheCache() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/todos/2") { _ in .json(#"{"id":2,"title":"Walk","completed":true}"#) }
        let service = TodoAPIService(baseURL: server.baseURL)
        var cancellables = Set<AnyCancellable>()

        let future = service.todo(id: 2)
        // A Future starts its work when created, before anything subscribes (as in Combine).
        #expect(await waitOnMainQueue { server.requestCount("/todos/2") == 1 })
        var fetched: TodoItem?
        future.sink(receiveCompletion: { _ in }, receiveValue: { fetched = $0 }).store(in: &cancellables)
        #expect(await waitOnMainQueue { fetched != nil })
        #expect(fetched == Self.todos[1])

        var cached: TodoItem?
        var cachedCompletion: Subscribers.Completion<TodoAPIError>?
        service.todo(id: 2).sink(receiveCompletion: { cachedCompletion = $0 }, receiveValue: { cached = $0 })
            .store(in: &cancellables)
        #expect(cached == Self.todos[1])  // Just delivers synchronously
        #expect(cachedCompletion == .finished)
        #expect(server.requestCount("/todos/2") == 1)

        var invalid: Subscribers.Completion<TodoAPIError>?
        service.todo(id: 0).sink(receiveCompletion: { invalid = $0 }, receiveValue: { _ in }).store(in: &cancellables)
        #expect(invalid == .failure(.invalidRequest))

        var missing: Subscribers.Completion<TodoAPIError>?
        service.todo(id: 7).sink(receiveCompletion: { missing = $0 }, receiveValue: { _ in }).store(in: &cancellables)
        #expect(await waitOnMainQueue { missing != nil })
        #expect(missing == .failure(.badStatus(404)))
    }
}
