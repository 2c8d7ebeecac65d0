#if canImport(Glibc)
    import Glibc
#endif

/// Runs `body` in a forked child process and returns the lines it produced, or `nil` if the child crashed.
///
/// The reference library has bugs of its own that crash (OpenCombine 0.14: a stack overflow in
/// `replaceError` + `retry`, an unowned reference in `zip`); a crash there must cost one case, not the run.
/// The check is single-threaded, so forking is safe.
func isolated(_ body: () -> [String]) -> [String]? {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return body() }
    let child = fork()
    if child == 0 {
        close(fds[0])
        // A crash report belongs to the reference, not to the check's output: the child's stderr goes nowhere.
        let devNull = open("/dev/null", O_WRONLY)
        if devNull >= 0 { dup2(devNull, 2) }
        let text = body().joined(separator: "\n")
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeMutableBytes { write(fds[1], $0.baseAddress, $0.count) }
            if written <= 0 { break }
            offset += written
        }
        bytes.removeAll()
        _exit(0)
    }
    close(fds[1])
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
        if count <= 0 { break }
        output.append(contentsOf: buffer[0..<count])
    }
    close(fds[0])
    var status: Int32 = 0
    waitpid(child, &status, 0)
    guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else { return nil }
    let text = String(decoding: output, as: UTF8.self)
    return text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
}
