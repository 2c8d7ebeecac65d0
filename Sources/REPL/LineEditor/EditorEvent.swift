/// What a key did to the ``LineEditor``, so its caller knows what to redraw or do.
///
/// ```swift
/// switch editor.handle(key) {
/// case .edited, .moved: redraw()
/// case .submit(let line): run(line)
/// case .bell: ring()
/// default: break
/// }
/// ```
public enum EditorEvent: Equatable, Sendable {
    /// The text changed (or, during a reverse search, what is shown).
    case edited
    /// Only the cursor moved.
    case moved
    /// Enter: this line was submitted (and added to the history); the editor is empty again.
    case submit(String)
    /// Ctrl-C: the text is unchanged; the caller decides what to cancel or clear.
    case interrupt
    /// Ctrl-D on an empty line.
    case endOfInput
    /// Ctrl-L: the caller clears the screen and redraws.
    case clearScreen
    /// The key could do nothing useful (e.g. Tab with no completion).
    case bell
    /// Tab with several completions and nothing more to add: these are the choices to list.
    case showCompletions([String])
    /// Nothing changed.
    case none
}
