/// Turns the bytes a terminal in raw mode sends into ``Key``s, keeping an incomplete sequence (a UTF-8
/// character, an escape sequence, a bracketed paste) until the bytes that complete it arrive.
///
/// - UTF-8: each scalar is one `.character`, even when its bytes are split across feeds; a byte that cannot
///   start or continue a valid sequence becomes one U+FFFD `.character`.
/// - CR, LF and CR LF (even split across feeds) are one `.enter`; DEL and BS are `.backspace`, HT is `.tab`,
///   and the other bytes 0x01–0x1A are `.control("a")`…`.control("z")`.
/// - Escape sequences: the arrows, Home, End and Delete in their CSI (`ESC [ …`) and SS3 (`ESC O …`) forms,
///   Ctrl- or Alt-arrows and `ESC b`/`ESC f` as word moves, a bracketed paste (`ESC [200~ … ESC [201~`) as
///   one `.paste`; any other complete CSI sequence or Alt-key is one `.unknown`, never characters.
/// - A lone ESC at the end of a feed may be the start of a sequence: it stays pending
///   (``hasPendingEscape``) until more bytes come or ``flushPendingEscape()`` (called after a short quiet
///   period) turns it into `.escape`.
///
/// ```swift
/// var decoder = KeyDecoder()
/// decoder.feed([0x1B, 0x5B])        // []  (incomplete)
/// decoder.feed([0x43, 0xC3])        // [.right]  (0xC3 waits for the rest of "é")
/// decoder.feed([0xA9, 0x0D, 0x0A])  // [.character("é"), .enter]
/// decoder.feed([0x1B])              // [], hasPendingEscape == true
/// decoder.flushPendingEscape()      // [.escape]
/// ```
public struct KeyDecoder: Sendable {
    /// Bytes received but not decoded yet: an incomplete sequence at the end of the last feed.
    private var pending: [UInt8] = []
    /// Whether a bracketed paste has started and not ended yet.
    private var isInPaste = false
    /// The bytes of the paste so far.
    private var pasteBytes: [UInt8] = []
    /// Whether the last byte decoded was a CR (so an LF right after it is the same Enter).
    private var lastWasCarriageReturn = false

