import Foundation

/// A progress line on standard error, redrawn in place, only when standard error is a terminal.
final class ProgressLine: @unchecked Sendable {
    private let enabled = isatty(2) == 1
    private var shown = false

    func show(_ text: String) {
        guard enabled else { return }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
        shown = true
    }

    func clear() {
        guard enabled, shown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        shown = false
    }
}
