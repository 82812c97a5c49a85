extension Rule {
    /// A rule of every desktop browser whose preferences decide whether it restores the last
    /// session at launch (each family's rulebook lists it among its rules).
    public static let sessionNotRestoredAtLaunch = Rule(
        "session-not-restored-at-launch", .info, .none,
        "The browser reads the session but does not restore it at launch. Firefox desktop: the last run ended cleanly and browser.startup.page is not 3 (the session waits behind Restore previous session), resume_from_crash is off, or crashes in a row passed max_resumed_crashes (Firefox shows about:sessionrestore). Chromium desktop: Preferences' session.restore_on_startup is not 1 or 6 (Chrome opens the New Tab page or its startup URLs, and the next launch deletes the file).",
        repair: .none("whether the browser restores at launch is its preferences' choice; the session is kept for it to restore."))
}
