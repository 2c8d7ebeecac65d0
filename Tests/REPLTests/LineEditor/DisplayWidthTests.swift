import Testing

@testable import REPL

/// Terminal columns per character, and truncation that never splits a character.
@Suite struct DisplayWidthTests {
    @Test func asciiIsOneColumn() {
        #expect(DisplayWidth.of("a") == 1)
        #expect(DisplayWidth.of("hello, world") == 12)
        #expect(DisplayWidth.of("") == 0)
    }

    @Test func eastAsianWideAndFullwidthAreTwoColumns() {
        #expect(DisplayWidth.of("日本語") == 6)
        #expect(DisplayWidth.of("한국어") == 6)
        #expect(DisplayWidth.of("カタカナ") == 8)
        #expect(DisplayWidth.of("ＡＢ") == 4)  // fullwidth Latin
        #expect(DisplayWidth.of("\u{3000}") == 2)  // ideographic space
        #expect(DisplayWidth.of("ｶ") == 1)  // halfwidth katakana
    }

    @Test func emojiAreTwoColumns() {
        #expect(DisplayWidth.of("🚗") == 2)
        #expect(DisplayWidth.of("❤\u{FE0F}") == 2)  // emoji presentation sequence
        #expect(DisplayWidth.of("❤") == 1)  // text presentation by default
        #expect(DisplayWidth.of("👨\u{200D}👩\u{200D}👧") == 2)  // ZWJ sequence
        #expect(DisplayWidth.of("👍🏽") == 2)  // skin tone
        #expect(DisplayWidth.of("🇫🇷") == 2)  // flag
    }

    @Test func zeroWidthScalarsAddNothing() {
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("Cafe\u{301}") == 4)
        #expect(DisplayWidth.of(Character("\u{301}")) == 0)  // a lone combining mark
        #expect(DisplayWidth.of(Character("\u{200D}")) == 0)
        #expect(DisplayWidth.of(Character("\u{FE0F}")) == 0)
        #expect(DisplayWidth.of(Character("\u{200B}")) == 0)
    }

    @Test func controlCharactersAreZeroColumns() {
        #expect(DisplayWidth.of(Character("\u{1B}")) == 0)
        #expect(DisplayWidth.of(Character("\u{7}")) == 0)
        #expect(DisplayWidth.of("\r\n") == 0)
        #expect(DisplayWidth.of(Character("\u{9B}")) == 0)
    }

    @Test func truncatedKeepsTextThatFits() {
        #expect(DisplayWidth.truncated("abc", toWidth: 3) == "abc")
        #expect(DisplayWidth.truncated("日本", toWidth: 4) == "日本")
        #expect(DisplayWidth.truncated("", toWidth: 1) == "")
    }

    @Test func truncatedCutsWithAnEllipsisWithinTheWidth() {
        #expect(DisplayWidth.truncated("abcdef", toWidth: 4) == "abc…")
        #expect(DisplayWidth.truncated("abcdef", toWidth: 1) == "…")
        #expect(DisplayWidth.truncated("日本語", toWidth: 5) == "日本…")
        #expect(DisplayWidth.truncated("日本語", toWidth: 4) == "日…")  // never half a wide character
        #expect(DisplayWidth.truncated("Cafe\u{301}s", toWidth: 4) == "Caf…")
        #expect(DisplayWidth.truncated("Cafe\u{301}xy", toWidth: 5) == "Cafe\u{301}…")  // the accent stays
        for width in 1...8 {
            let cut = DisplayWidth.truncated("a日e\u{301}🚗b本", toWidth: width)
            #expect(DisplayWidth.of(cut) <= width, "width \(width): \(cut)")
        }
    }

    @Test func truncatedToNothingIsEmpty() {
        #expect(DisplayWidth.truncated("abc", toWidth: 0) == "")
        #expect(DisplayWidth.truncated("abc", toWidth: -3) == "")
    }
}
