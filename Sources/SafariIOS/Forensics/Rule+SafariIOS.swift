import SessionForensics

/// The rules of Safari for iOS's `BrowserState.db`: whether Safari keeps the database at all,
/// and which tabs it restores without their history (docs/safari-ios-format.md, loading).
extension Rule {
    public static let browserStateRefused = Rule(
        "browser-state-refused", .error, .sessionLost,
        "SQLite refuses BrowserState.db (not a database, a damaged header or page, no tabs table): Safari cannot read its tabs and starts without them.",
        repair: .step(
            "BrowserState.db is written anew through SQLite with every row that can be read from its pages (every column as stored, its schema where it can be read, else Safari's schema 8), the database and its -wal and -shm set aside first and the -wal and -shm then removed."
        ))
    public static let browserStateIntegrity = Rule(
        "browser-state-integrity", .error, .sessionLost,
        "PRAGMA integrity_check does not answer ok: Safari closes the database when it opens it, and starts without its tabs (the tabs SQLite can still read are shown by inspect).",
        repair: .step(
            "BrowserState.db is written anew through SQLite with every row it reads (a table it cannot read whole from the pages), the database and its -wal and -shm set aside first and the -wal and -shm then removed."
        ))
    public static let tabStateDamaged = Rule(
        "tab-state-damaged", .warning, .adjusted,
        "A tab's stored session state does not decode (its LZ4 stream or its WebKit property list is damaged): Safari restores the tab at its URL, without its back and forward history.",
        repair: .none("nothing that decodes is left to give Safari; the database is kept as it is."))
    public static let tabStateDropped = Rule(
        "tab-state-dropped", .warning, .adjusted,
        "A tab's session state is over 2 MiB: Safari drops it and restores the tab without its back and forward history (inspect --history still reads it).",
        repair: .step(
            "BrowserState.db is written anew through SQLite with the tab's history stored within 2 MiB (the entries nearest the current one, as many as fit, each whole), the database and its -wal and -shm set aside first and the -wal and -shm then removed."
        ))

    public static let browserStateVersion = Rule(
        "browser-state-version", .info, .none,
        "PRAGMA user_version is not 8, the schema of current iOS: Safari migrates versions 1 to 7 step by step when it opens the database; a newer one was written by a newer iOS. sessionctl reads it by its columns' names.",
        repair: .none("the schema is Safari's to migrate; the database is kept as it is."))
    public static let tabWindowMissing = Rule(
        "tab-window-missing", .error, .tabLost,
        "A tab names a window (browser_window_uuid) that browser_windows does not hold: Safari loads each window's tabs by its UUID, and never loads this one.",
        repair: .step(
            "BrowserState.db is written anew through SQLite with the tab moved into the first open window, after its tabs; the database and its -wal and -shm set aside first and the -wal and -shm then removed."
        ))
    public static let activeIndexOutOfRange = Rule(
        "active-index-out-of-range", .warning, .adjusted,
        "A window's active_document_index names no regular tab of it: Safari selects another tab (which one is not in what its code shows of the store).",
        repair: .step(
            "BrowserState.db is written anew through SQLite with the index of the window's most recently viewed regular tab; the database and its -wal and -shm set aside first and the -wal and -shm then removed."
        ))
    public static let tabStateSizeMismatch = Rule(
        "tab-state-size-mismatch", .warning, .adjusted,
        "A compressed session state decodes to more bytes than uncompressed_session_data_size records: Safari decodes it into a buffer of the recorded size, the state is cut and does not decode, and the tab restores without history.",
        repair: .step(
            "BrowserState.db is written anew through SQLite with the size the state decodes to; the database and its -wal and -shm set aside first and the -wal and -shm then removed."
        ))

    static let safariIOSRules: [Rule] = [
        browserStateRefused, browserStateIntegrity, browserStateVersion, tabWindowMissing, activeIndexOutOfRange, tabStateDamaged,
        tabStateSizeMismatch, tabStateDropped
    ]
}
