import SessionForensics

/// The rules of the legacy format (`Sessions/<id>/session.plist`): what Chrome's legacy reader
/// repairs silently (docs/chrome-ios-format.md, legacy format), and a file it cannot read at all.
extension Rule {
    public static let legacyUnparsable = Rule(
        "legacy-unparsable", .error, .sessionLost,
        "session.plist cannot be read (a FIFO or another file that is not a regular file too), is not a keyed archive of a window, or its shared object references expand past what a file of its size can hold: the window loads empty.",
        repair: .step("the session's directory is set aside unconverted: no tab can be read from it.")
    )
    public static let legacyUnreadableByChrome = Rule(
        "legacy-unreadable-by-chrome", .error, .sessionLost,
        "session.plist uses class names of Chrome M57-M59, or its SessionIOS root holds other than one window: current Chrome reads nothing of it.",
        repair: .step("the window is written as one SessionWindowIOS with current class names.")
    )
    public static let legacyEntriesForeign = Rule(
        "legacy-entries-foreign", .error, .tabLost,
        "A tab's entries hold something other than a CRWNavigationItemStorage: Chrome reads the tab with no entries and drops it.",
        repair: .step("the tab is written with the navigation entries that can be read, without the foreign object."))
    public static let legacySelectedIndexOutOfRange = Rule(
        "legacy-selected-index-out-of-range", .warning, .adjusted,
        "selectedIndex is neither a tab's index nor NSNotFound (which Chrome reads as the first tab): Chrome selects the first tab.",
        repair: .step("the index is brought into range as Chrome's legacy reader does."))
    public static let legacyTabIDInvalid = Rule(
        "legacy-tab-id-invalid", .warning, .adjusted,
        "A tab's uniqueIdentifier is missing or not a positive 32-bit integer: Chrome gives the tab a new id.",
        repair: .step("the tab gets a new id, as Chrome's legacy reader gives it."))
    public static let legacyLastCommittedOutOfRange = Rule(
        "legacy-last-committed-out-of-range", .warning, .adjusted,
        "lastCommittedItemIndex is past the last entry (or not -1 without entries): Chrome lowers it to the last entry.",
        repair: .step("the index is lowered to the last entry."))
    public static let legacyTimeOrder = Rule(
        "legacy-time-order", .warning, .adjusted,
        "A tab's lastActiveTime is earlier than its creationTime: Chrome raises it to the creation time (a missing one too, silently).",
        repair: .step("lastActiveTime is raised to the creation time."))
    public static let legacyPinnedNotPrefix = Rule(
        "legacy-pinned-not-prefix", .warning, .adjusted,
        "Tabs marked pinned do not all come first: Chrome's migration counts them and pins that many tabs from the first.",
        repair: .step("the pinned tabs are made a prefix, as Chrome's migration counts them."))
    public static let legacyUserAgentUnknown = Rule(
        "legacy-user-agent-unknown", .warning, .adjusted,
        "A tab's userAgentKey is not AUTOMATIC, NONE, MOBILE or DESKTOP: Chrome reads it as NONE.",
        repair: .step("the key is written as NONE."))

    /// The rules above, in order.
    static let legacyRules: [Rule] = [
        legacyUnparsable, legacyUnreadableByChrome, legacyEntriesForeign, legacySelectedIndexOutOfRange, legacyTabIDInvalid,
        legacyLastCommittedOutOfRange,
        legacyTimeOrder, legacyPinnedNotPrefix, legacyUserAgentUnknown
    ]
}
