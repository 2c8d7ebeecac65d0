/// How many terminal columns text takes, the way common terminals draw it.
///
/// - 2 columns: East Asian wide and fullwidth characters (CJK ideographs, kana, Hangul syllables, fullwidth
///   forms) and emoji shown as emoji (emoji-presentation characters, any character followed by U+FE0F,
///   flags, ZWJ and skin-tone sequences).
/// - 0 columns: control characters and characters made only of zero-width scalars (combining marks, zero-width
///   joiners and spaces, variation selectors, other format characters).
/// - 1 column: everything else. A combining mark joined to a base character adds nothing.
///
/// ```swift
/// DisplayWidth.of("日本")                          // 4
/// DisplayWidth.of("e\u{301}")                     // 1
/// DisplayWidth.truncated("日本語です", toWidth: 5)   // "日本…"
/// ```
public enum DisplayWidth {
    /// The columns one character (grapheme cluster) takes: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.properties.generalCategory == .control { return 0 }
        if scalars.allSatisfy(isZeroWidth) { return 0 }
        if isWide(first) { return 2 }
        if first.properties.isEmoji, scalars.contains("\u{FE0F}") { return 2 }
        return 1
    }

    /// The columns `text` takes: the sum of its characters' widths.
    public static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// `text` cut to at most `width` columns: unchanged when it fits; otherwise its first characters followed
    /// by "…" (one column), never splitting a character. "" when `width` ≤ 0.
    ///
    /// ```swift
    /// DisplayWidth.truncated("abcdef", toWidth: 4)   // "abc…"
    /// DisplayWidth.truncated("日本語", toWidth: 4)     // "日…" (a wide character is never cut in half)
    /// ```
    public static func truncated(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        guard of(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let characterWidth = of(character)
            guard used + characterWidth <= width - 1 else { break }
            result.append(character)
            used += characterWidth
        }
        return result + "…"
    }

    // MARK: Tables

    /// Whether `scalar` takes no column of its own (a combining mark, a joiner, a variation selector…).
    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            return scalar != "\u{00AD}"  // the soft hyphen is drawn as a hyphen
        default:
            switch scalar.value {
            case 0x1160...0x11FF, 0xD7B0...0xD7FF: return true  // Hangul medial vowels and final consonants
            default: return false
            }
        }
    }

    /// Whether `scalar` is drawn two columns wide: East Asian Wide or Fullwidth, or an emoji with emoji
    /// presentation by default.
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isEmojiPresentation { return true }
        switch scalar.value {
        case 0x1100...0x115F,  // Hangul Jamo initial consonants
            0x2E80...0x303E,  // CJK radicals, Kangxi radicals, ideographic description, CJK symbols and punctuation
            0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK compatibility
            0x3400...0x4DBF,  // CJK unified ideographs extension A
            0x4E00...0x9FFF,  // CJK unified ideographs
            0xA000...0xA4CF,  // Yi
            0xA960...0xA97F,  // Hangul Jamo extended A
            0xAC00...0xD7A3,  // Hangul syllables
            0xF900...0xFAFF,  // CJK compatibility ideographs
            0xFE10...0xFE19,  // vertical forms
            0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
            0xFF00...0xFF60,  // fullwidth forms
            0xFFE0...0xFFE6,  // fullwidth signs
            0x16FE0...0x16FE4, 0x17000...0x18CFF,  // Tangut, Khitan
            0x1B000...0x1B2FF,  // kana supplement and extensions, Nüshu
            0x1F200...0x1F2FF,  // enclosed ideographic supplement
            0x20000...0x2FFFD, 0x30000...0x3FFFD:  // CJK extensions B and later
            return true
        default:
            return false
        }
    }
}
