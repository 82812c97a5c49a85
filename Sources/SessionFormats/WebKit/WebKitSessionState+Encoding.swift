extension WebKitSessionState {
    /// The bytes of the state as WebKit lays them out (`encodeLegacySessionState`): the version, 2,
    /// as four big-endian bytes, then a binary property list of `SessionHistory` and
    /// `IsAppInitiated` (true).
    ///
    /// The history holds `SessionHistoryVersion` (1) and, with a current index,
    /// `SessionHistoryCurrentIndex` and `SessionHistoryEntries`, each entry its
    /// `SessionHistoryEntryURL`, `SessionHistoryEntryTitle`, `SessionHistoryEntryOriginalURL` and,
    /// when it has a frame state, `SessionHistoryEntryData`. As in WebKit, a state without a
    /// current index is written as an empty history. What `decode` reads is written so that it
    /// decodes to the same value; a current index that names no entry is written as it is (WebKit
    /// refuses it). WebKit before mid-2024 refuses an entry without a frame state.
    /// `RenderTreeSize` and each entry's `SessionHistoryEntryShouldOpenExternalURLsPolicyKey` are
    /// left out: WebKit reads them as 0 and as its default policy.
    public func encode() -> [UInt8] {
        var history: [String: PlistValue] = ["SessionHistoryVersion": .integer(1)]
        if let currentIndex {
            history["SessionHistoryCurrentIndex"] = .integer(Int64(currentIndex))
            history["SessionHistoryEntries"] = .array(
                entries.map { entry in
                    var members: [String: PlistValue] = [
                        "SessionHistoryEntryURL": .string(entry.url), "SessionHistoryEntryTitle": .string(entry.title),
                        "SessionHistoryEntryOriginalURL": .string(entry.originalURL)
                    ]
                    if let frameState = entry.frameState { members["SessionHistoryEntryData"] = .data(frameState) }
                    return .dictionary(members)
                })
        }
        let state = PlistValue.dictionary(["SessionHistory": .dictionary(history), "IsAppInitiated": .bool(true)])
        let version = (0..<4).map { UInt8(truncatingIfNeeded: Self.version >> (24 - 8 * UInt32($0))) }
        return version + BinaryPlistWriter.encode(state)
    }
}
