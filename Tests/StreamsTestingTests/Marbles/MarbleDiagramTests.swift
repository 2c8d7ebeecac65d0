import Streams
import StreamsTesting
import Testing

private struct Boom: Error, Equatable {}

private func ms(_ value: Int) -> Duration { .milliseconds(value) }

@Suite struct MarbleDiagramTests {
    @Test func dashesAreFramesAndEachEventTakesAFrame() throws {
        let diagram = try MarbleDiagram<String, Never>("-a-b|")
        #expect(diagram.events == [.value("a", at: ms(1)), .value("b", at: ms(3)), .finished(at: ms(4))])
    }

    @Test func valuesComeFromTheDictionary() throws {
        let diagram = try MarbleDiagram<Int, Never>("a-b", values: ["a": 10, "b": 20])
        #expect(diagram.events == [.value(10, at: ms(0)), .value(20, at: ms(2))])
    }

    @Test func digitsAndLettersStandForThemselvesAsStrings() throws {
        let diagram = try MarbleDiagram<String, Never>("1x9")
        #expect(diagram.values == ["1", "x", "9"])
    }

    @Test func charactersCanStandForThemselves() throws {
        let diagram = try MarbleDiagram<Character, Never>("ab")
        #expect(diagram.values == ["a", "b"])
    }

    @Test func aGroupPutsEventsInOneFrameAndTakesOneFrame() throws {
        let diagram = try MarbleDiagram<String, Never>("-(ab)-c(d|)")
        #expect(
            diagram.events == [
                .value("a", at: ms(1)), .value("b", at: ms(1)), .value("c", at: ms(3)),
                .value("d", at: ms(4)), .finished(at: ms(4)),
            ])
    }

    @Test func hashIsTheGivenFailure() throws {
        let diagram = try MarbleDiagram<String, Boom>("--#", error: Boom())
        #expect(diagram.events == [.failure(Boom(), at: ms(2))])
    }

    @Test func spacesAlignAndTakeNoTime() throws {
        let diagram = try MarbleDiagram<String, Never>("  - a  - b |")
        #expect(diagram.events == [.value("a", at: ms(1)), .value("b", at: ms(3)), .finished(at: ms(4))])
    }

    @Test func caretIsTheZeroColumnAndEarlierEventsAreInThePast() throws {
        let diagram = try MarbleDiagram<String, Never>("a-^-b")
        #expect(diagram.events == [.value("a", at: ms(-2)), .value("b", at: ms(2))])
    }

    @Test func theFrameLengthIsConfigurable() throws {
        let diagram = try MarbleDiagram<String, Never>("--a|", frame: .milliseconds(10))
        #expect(diagram.events == [.value("a", at: ms(20)), .finished(at: ms(30))])
    }

    @Test func timeProgressionBetweenSpacesLetsThatMuchTimePass() throws {
        let diagram = try MarbleDiagram<String, Never>("a 9ms b 1.5s c 2s")
        #expect(
            diagram.events == [
                .value("a", at: ms(0)), .value("b", at: ms(10)), .value("c", at: ms(1511)),
            ])
    }

    @Test func aNumberWithoutSpacesAroundIsValues() throws {
        let diagram = try MarbleDiagram<String, Never>("a9ms")
        #expect(diagram.values == ["a", "9", "m", "s"])
    }

    @Test func aTimeProgressionNeedsAWholeWord() throws {
        // "2msx" is not a progression, so its characters are values.
        let diagram = try MarbleDiagram<String, Never>("- 2msx")
        #expect(diagram.values == ["2", "m", "s", "x"])
    }

    @Test func anEmptyDiagramHasNoEvents() throws {
        #expect(try MarbleDiagram<String, Never>("").events.isEmpty)
        #expect(try MarbleDiagram<String, Never>("-----").events.isEmpty)
    }

    @Test func subscriptionDiagramsGiveStartAndCancellation() throws {
        #expect(try SubscriptionPeriod("--^---!") == SubscriptionPeriod(subscribed: ms(2), cancelled: ms(6)))
        #expect(try SubscriptionPeriod("^") == SubscriptionPeriod(subscribed: ms(0)))
        #expect(try SubscriptionPeriod("-(^!)") == SubscriptionPeriod(subscribed: ms(1), cancelled: ms(1)))
        #expect(
            try SubscriptionPeriod(" ^ 10ms !") == SubscriptionPeriod(subscribed: ms(0), cancelled: ms(11)))
    }
}

/// Every rejected form: a clear error naming the column, never a crash.
@Suite struct MarbleDiagramRejectionTests {
    private func rejection<Output, Failure: Error>(
        _ make: () throws(MarbleError) -> MarbleDiagram<Output, Failure>
    ) -> MarbleError? {
        do {
            _ = try make()
            return nil
        } catch {
            return error
        }
    }

    @Test func closingParenthesisWithoutGroup() {
        let error = rejection { () throws(MarbleError) in try MarbleDiagram<String, Never>("--a)--|") }
        #expect(error?.column == 4)
        #expect(error?.reason == "')' closes no group")
    }

    @Test func unclosedGroupPointsPastTheEnd() {
        let error = rejection { () throws(MarbleError) in try MarbleDiagram<String, Never>("-(ab") }
        #expect(error?.column == 5)
        #expect(error?.reason.contains("column 2") == true)
    }

