// A paginated list with a cache, written as Combine apps write it (only `import Combine` became
// `import Streams`): `Publishers.Sequence` of page numbers through `flatMap` into `reduce` / `collect()`, two
// pages fetched together with `zip`, canned pages from a `Record` (as previews and UI tests use), a cache
// lookup as `Deferred { Future { … } }`, `buffer(size:prefetch:whenFull:)`, "load more" throttled on
// `DispatchQueue.main`, `print("tag")`, `breakpointOnError()`, and the types apps spell out.
import Dispatch
import Foundation
import Streams
import Testing

struct Article: Codable, Equatable, Identifiable {
    let id: Int
    let title: String
}

struct ArticlePage: Equatable {
    let number: Int
    let articles: [Article]
    let isLast: Bool
}

enum ArticleError: Error, Equatable {
    case pageMissing(Int)
    case notCached(Int)
}

protocol ArticlePageLoading {
    func loadPage(_ number: Int) -> AnyPublisher<ArticlePage, Error>
}

/// Canned pages played back from a recording.
struct RecordedArticleLoader: ArticlePageLoading {
    let pages: [Int: ArticlePage]

    func loadPage(_ number: Int) -> AnyPublisher<ArticlePage, Error> {
        Record<ArticlePage, Error> { recording in
            if let page = pages[number] {
                recording.receive(page)
                recording.receive(completion: .finished)
            } else {
                recording.receive(completion: .failure(ArticleError.pageMissing(number)))
            }
        }
        .eraseToAnyPublisher()
    }
}

final class ArticleCache {
    private var storage: [Int: Article] = [:]
    private(set) var lookups = 0

    func store(_ articles: [Article]) {
        for article in articles { storage[article.id] = article }
    }

    func article(id: Int) -> AnyPublisher<Article, Error> {
        Deferred {
            Future { [weak self] promise in
                self?.lookups += 1
                if let article = self?.storage[id] {
                    promise(.success(article))
                } else {
                    promise(.failure(ArticleError.notCached(id)))
                }
            }
        }
        .eraseToAnyPublisher()
    }

    /// The cached articles among `ids`, looked up one at a time while the ids wait in a buffer.
    func articles(ids: [Int]) -> AnyPublisher<[Article], Never> {
        ids.publisher
            .buffer(size: 50, prefetch: .keepFull, whenFull: .dropNewest)
            .flatMap(maxPublishers: .max(1)) { [unowned self] id in
                self.article(id: id)
                    .map { Optional($0) }
                    .replaceError(with: nil)
            }
            .compactMap { $0 }
            .collect()
            .eraseToAnyPublisher()
    }
}

final class ArticleListViewModel: ObservableObject {
    @Published private(set) var articles: [Article] = []
    @Published private(set) var loadedPages = 0
    @Published private(set) var isLastPage = false
    private(set) var loadMoreRows: [Int] = []

    /// The row the list scrolled to; near the end it loads the next page.
    let visibleRow = PassthroughSubject<Int, Never>()

    lazy var titles: Publishers.Map<Published<[Article]>.Publisher, [String]> = $articles.map { $0.map(\.title) }

    private let loader: ArticlePageLoading
    private var cancellables = Set<AnyCancellable>()

    init(loader: ArticlePageLoading) {
        self.loader = loader
        visibleRow
            .throttle(for: .milliseconds(300), scheduler: DispatchQueue.main, latest: true)
            .sink { [weak self] row in
                self?.loadMoreRows.append(row)
                self?.loadNextPage()
            }
            .store(in: &cancellables)
    }

    func loadNextPage() {
        guard !isLastPage else { return }
        loader.loadPage(loadedPages + 1)
            .breakpointOnError()
            .print("next page")
            .sink(
                receiveCompletion: { [weak self] completion in
                    if case .failure = completion { self?.isLastPage = true }
                },
                receiveValue: { [weak self] page in
                    self?.articles += page.articles
                    self?.loadedPages = page.number
                    self?.isLastPage = page.isLast
                }
            )
            .store(in: &cancellables)
    }

    /// Every article of the first `count` pages, fetched one page after another.
    func loadAll(pages count: Int) -> AnyPublisher<[Article], Error> {
        Publishers.Sequence<ClosedRange<Int>, Error>(sequence: 1...count)
            .flatMap(maxPublishers: .max(1)) { [loader] number in loader.loadPage(number) }
            .map(\.articles)
            .reduce([], +)
            .eraseToAnyPublisher()
    }

