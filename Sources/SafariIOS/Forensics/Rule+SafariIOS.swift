import SessionForensics

/// The rules of Safari for iOS's `BrowserState.db`: whether Safari keeps the database at all,
/// and which tabs it restores without their history (docs/safari-ios-format.md, loading).
extension Rule {
    public static let browserStateRefused = Rule(
        "browser-state-refused", .error, .sessionLost,
        "SQLite refuses BrowserState.db (not a database, a damaged header or page, no tabs table): Safari cannot read its tabs and starts without them.",
        repair: .none("the database is kept as it is; inspect reads what SQLite can, and aside push sets the files aside together."))
    public static let browserStateIntegrity = Rule(
        "browser-state-integrity", .error, .sessionLost,
        "PRAGMA integrity_check does not answer ok: Safari closes the database when it opens it, and starts without its tabs (the tabs SQLite can still read are shown by inspect).",
        repair: .none("the database is kept as it is; aside push sets the files aside together."))
    public static let tabStateDamaged = Rule(
        "tab-state-damaged", .warning, .adjusted,
        "A tab's stored session state does not decode (its LZ4 stream or its WebKit property list is damaged): Safari restores the tab at its URL, without its back and forward history.",
        repair: .none("the database is kept as it is."))
    public static let tabStateDropped = Rule(
        "tab-state-dropped", .warning, .adjusted,
        "A tab's session state is over 2 MiB: Safari drops it and restores the tab without its back and forward history (inspect --history still reads it).",
        repair: .none("Safari drops it itself; the database is kept as it is."))

    static let safariIOSRules: [Rule] = [browserStateRefused, browserStateIntegrity, tabStateDamaged, tabStateDropped]
}