    @Test func nestedGroup() {
        let error = rejection { () throws(MarbleError) in try MarbleDiagram<String, Never>("(a(b))") }
        #expect(error?.column == 3)
    }

    @Test func emptyGroup() {
        let error = rejection { () throws(MarbleError) in try MarbleDiagram<String, Never>("-()") }
        #expect(error?.column == 3)
        #expect(error?.reason == "empty group '()'")
    }

    @Test func dashInsideAGroup() {
        let error = rejection { () throws(MarbleError) in try MarbleDiagram<String, Never>("(a-b)") }
        #expect(error?.column == 3)
    }

    @Test func eventAfterCompletion() {
        let afterFinish = rejection { () throws(MarbleError) in try MarbleDiagram<String, Never>("-a|-b") }
        #expect(afterFinish?.column == 5)
        #expect(afterFinish?.reason == "an event after the completion at column 3")
        let afterFailure = rejection { () throws(MarbleError) in
            try MarbleDiagram<String, Boom>("#|", error: Boom())
        }
        #expect(afterFailure?.column == 2)
        let inGroup = rejection { () throws(MarbleError) in try MarbleDiagram<String, Never>("(|a)") }
        #expect(inGroup?.column == 3)
    }

    @Test func hashWithoutAnError() {
        let error = rejection { () throws(MarbleError) in try MarbleDiagram<String, Boom>("--#") }
        #expect(error?.column == 3)
        #expect(error?.reason == "'#' needs an error: argument to stand for")
    }

    @Test func secondCaret() {
        let error = rejection { () throws(MarbleError) in try MarbleDiagram<String, Never>("^-^") }
        #expect(error?.column == 3)
    }

    @Test func caretInAColdDiagram() {
        let error = rejection { () throws(MarbleError) in
            try MarbleDiagram<String, Never>("-^-a", allowsZeroColumn: false)
        }
        #expect(error?.column == 2)
    }

    @Test func cancellationMarkInAnEventDiagram() {
        let error = rejection { () throws(MarbleError) in try MarbleDiagram<String, Never>("-a-!") }
        #expect(error?.column == 4)
    }

    @Test func valueMissingFromTheDictionary() {
        let error = rejection { () throws(MarbleError) in
            try MarbleDiagram<Int, Never>("a-b", values: ["a": 1])
        }
        #expect(error?.column == 3)
        #expect(error?.reason == "no value for 'b' in values:")
    }

    @Test func valueWithoutADictionaryForANonStringOutput() {
        let error = rejection { () throws(MarbleError) in try MarbleDiagram<Int, Never>("-1") }
        #expect(error?.column == 2)
        #expect(error?.reason.contains("values:") == true)
    }

    @Test func punctuationIsNotAValue() {
        let error = rejection { () throws(MarbleError) in try MarbleDiagram<String, Never>("-a*") }
        #expect(error?.column == 3)
    }

    @Test func punctuationInTheDictionaryIsAValue() throws {
        let diagram = try MarbleDiagram<Int, Never>("*", values: ["*": 7])
        #expect(diagram.events == [.value(7, at: .zero)])
    }

    @Test func absurdTimeProgression() {
        // Past Int64.max seconds (the most a Duration's seconds hold): rejected, never a crash.
        let error = rejection { () throws(MarbleError) in
            try MarbleDiagram<String, Never>("a 99999999999999999999s b")
        }
        #expect(error?.column == 3)
        let total = rejection { () throws(MarbleError) in
            try MarbleDiagram<String, Never>("9223372036854775806s 1s 1s b")
        }
        #expect(total?.column == 28)
        let finer = rejection { () throws(MarbleError) in
            try MarbleDiagram<String, Never>("a 0.0000000000000000001s b")
        }
        #expect(finer?.reason.contains("finer than an attosecond") == true)
    }

    @Test func longAndFineTimeProgressionsAreExact() throws {
        let long = try MarbleDiagram<String, Never>("a 99999999999999s b")
        #expect(long.events == [.value("a", at: .zero), .value("b", at: .milliseconds(1) + .seconds(99_999_999_999_999))])
        let fine = try MarbleDiagram<String, Never>("0.000000000000001ms a 1.000000000000000001s b")
        #expect(fine.events == [
            .value("a", at: Duration(secondsComponent: 0, attosecondsComponent: 1)),
            .value("b", at: Duration(secondsComponent: 1, attosecondsComponent: 2) + .milliseconds(1)),
        ])
    }

    @Test func subscriptionDiagramRejections() {
        func reason(_ text: String) -> (Int, String)? {
            do {
                _ = try SubscriptionPeriod(text)
                return nil
            } catch {
                return (error.column, error.reason)
            }
        }
        #expect(reason("---")?.0 == 4)  // no '^'
        #expect(reason("^-^")?.0 == 3)
        #expect(reason("!-^")?.0 == 1)
        #expect(reason("^-!-!")?.0 == 5)
        #expect(reason("^-a")?.0 == 3)
        #expect(reason("^-|")?.0 == 3)
        #expect(reason("^(-)")?.0 == 3)
    }

    @Test func theDescriptionPointsAtTheColumn() {
        let error = MarbleError(diagram: "--a)--|", column: 4, reason: "')' closes no group")
        #expect(
            error.description == """
                invalid marble diagram: ')' closes no group (column 4)
                  --a)--|
                     ^
                """)
    }
}

extension MarbleDiagram {
    fileprivate var values: [Output] { events.compactMap(\.value) }
}