    private static let escapeByte: UInt8 = 0x1B
    private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)
    /// Longer CSI sequences are not keys: they are dropped as `.unknown` without waiting for their end.
    private static let maximumSequenceLength = 32

    /// A decoder with nothing pending.
    public init() {}

    /// Whether an escape sequence has started and is not complete: a lone ESC is the Escape key if nothing
    /// follows it soon (see ``flushPendingEscape()``).
    public var hasPendingEscape: Bool {
        !isInPaste && pending.first == Self.escapeByte
    }

    /// The keys completed by `bytes` (with what was pending before them), in order.
    public mutating func feed(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            guard let (key, length) = decode(at: index) else { break }
            if let key { keys.append(key) }
            index += length
        }
        pending.removeFirst(index)
        return keys
    }

    /// The keys for a pending escape: `.escape` for a lone ESC, `.unknown` for an incomplete sequence that
    /// will not be completed. Does nothing (returns []) when no escape is pending or a paste is in progress.
    public mutating func flushPendingEscape() -> [Key] {
        guard hasPendingEscape else { return [] }
        let isLone = pending.count == 1
        pending.removeAll()
        lastWasCarriageReturn = false
        return [isLone ? .escape : .unknown]
    }

    // MARK: Decoding

    /// The key at `index` of `pending` and how many bytes it takes (a `nil` key: bytes consumed without a key,
    /// e.g. the LF of CR LF or part of a paste); `nil`: the sequence there is incomplete.
    private mutating func decode(at index: Int) -> (Key?, Int)? {
        if isInPaste { return decodePaste(at: index) }
        let byte = pending[index]
        let wasCarriageReturn = lastWasCarriageReturn
        lastWasCarriageReturn = false
        switch byte {
        case 0x0D:
            lastWasCarriageReturn = true
            return (.enter, 1)
        case 0x0A:
            return (wasCarriageReturn ? nil : .enter, 1)
        case 0x7F, 0x08:
            return (.backspace, 1)
        case 0x09:
            return (.tab, 1)
        case 0x01...0x1A:
            return (.control(Character(Unicode.Scalar(byte - 1 + UInt8(ascii: "a")))), 1)
        case Self.escapeByte:
            return decodeEscape(at: index)
        case 0x00, 0x1C...0x1F:
            return (.unknown, 1)
        case 0x20...0x7E:
            return (.character(Character(Unicode.Scalar(byte))), 1)
        default:
            return decodeUTF8(at: index)
        }
    }

    /// A UTF-8 sequence of two to four bytes (`nil` while it may still be completed).
    private func decodeUTF8(at index: Int) -> (Key?, Int)? {
        let lead = pending[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            secondRange = 0x80...0x9F
        case 0xF0:
            length = 4
            secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            secondRange = 0x80...0x8F
        default: return (.character("\u{FFFD}"), 1)
        }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length {
            guard index + offset < pending.count else { return nil }
            let byte = pending[index + offset]
            let range: ClosedRange<UInt8> = offset == 1 ? secondRange : 0x80...0xBF
            // An invalid continuation: the valid part so far is one U+FFFD; the byte is decoded on its own.
            guard range.contains(byte) else { return (.character("\u{FFFD}"), offset) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value) else { return (.character("\u{FFFD}"), length) }
        return (.character(Character(scalar)), length)
    }

    /// A sequence starting with ESC (`nil` while it may still be completed).
    private mutating func decodeEscape(at index: Int) -> (Key?, Int)? {
        guard index + 1 < pending.count else { return nil }
        switch pending[index + 1] {
        case UInt8(ascii: "["):
            return decodeCSI(at: index)
        case UInt8(ascii: "O"):
            guard index + 2 < pending.count else { return nil }
            return (Self.cursorKey(pending[index + 2], modifier: 1) ?? .unknown, 3)
        case UInt8(ascii: "b"):
            return (.wordLeft, 2)
        case UInt8(ascii: "f"):
            return (.wordRight, 2)
        case 0x20...0x7F:
            return (.unknown, 2)  // Alt with a key the editor does not use
        default:
            return (.escape, 1)  // Escape, then a key of its own (e.g. a second Escape)
        }
    }

    /// `ESC [ parameters intermediates final` (`nil` while it may still be completed).
    private mutating func decodeCSI(at index: Int) -> (Key?, Int)? {
        var end = index + 2
        while end < pending.count {
            let byte = pending[end]
            switch byte {
            case 0x20...0x3F:
                end += 1
                if end - index > Self.maximumSequenceLength { return (.unknown, end - index) }
            case 0x40...0x7E:
                let parameters = String(decoding: pending[(index + 2)..<end], as: UTF8.self)
                return (csiKey(parameters: parameters, final: byte), end + 1 - index)
            default:
                // Not a valid CSI byte: the sequence so far is dropped, the byte is decoded on its own.
                return (.unknown, end - index)
            }
        }
        return nil
    }

    /// The key for a complete CSI sequence (starting a paste for `200~`).
    private mutating func csiKey(parameters: String, final: UInt8) -> Key? {
        let fields = parameters.split(separator: ";", omittingEmptySubsequences: false)
        let first = fields.first.map(String.init) ?? ""
        let modifier = fields.count > 1 ? Int(fields[1]) ?? 1 : 1
        if final == UInt8(ascii: "~") {
            switch first {
            case "1", "7": return .home
            case "4", "8": return .end
            case "3": return .delete
            case "200":
                isInPaste = true
                pasteBytes = []
                return nil
            default: return .unknown
            }
        }
        guard first.isEmpty || first == "1" else { return .unknown }
        return Self.cursorKey(final, modifier: modifier) ?? .unknown
    }

    /// The key for the final byte of an arrow, Home or End sequence; Alt (3) or Ctrl (5, 7) with Left or
    /// Right is a word move.
    private static func cursorKey(_ final: UInt8, modifier: Int) -> Key? {
        let isWordMove = [3, 5, 7].contains(modifier)
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return isWordMove ? .wordRight : .right
        case UInt8(ascii: "D"): return isWordMove ? .wordLeft : .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        default: return nil
        }
    }

    /// Paste bytes up to `ESC [201~`; the end marker may be split across feeds.
    private mutating func decodePaste(at index: Int) -> (Key?, Int)? {
        let end = Self.pasteEnd
        var position = index
        while position < pending.count {
            if pending[position] == Self.escapeByte {
                let available = min(end.count, pending.count - position)
                if pending[position..<(position + available)].elementsEqual(end[0..<available]) {
                    guard available == end.count else { break }  // maybe the end marker: wait for the rest
                    pasteBytes += pending[index..<position]
                    isInPaste = false
                    let text = Self.pastedText(pasteBytes)
                    pasteBytes = []
                    return (.paste(text), position + end.count - index)
                }
            }
            position += 1
        }
        guard position > index else { return nil }
        pasteBytes += pending[index..<position]
        return (nil, position - index)
    }

    /// Pasted bytes as text: invalid UTF-8 repaired, line breaks (CR LF, CR, LF) and tabs as spaces.
    private static func pastedText(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        var result = ""
        for character in text {
            result.append(character.isNewline || character == "\t" ? " " : character)
        }
        return result
    }
}
