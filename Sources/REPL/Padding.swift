extension String {
    /// The text padded with spaces to `width` characters (unchanged when longer).
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    /// The text padded on the left with spaces to `width` characters (unchanged when longer).
    func leftPadding(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
