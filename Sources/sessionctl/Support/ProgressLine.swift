import Foundation

/// Progress on standard error: on a terminal, one line redrawn in place; elsewhere (a CI log) a
/// plain line every `interval` seconds, so that a long run is never silent; nothing when quiet.
/// No colour is ever used, so NO_COLOR has nothing to turn off.
final class ProgressLine: @unchecked Sendable {
    private let terminal = isatty(2) == 1
    private let quiet: Bool
    private let interval: Double
    private var shown = false
    private var lastLine: Date?

    init(quiet: Bool = false, interval: Double = 10) {
        self.quiet = quiet
        self.interval = interval
    }

    /// Shows `text` now (terminal) or when `interval` has passed since the last line (elsewhere).
    func show(_ text: String) {
        guard !quiet else { return }
        if terminal {
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
            shown = true
            return
        }
        let now = Date()
        if let lastLine, now.timeIntervalSince(lastLine) < interval { return }
        if lastLine == nil {
            // The first line comes after one interval too: short runs print nothing.
            lastLine = now
            return
        }
        lastLine = now
        FileHandle.standardError.write(Data(("sessionctl: " + text + "\n").utf8))
    }

    func clear() {
        guard terminal, shown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        shown = false
    }
}
