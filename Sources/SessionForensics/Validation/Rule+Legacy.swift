/// The rules of the legacy format (`Sessions/<id>/session.plist`): what Chrome's legacy reader
/// repairs silently (chrome-ios-format.md section 6), and a file it cannot read at all.
extension Rule {
    public static let legacyUnparsable = Rule(
        "legacy-unparsable", .error, .sessionLost,
        "session.plist cannot be read or is not a keyed archive of a window: the window loads empty.")
    public static let legacySelectedIndexOutOfRange = Rule(
        "legacy-selected-index-out-of-range", .warning, .adjusted,
        "selectedIndex is neither NSNotFound nor the index of a tab: Chrome selects the first tab (none in an empty window).")
    public static let legacyTabIDInvalid = Rule(
        "legacy-tab-id-invalid", .warning, .adjusted,
        "A tab's uniqueIdentifier is missing or not a positive 32-bit integer: Chrome gives the tab a new id.")
    public static let legacyLastCommittedOutOfRange = Rule(
        "legacy-last-committed-out-of-range", .warning, .adjusted,
        "lastCommittedItemIndex is past the last entry or below -1: Chrome clamps it (to -1 when there are no entries).")
    public static let legacyTimeOrder = Rule(
        "legacy-time-order", .warning, .adjusted,
        "A tab's lastActiveTime is earlier than its creationTime: Chrome raises it to the creation time.")
    public static let legacyPinnedNotPrefix = Rule(
        "legacy-pinned-not-prefix", .warning, .adjusted,
        "A tab marked pinned follows an unpinned one: Chrome counts pinned tabs only up to the first unpinned tab.")
    public static let legacyUserAgentUnknown = Rule(
        "legacy-user-agent-unknown", .warning, .adjusted,
        "A tab's userAgentKey is not AUTOMATIC, NONE, MOBILE or DESKTOP: Chrome reads it as NONE.")

    /// The rules above, in order.
    static let legacyRules: [Rule] = [
        legacyUnparsable, legacySelectedIndexOutOfRange, legacyTabIDInvalid, legacyLastCommittedOutOfRange,
        legacyTimeOrder, legacyPinnedNotPrefix, legacyUserAgentUnknown,
    ]
}
