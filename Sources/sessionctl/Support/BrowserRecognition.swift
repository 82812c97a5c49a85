import SessionFormats

extension BrowserFamilies {
    /// The name of the family that recognises `path` (a profile, session directory or session
    /// file), or nil when none does or it is compressed: what compress and decompress report.
    static func recognising(_ path: String) -> String? {
        guard !CompressedInput.isGzip(path) else { return nil }
        return (try? InputOpener.open(path))?.browser
    }
}
