import Testing

@testable import REPL

/// Raw-mode bytes in, keys out, including sequences split across reads.
@Suite struct KeyDecoderTests {
    private func decode(_ feeds: [UInt8]...) -> [Key] {
        var decoder = KeyDecoder()
        return feeds.flatMap { decoder.feed($0) }
    }

    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func asciiAndControlBytes() {
        #expect(decode(bytes("ab 1")) == [.character("a"), .character("b"), .character(" "), .character("1")])
        #expect(
            decode([0x01, 0x05, 0x12, 0x17, 0x1A]) == [
                .control("a"), .control("e"), .control("r"), .control("w"), .control("z"),
            ])
        #expect(decode([0x7F, 0x08, 0x09]) == [.backspace, .backspace, .tab])
        #expect(decode([0x00, 0x1C]) == [.unknown, .unknown])
    }

    @Test func enterFromCRLFOrCRLFCountsOnce() {
        #expect(decode([0x0D]) == [.enter])
        #expect(decode([0x0A]) == [.enter])
        #expect(decode([0x0D, 0x0A]) == [.enter])
        #expect(decode([0x0D], [0x0A]) == [.enter])
        #expect(decode([0x0D, 0x0D]) == [.enter, .enter])
        #expect(decode([0x0A, 0x0A]) == [.enter, .enter])
        #expect(decode([0x0D, 0x61, 0x0A]) == [.enter, .character("a"), .enter])
    }

    @Test func utf8SplitAcrossFeedsIsReassembled() {
        let japanese = bytes("日")  // 3 bytes
        #expect(decode(Array(japanese[0..<1]), Array(japanese[1..<3])) == [.character("日")])
        let emoji = bytes("🚗")  // 4 bytes
        #expect(decode([emoji[0]], [emoji[1]], [emoji[2]], [emoji[3]]) == [.character("🚗")])
        var decoder = KeyDecoder()
        #expect(decoder.feed([0xC3]) == [])
        #expect(decoder.feed([0xA9, 0x78]) == [.character("é"), .character("x")])
    }

    @Test func combiningMarkIsItsOwnScalarKey() {
        #expect(decode(bytes("e\u{301}")) == [.character("e"), .character("\u{301}")])
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        #expect(decode([0xFF, 0x61]) == [.character("\u{FFFD}"), .character("a")])
        #expect(decode([0x80]) == [.character("\u{FFFD}")])
        // A lead byte followed by a non-continuation: one U+FFFD, then the byte itself.
        #expect(decode([0xE6, 0x97, 0x41]) == [.character("\u{FFFD}"), .character("A")])
        // Overlong and surrogate encodings.
        #expect(decode([0xC0, 0xAF]) == [.character("\u{FFFD}"), .character("\u{FFFD}")])
        #expect(decode([0xED, 0xA0, 0x80]).allSatisfy { $0 == .character("\u{FFFD}") })
        #expect(decode(Array(0x80...0xFF)).allSatisfy { $0 == .character("\u{FFFD}") })
    }

    @Test func cursorKeysInCSIAndSS3Forms() {
        #expect(
            decode(bytes("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D\u{1B}[H\u{1B}[F")) == [
                .up, .down, .right, .left, .home, .end,
            ])
        #expect(
            decode(bytes("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD\u{1B}OH\u{1B}OF")) == [
                .up, .down, .right, .left, .home, .end,
            ])
        #expect(
            decode(bytes("\u{1B}[1~\u{1B}[7~\u{1B}[4~\u{1B}[8~\u{1B}[3~")) == [
                .home, .home, .end, .end, .delete,
            ])
    }

    @Test func wordMoves() {
        #expect(
            decode(bytes("\u{1B}[1;5C\u{1B}[1;5D\u{1B}f\u{1B}b\u{1B}[1;3D")) == [
                .wordRight, .wordLeft, .wordRight, .wordLeft, .wordLeft,
            ])
    }

    @Test func csiSplitAcrossFeedsIsOneKey() {
        #expect(decode(bytes("\u{1B}["), bytes("A")) == [.up])
        #expect(decode(bytes("\u{1B}"), bytes("[1;"), bytes("5C")) == [.wordRight])
        #expect(decode(bytes("x\u{1B}[3"), bytes("~y")) == [.character("x"), .delete, .character("y")])
    }

    @Test func otherCSISequencesAreOneUnknownKeyWithoutLeakingCharacters() {
        // F5, a cursor position report, shift-tab, a private mode sequence.
        #expect(decode(bytes("\u{1B}[15~a")) == [.unknown, .character("a")])
        #expect(decode(bytes("\u{1B}[12;40Rb")) == [.unknown, .character("b")])
        #expect(decode(bytes("\u{1B}[Z")) == [.unknown])
        #expect(decode(bytes("\u{1B}[?1049h")) == [.unknown])
        #expect(decode(bytes("\u{1B}[201~")) == [.unknown])  // a stray paste end
        #expect(decode(bytes("\u{1B}x")) == [.unknown])  // Alt-X
    }

    @Test func loneEscapeWaitsThenFlushesAsEscape() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.hasPendingEscape)
        #expect(decoder.flushPendingEscape() == [.escape])
        #expect(!decoder.hasPendingEscape)
        #expect(decoder.flushPendingEscape() == [])
        #expect(decoder.feed(bytes("a")) == [.character("a")])
    }

    @Test func pendingEscapeCompletedByNextFeed() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.feed(bytes("[D")) == [.left])
        #expect(!decoder.hasPendingEscape)
    }

    @Test func escapeFollowedByAControlByteIsEscapeThenThatKey() {
        #expect(decode([0x1B, 0x1B, 0x5B, 0x41]) == [.escape, .up])
        #expect(decode([0x1B, 0x0D]) == [.escape, .enter])
    }

    @Test func incompleteSequenceFlushesAsUnknown() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(bytes("\u{1B}[1;")) == [])
        #expect(decoder.hasPendingEscape)
        #expect(decoder.flushPendingEscape() == [.unknown])
        #expect(decoder.feed(bytes("5C")) == [.character("5"), .character("C")])
    }

    @Test func bracketedPasteIsOneKeyWithNewlinesAsSpaces() {
        #expect(
            decode(bytes("\u{1B}[200~milk\r\nbread\neggs\u{1B}[201~x")) == [
                .paste("milk bread eggs"), .character("x"),
            ])
    }

    @Test func bracketedPasteSplitAnywhere() {
        let all = bytes("\u{1B}[200~日本\u{1B}[A\u{1B}[201~")
        for cut in 1..<all.count {
            let keys = decode(Array(all[..<cut]), Array(all[cut...]))
            #expect(keys == [.paste("日本\u{1B}[A")], "cut at \(cut)")
        }
        var decoder = KeyDecoder()
        #expect(decoder.feed(bytes("\u{1B}[200~abc\u{1B}")) == [])
        #expect(!decoder.hasPendingEscape)  // inside a paste, an ESC is not the Escape key
        #expect(decoder.flushPendingEscape() == [])
        #expect(decoder.feed(bytes("[201~")) == [.paste("abc")])
    }
}
