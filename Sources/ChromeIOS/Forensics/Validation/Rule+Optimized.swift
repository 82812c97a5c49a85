import SessionForensics

/// The rules of the optimized format (`SessionStorage/`), and those about the profile as a whole.
extension Rule {
    // Session-level: the window is lost.
    public static let metadataMissing = Rule(
        "metadata-missing", .error, .sessionLost,
        "The session directory has no session_metadata.pb: the window loads empty and its tab directories are deleted.",
        repair: .step("session_metadata.pb is rebuilt from the tab directories, each tab's entry from its data.pb."))
    public static let metadataUnparsable = Rule(
        "metadata-unparsable", .error, .sessionLost,
        "session_metadata.pb cannot be read or is not a valid WebStateListStorage message (offset of the first bad byte given).",
        repair: .step(
            "the complete tabs before the damage are kept and every tab directory the list no longer names is added back from its data.pb.")
    )
    public static let tabIDInvalid = Rule(
        "tab-id-invalid", .error, .sessionLost,
        "A tab's identifier is 0 or negative: Chrome treats the whole session as corrupt.",
        repair: .step("the tab gets a fresh id above the highest in use, and its directory the matching name."))

    // Tab-level: one tab is lost.
    public static let tabIDDuplicate = Rule(
        "tab-id-duplicate", .error, .tabLost,
        "Two tabs share an identifier: every one but the first is dropped.",
        repair: .step(
            "every repeat gets a fresh id above the highest in use; a directory no tab lists whose history is the repeat's becomes its directory."
        ))
    public static let tabNoHistory = Rule(
        "tab-no-history", .error, .tabLost,
        "A tab's navigation item count is 0: it is dropped on load and its directory deleted.",
        repair: .step(
            "the count is re-derived from data.pb; without one, the history is read back from the tab's state.pb, or a one-item history is rebuilt from its entry's URL, title and time (a tab with neither URL nor title is left out)."
        ))
    public static let tabDirectoryMissing = Rule(
        "tab-directory-missing", .error, .sessionLost,
        "A listed tab has no <%08x> directory: Chrome M122-M144 load the whole window empty; M145 and later rebuild the tab from its URL.",
        repair: .step("the tab gets a one-item history rebuilt from its entry's URL, title and time; a tab with none of them is left out."))
    public static let tabDataMissing = Rule(
        "tab-data-missing", .error, .sessionLost,
        "A tab directory has no data.pb: Chrome M122-M144 load the whole window empty; M145 and later rebuild the tab from its URL.",
        repair: .step(
            "the tab's back/forward list is read back from its state.pb when that is WebKit's session state, else a one-item history is rebuilt from its entry's URL, title and time; a tab with none of them is left out."
        ))
    public static let tabDataUnparsable = Rule(
        "tab-data-unparsable", .error, .tabLost,
        "data.pb cannot be read or is not a valid WebStateStorage message: the tab is dropped at the next save.",
        repair: .step(
            "the complete navigation items before the damage are kept; with none, the back/forward list of the tab's state.pb, or a one-item history from its entry (a tab with neither URL nor title is left out)."
        ))
    public static let tabDataEmpty = Rule(
        "tab-data-empty", .error, .tabLost,
        "data.pb holds no navigation items: the tab is dropped at the next save once it is realized.",
        repair: .step(
            "the back/forward list of the tab's state.pb is read back when that is WebKit's session state, else a one-item history is rebuilt from the tab's entry (URL, title, time); a tab with neither URL nor title is left out."
        ))

    public static let lastCommittedNegative = Rule(
        "last-committed-negative", .error, .tabLost,
        "A last committed item index below -1 with items: Chrome keeps it and realizes the tab with no page and no back history.",
        repair: .step("the index is set to the last item."))

    // Chrome crashes.
    public static let enumOutOfRange = Rule(
        "enum-out-of-range", .error, .crash,
        "A user agent (0-3) or referrer policy (0-8) of data.pb is outside its range: Chrome crashes when the tab is realized.",
        repair: .step("the user agent or referrer policy is reset to its default."))
    public static let lastCommittedOutOfRange = Rule(
        "last-committed-out-of-range", .error, .crash,
        "data.pb's last committed item index is past its last item: Chrome reads beyond the history when the tab is realized.",
        repair: .step("the index is lowered to the last item."))
    public static let openerSelf = Rule(
        "opener-self", .error, .crash,
        "A tab is its own opener: current Chrome stops on a CHECK while it restores the window (older versions ignored it).",
        repair: .step("the opener is cleared."))

    // Data Chrome deletes.
    public static let historyTooLong = Rule(
        "history-too-long", .error, .entryDeleted,
        "data.pb holds more than 75 navigation items: Chrome trims the rest around the last committed item.",
        repair: .step("the history is trimmed around the last committed item as Chrome trims it; the rest stays in the set-aside copy."))
    public static let unreferencedEntry = Rule(
        "unreferenced-entry", .error, .entryDeleted,
        "A tab directory that no surviving tab of session_metadata.pb refers to: Chrome deletes it with its contents.",
        repair: .step(
            "when session_metadata.pb is missing or damaged, a directory whose data.pb holds a history is added back to the list as a tab; otherwise the entry is left in the set-aside copy."
        )
    )
    public static let tabDirectoryNameInvalid = Rule(
        "tab-directory-name-invalid", .error, .entryDeleted,
        "A directory named like a tab's but not as Chrome names them (8 lower-case hex digits): Chrome deletes it.",
        repair: .step("the directory is renamed as Chrome names it when it holds a tab, else left in the set-aside copy."))

