/// The rules of the optimized format (`SessionStorage/`), and those about the profile as a whole.
extension Rule {
    // Session-level: the window is lost.
    public static let metadataMissing = Rule(
        "metadata-missing", .error, .sessionLost,
        "The session directory has no session_metadata.pb: the window loads empty and its tab directories are deleted.")
    public static let metadataUnparsable = Rule(
        "metadata-unparsable", .error, .sessionLost,
        "session_metadata.pb cannot be read or is not a valid WebStateListStorage message (offset of the first bad byte given).")
    public static let tabIDInvalid = Rule(
        "tab-id-invalid", .error, .sessionLost,
        "A tab's identifier is 0 or negative: Chrome treats the whole session as corrupt.")

    // Tab-level: one tab is lost.
    public static let tabIDDuplicate = Rule(
        "tab-id-duplicate", .error, .tabLost,
        "Two tabs share an identifier: every one but the first is dropped.")
    public static let tabNoHistory = Rule(
        "tab-no-history", .error, .tabLost,
        "A tab's navigation item count is 0: it is dropped on load and its directory deleted.")
    public static let tabDirectoryMissing = Rule(
        "tab-directory-missing", .error, .sessionLost,
        "A listed tab has no <%08x> directory: Chrome M122-M144 load the whole window empty; M145 and later rebuild the tab from its URL.")
    public static let tabDataMissing = Rule(
        "tab-data-missing", .error, .sessionLost,
        "A tab directory has no data.pb: Chrome M122-M144 load the whole window empty; M145 and later rebuild the tab from its URL.")
    public static let tabDataUnparsable = Rule(
        "tab-data-unparsable", .error, .tabLost,
        "data.pb cannot be read or is not a valid WebStateStorage message: the tab is dropped at the next save.")
    public static let tabDataEmpty = Rule(
        "tab-data-empty", .error, .tabLost,
        "data.pb holds no navigation items: the tab is dropped at the next save once it is realized.")

    public static let lastCommittedNegative = Rule(
        "last-committed-negative", .error, .tabLost,
        "A last committed item index below -1 with items: Chrome keeps it and realizes the tab with no page and no back history.")

    // Chrome crashes.
    public static let enumOutOfRange = Rule(
        "enum-out-of-range", .error, .crash,
        "A user agent (0-3) or referrer policy (0-8) of data.pb is outside its range: Chrome crashes when the tab is realized.")
    public static let lastCommittedOutOfRange = Rule(
        "last-committed-out-of-range", .error, .crash,
        "data.pb's last committed item index is past its last item: Chrome reads beyond the history when the tab is realized.")
    public static let openerSelf = Rule(
        "opener-self", .error, .crash,
        "A tab is its own opener: current Chrome stops on a CHECK while it restores the window (older versions ignored it).")

    // Data Chrome deletes.
    public static let historyTooLong = Rule(
        "history-too-long", .error, .entryDeleted,
        "data.pb holds more than 75 navigation items: Chrome trims the rest around the last committed item.")
    public static let unreferencedEntry = Rule(
        "unreferenced-entry", .error, .entryDeleted,
        "A tab directory that no surviving tab of session_metadata.pb refers to: Chrome deletes it with its contents.")
    public static let tabDirectoryNameInvalid = Rule(
        "tab-directory-name-invalid", .error, .entryDeleted,
        "A directory named like a tab's but not as Chrome names them (8 lower-case hex digits): Chrome deletes it.")

