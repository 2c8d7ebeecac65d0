import Testing

@testable import REPL

/// What Tab does for the text before the cursor and the candidate lines.
@Suite struct TabCompletionTests {
    @Test func noCandidates() {
        #expect(TabCompletion.complete(":zz", candidates: []) == .noCandidates)
    }

    @Test func oneCandidateReplacesTheText() {
        #expect(TabCompletion.complete(":he", candidates: [":help "]) == .replace(":help "))
        #expect(TabCompletion.complete(":so", candidates: [":sort ", ":sort "]) == .replace(":sort "))
    }

    @Test func severalCandidatesExtendToTheirCommonPrefix() {
        #expect(TabCompletion.complete(":s", candidates: [":sort ", ":source "]) == .replace(":so"))
        #expect(TabCompletion.complete("", candidates: [":sort ", ":source "]) == .replace(":so"))
    }

    @Test func severalCandidatesWithNothingToAddAreShownByTheirLastWord() {
        #expect(TabCompletion.complete(":so", candidates: [":sort ", ":source "]) == .show([":sort", ":source"]))
        #expect(
            TabCompletion.complete(":sort ", candidates: [":sort price ", ":sort name "]) == .show(["price", "name"]))
    }

    @Test func commonPrefixNeverSplitsACharacter() {
        #expect(TabCompletion.commonPrefix(["cafe\u{301}s", "cafe"]) == "caf")
        #expect(TabCompletion.commonPrefix(["日本語", "日本酒"]) == "日本")
        #expect(TabCompletion.commonPrefix(["abc", "xyz"]) == "")
        #expect(TabCompletion.commonPrefix([]) == "")
    }

    @Test func shortForm() {
        #expect(TabCompletion.shortForm(":sort price ") == "price")
        #expect(TabCompletion.shortForm(":help") == ":help")
        #expect(TabCompletion.shortForm("  ") == "  ")
    }
}
