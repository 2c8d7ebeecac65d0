/// One key press (or one bracketed paste) as the ``LineEditor`` understands it, decoded from the terminal's
/// raw-mode bytes by ``KeyDecoder``.
///
/// A printable character is one `.character` per Unicode scalar (the editor joins combining marks to the
/// character before them); control keys are `.control` with their lowercase letter; everything the decoder
/// recognises but the editor has no name for is `.unknown`.
///
/// ```swift
/// var decoder = KeyDecoder()
/// decoder.feed([0x61, 0x01, 0x1B, 0x5B, 0x44])   // [.character("a"), .control("a"), .left]
/// ```
public enum Key: Equatable, Sendable {
    /// A printable character (one Unicode scalar when it comes from ``KeyDecoder``).
    case character(Character)
    /// Enter (CR, LF or CR LF).
    case enter
    /// Tab.
    case tab
    /// Backspace (DEL or BS).
    case backspace
    /// Delete (forward delete, `ESC [ 3 ~`).
    case delete
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Home.
    case home
    /// End.
    case end
    /// One word left (Alt-B, Ctrl-Left).
    case wordLeft
    /// One word right (Alt-F, Ctrl-Right).
    case wordRight
    /// A control key, by its lowercase letter: `.control("a")` is Ctrl-A.
    case control(Character)
    /// The Escape key on its own.
    case escape
    /// A bracketed paste: the pasted text, with its line breaks turned into spaces.
    case paste(String)
    /// A sequence that was recognised as one key but means nothing here (e.g. F5, Alt-X).
    case unknown
}