    // Silent adjustments.
    public static let activeIndexOutOfRange = Rule(
        "active-index-out-of-range", .warning, .adjusted,
        "The active index is neither -1 nor the index of a tab: no tab is activated.",
        repair: .step("the most recently active tab becomes the active one."))
    public static let pinnedCountOutOfRange = Rule(
        "pinned-count-out-of-range", .warning, .adjusted,
        "The pinned tab count is negative or larger than the number of tabs: no tab, or every tab, is pinned.",
        repair: .step("the count is brought within the number of tabs."))
    public static let openerOutOfRange = Rule(
        "opener-out-of-range", .warning, .adjusted,
        "A tab's opener index does not point at a tab of the window: the opener is cleared.",
        repair: .step("the opener is cleared."))
    public static let groupRangeInvalid = Rule(
        "group-range-invalid", .warning, .adjusted,
        "A tab group's range is empty, starts among the pinned tabs or runs past the last tab: the group is removed.",
        repair: .step("the group is clamped to the unpinned tabs, or removed when nothing of it is left."))
    public static let groupIDDuplicate = Rule(
        "group-id-duplicate", .warning, .adjusted,
        "A tab group's id repeats an earlier group's: the later group is removed.",
        repair: .step("the later group gets a fresh id."))
    public static let groupColorOutOfRange = Rule(
        "group-color-out-of-range", .warning, .adjusted,
        "A tab group's colour is outside 0-8: Chrome shows the group grey.",
        repair: .step("the colour is reset to grey."))
    public static let groupIDZero = Rule(
        "group-id-zero", .warning, .adjusted,
        "A tab group's id is missing or all zero: Chrome gives the group a fresh id.",
        repair: .step("the group gets a fresh id."))
    public static let itemCountMismatch = Rule(
        "item-count-mismatch", .warning, .adjusted,
        "The navigation item count of session_metadata.pb differs from the items of data.pb: re-derived when the tab is realized.",
        repair: .step("the count is re-derived from data.pb."))
    public static let activePageMismatch = Rule(
        "active-page-mismatch", .warning, .adjusted,
        "The title or URL of session_metadata.pb is not the last committed item's: shown until the tab is realized, then replaced.",
        repair: .step("the title and URL are re-derived from the last committed item."))
    public static let stateTooLarge = Rule(
        "state-too-large", .info, .none,
        "state.pb is larger than 5 MiB: Chrome reads it at any size, but never writes one so large (the limit applies when saving).",
        repair: .withRewrite(
            "a state.pb that still matches the tab's history is carried over whatever its size, as Chrome reads it; one that no longer matches, or cannot be read, stays in the set-aside copy."
        ))
    public static let mixedFormats = Rule(
        "mixed-formats", .warning, .none,
        "Both SessionStorage/ and Sessions/ exist: Chrome loads the format its preference ios.session.storage.format names (SessionStorage/ when it is unset) and ignores the other.",
        repair: .step("Sessions/ is set aside unconverted (converting is migrate's work).")
    )

    // Worth knowing.
    public static let temporaryFile = Rule(
        "temp-file", .info, .entryDeleted,
        "A leftover temporary file of an interrupted atomic write: Chrome deletes it.",
        repair: .step("the file is left in the set-aside copy."))
    public static let transitionalMetadata = Rule(
        "transitional-metadata", .info, .none,
        "A <%08x>/metadata.pb of the transitional 2023 layout: Chrome no longer reads it and leaves it in place.",
        repair: .withRewrite("the file is left in the set-aside copy."))
    public static let tabDirectoryExtra = Rule(
        "tab-directory-extra", .info, .none,
        "A file in a restored tab's directory other than data.pb and state.pb: Chrome ignores it and leaves it in place.",
        repair: .withRewrite("the file is left in the set-aside copy."))
    public static let strayFile = Rule(
        "stray-file", .info, .entryDeleted,
        "A file or directory that is not part of Chrome's layout (or an empty tab directory): Chrome deletes it.",
        repair: .step("the entry is left in the set-aside copy."))
    public static let tabDataHasMetadata = Rule(
        "tab-data-has-metadata", .info, .none,
        "data.pb carries a metadata field, which Chrome leaves empty there; it is ignored.",
        repair: .none("Chrome ignores the field."))
    public static let backupPresent = Rule(
        "backup-present", .info, .none,
        "Backups/<id>/session.backup.plist: a session set aside by Chrome's legacy crash helper, never loaded again by itself.",
        repair: .none("it is Chrome's own set-aside copy, listed by aside list and brought back by aside restore."))

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
