import Streams
import StreamsTesting
import Testing

@Suite struct AssignTests {
    @Test func assignWritesEachValueAndReleasesTheObjectOnCancel() {
        final class Model: @unchecked Sendable { var title = "" }
        let subject = PassthroughSubject<String, Never>()
        weak var weakModel: Model?
        var cancellable: AnyCancellable?
        do {
            let model = Model()
            weakModel = model
            cancellable = subject.assign(to: \.title, on: model)
            subject.send("hello")
            #expect(model.title == "hello")
        }
        #expect(weakModel != nil)
        cancellable?.cancel()
        #expect(weakModel == nil)
    }
}