    // Silent adjustments.
    public static let activeIndexOutOfRange = Rule(
        "active-index-out-of-range", .warning, .adjusted,
        "The active index is neither -1 nor the index of a tab: no tab is activated.")
    public static let pinnedCountOutOfRange = Rule(
        "pinned-count-out-of-range", .warning, .adjusted,
        "The pinned tab count is negative or larger than the number of tabs: no tab, or every tab, is pinned.")
    public static let openerOutOfRange = Rule(
        "opener-out-of-range", .warning, .adjusted,
        "A tab's opener index does not point at a tab of the window: the opener is cleared.")
    public static let groupRangeInvalid = Rule(
        "group-range-invalid", .warning, .adjusted,
        "A tab group's range is empty, starts among the pinned tabs or runs past the last tab: the group is removed.")
    public static let groupIDDuplicate = Rule(
        "group-id-duplicate", .warning, .adjusted,
        "A tab group's id repeats an earlier group's: the later group is removed.")
    public static let groupColorOutOfRange = Rule(
        "group-color-out-of-range", .warning, .adjusted,
        "A tab group's colour is outside 0-8: Chrome shows the group grey.")
    public static let groupIDZero = Rule(
        "group-id-zero", .warning, .adjusted,
        "A tab group's id is missing or all zero: Chrome gives the group a fresh id.")
    public static let itemCountMismatch = Rule(
        "item-count-mismatch", .warning, .adjusted,
        "The navigation item count of session_metadata.pb differs from the items of data.pb: re-derived when the tab is realized.")
    public static let activePageMismatch = Rule(
        "active-page-mismatch", .warning, .adjusted,
        "The title or URL of session_metadata.pb is not the last committed item's: shown until the tab is realized, then replaced.")
    public static let stateTooLarge = Rule(
        "state-too-large", .info, .none,
        "state.pb is larger than 5 MiB: Chrome reads it at any size, but never writes one so large (the limit applies when saving).")
    public static let internalURL = Rule(
        "internal-url", .warning, .none,
        "A navigation item holds an internal://local/sessionrestore or errorpage wrapper instead of the page's URL: it will not load.")
    public static let mixedFormats = Rule(
        "mixed-formats", .warning, .none,
        "Both SessionStorage/ and Sessions/ exist: Chrome loads the format its preference ios.session.storage.format names (SessionStorage/ when it is unset) and ignores the other."
    )

    // Worth knowing.
    public static let temporaryFile = Rule(
        "temp-file", .info, .entryDeleted,
        "A leftover temporary file of an interrupted atomic write: Chrome deletes it.")
    public static let transitionalMetadata = Rule(
        "transitional-metadata", .info, .none,
        "A <%08x>/metadata.pb of the transitional 2023 layout: Chrome no longer reads it and leaves it in place.")
    public static let tabDirectoryExtra = Rule(
        "tab-directory-extra", .info, .none,
        "A file in a restored tab's directory other than data.pb and state.pb: Chrome ignores it and leaves it in place.")
    public static let strayFile = Rule(
        "stray-file", .info, .entryDeleted,
        "A file or directory that is not part of Chrome's layout (or an empty tab directory): Chrome deletes it.")
    public static let tabDataHasMetadata = Rule(
        "tab-data-has-metadata", .info, .none,
        "data.pb carries a metadata field, which Chrome leaves empty there; it is ignored.")
    public static let backupPresent = Rule(
        "backup-present", .info, .none,
        "Backups/<id>/session.backup.plist: a session set aside by Chrome's legacy crash helper, never loaded again by itself.")

    /// The rules above, in order.
    static let optimizedRules: [Rule] = [
        metadataMissing, metadataUnparsable, tabIDInvalid, tabIDDuplicate, tabNoHistory,
        tabDirectoryMissing, tabDataMissing, tabDataUnparsable, tabDataEmpty, lastCommittedNegative,
        enumOutOfRange, lastCommittedOutOfRange, openerSelf,
        historyTooLong, unreferencedEntry, tabDirectoryNameInvalid, activeIndexOutOfRange,
        pinnedCountOutOfRange, openerOutOfRange, groupRangeInvalid, groupIDDuplicate, groupColorOutOfRange, groupIDZero,
        itemCountMismatch, activePageMismatch, internalURL,
        mixedFormats, temporaryFile, transitionalMetadata, tabDirectoryExtra, strayFile, stateTooLarge, tabDataHasMetadata, backupPresent
    ]
}
