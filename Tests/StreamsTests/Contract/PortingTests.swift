import Dispatch
import Streams
import StreamsTesting
import Testing

// A view model written as Combine code writes it (only `import Combine` became `import Streams`), tested on
// virtual time: @Published inputs, ObservableObject, bare-number intervals, assign(to: &$), store(in:),
// flatMap with catch, Just / Fail / Empty, eraseToAnyPublisher.

struct Repository: Equatable {
    let name: String
}

enum SearchError: Error {
    case offline
}

final class RepositorySearchViewModel<S: Scheduler>: ObservableObject {
    @Published var query = ""
    @Published private(set) var results: [Repository] = []
    @Published private(set) var isSearching = false
    @Published private(set) var errorMessage: String?
    @Published private(set) var resultCount = 0

    private var cancellables = Set<AnyCancellable>()
    private let search: (String) -> AnyPublisher<[Repository], SearchError>

    init(scheduler: S, search: @escaping (String) -> AnyPublisher<[Repository], SearchError>) {
        self.search = search
        let trimmed = $query
            .map { $0.trimmingCharacters(in: " ") }
            .removeDuplicates()
            .debounce(for: 0.3, scheduler: scheduler)
            .share()

        trimmed
            .map { [weak self] text -> AnyPublisher<[Repository], Never> in
                guard let self, !text.isEmpty else { return Just([]).eraseToAnyPublisher() }
                return self.search(text)
                    .handleEvents(receiveSubscription: { [weak self] _ in self?.isSearching = true })
                    .catch { [weak self] error -> Empty<[Repository], Never> in
                        self?.errorMessage = "search failed: \(error)"
                        return Empty()
                    }
                    .eraseToAnyPublisher()
            }
            .switchToLatest()
            .receive(on: scheduler)
            .sink { [weak self] repositories in
                self?.isSearching = false
                self?.errorMessage = nil
                self?.results = repositories
            }
            .store(in: &cancellables)

        $results.map(\.count).assign(to: &$resultCount)
    }
}

extension String {
    /// What Foundation's `trimmingCharacters(in: .whitespaces)` does for spaces, without Foundation.
    fileprivate func trimmingCharacters(in character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}

@Suite struct PortingTests {
    @Test func aCombineViewModelRunsUnchangedOnVirtualTime() {
        let scheduler = TestScheduler()
        var searched: [String] = []
        let model = RepositorySearchViewModel(scheduler: scheduler) { text in
            searched.append(text)
            if text == "fail" { return Fail(error: SearchError.offline).eraseToAnyPublisher() }
            return Just([Repository(name: "\(text)-kit")]).setFailureType(to: SearchError.self)
                .delay(for: .milliseconds(100), scheduler: scheduler).eraseToAnyPublisher()
        }
        var changes = 0
        let watch = model.objectWillChange.sink { changes += 1 }

        model.query = "s"
        scheduler.advance(by: .milliseconds(100))
        model.query = "swift "
        scheduler.advance(by: 0.3)
        #expect(searched == ["swift"])
        #expect(model.isSearching)
        scheduler.advance(by: .milliseconds(100))
        #expect(model.results == [Repository(name: "swift-kit")])
        #expect(model.resultCount == 1)
        #expect(!model.isSearching)
        #expect(changes > 0)

        model.query = "fail"
        scheduler.advance(by: 1)
        #expect(model.errorMessage == "search failed: offline")
        #expect(model.results == [Repository(name: "swift-kit")])
        _ = watch
    }
}