    /// The first `count` pages, in page order.
    func firstPages(_ count: Int) -> AnyPublisher<[ArticlePage], Error> {
        (1...count).publisher
            .flatMap { [loader] number in loader.loadPage(number) }
            .collect()
            .map { $0.sorted { $0.number < $1.number } }
            .eraseToAnyPublisher()
    }

    /// Two pages fetched together, shown once both are in.
    func pagePair(startingAt number: Int) -> AnyPublisher<[Article], Error> {
        loader.loadPage(number)
            .zip(loader.loadPage(number + 1))
            .map { first, second in first.articles + second.articles }
            .eraseToAnyPublisher()
    }
}

@Suite struct ArticleListViewModelTests {
    static let articles = (1...6).map { Article(id: $0, title: "Article \($0)") }
    static let loader = RecordedArticleLoader(pages: [
        1: ArticlePage(number: 1, articles: Array(articles[0..<2]), isLast: false),
        2: ArticlePage(number: 2, articles: Array(articles[2..<4]), isLast: false),
        3: ArticlePage(number: 3, articles: Array(articles[4..<6]), isLast: true),
    ])

    @Test func pagesAreReducedCollectedAndZipped() {
        let viewModel = ArticleListViewModel(loader: Self.loader)
        var all: [Article] = []
        var completion: Subscribers.Completion<Error>?
        _ = viewModel.loadAll(pages: 3).sink(receiveCompletion: { completion = $0 }, receiveValue: { all = $0 })
        #expect(all == Self.articles)
        if case .finished = completion {} else {
            Issue.record("expected .finished, got \(String(describing: completion))")
        }

        var failure: Error?
        _ = viewModel.loadAll(pages: 4).sink(
            receiveCompletion: { if case .failure(let error) = $0 { failure = error } }, receiveValue: { _ in })
        #expect(failure as? ArticleError == .pageMissing(4))

        var pages: [Int] = []
        _ = viewModel.firstPages(3).sink(receiveCompletion: { _ in }, receiveValue: { pages = $0.map(\.number) })
        #expect(pages == [1, 2, 3])

        var pair: [Article] = []
        _ = viewModel.pagePair(startingAt: 2).sink(receiveCompletion: { _ in }, receiveValue: { pair = $0 })
        #expect(pair == Array(Self.articles[2..<6]))
    }

    @Test func theCacheLooksUpLazilyOncePerSubscription() {
        let cache = ArticleCache()
        cache.store(Array(Self.articles[0..<3]))
        let lookup = cache.article(id: 2)
        #expect(cache.lookups == 0)  // Deferred: the Future is made per subscriber
        var found: [Article] = []
        _ = lookup.sink(receiveCompletion: { _ in }, receiveValue: { found.append($0) })
        _ = lookup.sink(receiveCompletion: { _ in }, receiveValue: { found.append($0) })
        #expect(cache.lookups == 2)
        #expect(found == [Self.articles[1], Self.articles[1]])

        var cached: [Article] = []
        _ = cache.articles(ids: [1, 99, 3, 2]).sink { cached = $0 }
        #expect(cached == [Self.articles[0], Self.articles[2], Self.articles[1]])
        #expect(cache.lookups == 6)
    }

    @MainActor @Test func scrollingLoadsMoreAtMostOncePerThrottleInterval() async {
        let viewModel = ArticleListViewModel(loader: Self.loader)
        var titles: [[String]] = []
        let watch = viewModel.titles.sink { titles.append($0) }
        viewModel.loadNextPage()
        #expect(viewModel.articles == Array(Self.articles[0..<2]))
        var pageLoadTimes: [ContinuousClock.Instant] = []
        let pageWatch = viewModel.$loadedPages.dropFirst().sink { _ in pageLoadTimes.append(.now) }
        viewModel.visibleRow.send(0)  // the first row goes out on the next turn of the main queue
        #expect(await waitOnMainQueue { viewModel.loadMoreRows == [0] })
        for row in 1...3 { viewModel.visibleRow.send(row) }
        // throttle with latest: the latest row, once 300 ms have passed since the first went out
        #expect(await waitOnMainQueue { viewModel.loadMoreRows.count == 2 })
        #expect(viewModel.loadMoreRows == [0, 3])
        #expect(pageLoadTimes.count == 2)
        if pageLoadTimes.count == 2 { #expect(pageLoadTimes[1] - pageLoadTimes[0] >= .milliseconds(290)) }
        #expect(viewModel.loadedPages == 3)
        #expect(viewModel.isLastPage)
        viewModel.loadNextPage()  // the last page is loaded: nothing more is asked for
        #expect(viewModel.articles == Self.articles)
        #expect(titles.last == Self.articles.map(\.title))
        #expect(titles.count == 4)
        _ = (watch, pageWatch)
    }
}
