import FileSystemKit
import SessionFormats

/// What Firefox for iOS does with the legacy tab archives of a profile (docs/firefox-ios-format.md,
/// "Legacy archives"): it migrates `codableTabsState.archive` once, all or nothing, when no window
/// data exists yet, and never reads either archive again.
enum FirefoxLegacyRules {
    /// The findings of every legacy archive `read` holds.
    static func findings(_ read: InputRead) -> [Finding] {
        let windows = read.sessions.compactMap { $0.firefoxWindow?.window }
        let windowTabs = windows.flatMap(\.tabs)
        // The tabs Firefox's migration brings, when it brings any (windows hold none yet).
        let migrated: [FirefoxLegacyTab] =
            read.sessions.compactMap { session -> [FirefoxLegacyTab]? in
                guard lastPathComponent(session.source.path) == FirefoxIOSLayout.legacyCodableArchive,
                    case .success(let archive)? = session.firefoxLegacy?.archive, archive.loadsInFirefox
                else { return nil }
                return archive.tabs
            }.first ?? []
        var findings: [Finding] = []
        for session in read.sessions {
            guard let (file, decoded) = session.firefoxLegacy else { continue }
            let scope = FindingScope(session: session.source.id, incognito: false, file: session.source.path)
            let name = lastPathComponent(session.source.path)
            let archive: FirefoxLegacyArchive
            // A damaged archive matters only while no window holds a tab.
            let damaged = windowTabs.isEmpty ? Rule.legacyArchiveUnparsable : .legacyArchiveLeft
            let note = windowTabs.isEmpty ? "" : "Firefox no longer reads it, and it does not read: "
            switch (file, decoded) {
            case (.unreadable(let error), _):
                findings.append(scope.finding(damaged, note + error.reason))
                continue
            case (_, .failure(let error)?):
                var offset: Int?
                if case .damaged(_, let at, _) = error { offset = at }
                findings.append(scope.finding(damaged, offset: offset, note + error.reason))
                continue
            case (_, .success(let read)?):
                archive = read
            default:
                continue
            }
            guard !archive.tabs.isEmpty else { continue }
            let count = "\(archive.tabs.count) tab\(archive.tabs.count == 1 ? "" : "s")"
            if !windowTabs.isEmpty {
                let ids = Set(windowTabs.map { $0.id.uppercased() })
                let pages = Set(windowTabs.map(\.siteURL))
                let elsewhere = archive.tabs.filter { tab in
                    !(tab.screenshotUUID.map { ids.contains($0) } ?? false) && !pages.contains(tab.url ?? "")
                }.count
                findings.append(
                    scope.finding(
                        .legacyArchiveLeft,
                        "Firefox no longer reads it (the window files hold \(windowTabs.count) tab\(windowTabs.count == 1 ? "" : "s")); \(elsewhere) of its \(count) are in no window"
                    ))
                continue
            }
            let history = archive.tabs.reduce(0) { $0 + $1.urls.count }
            if name == FirefoxIOSLayout.legacyCodableArchive, archive.loadsInFirefox {
                findings.append(
                    scope.finding(
                        .legacyArchiveUnmigrated,
                        "no window file holds a tab: Firefox migrates its \(count) at its next launch unless its migration already ran, dropping their back/forward history (\(history) page\(history == 1 ? "" : "s"))"
                    ))
                continue
            }
            // Tabs the Codable archive's migration brings are not lost with this one.
            let lost = archive.tabs.filter { !isAmong($0, migrated) }
            guard !lost.isEmpty else { continue }
            let what =
                lost.count == archive.tabs.count ? "its \(count)" : "\(lost.count) of its \(count), which the migrated archive lacks,"
            let why =
                name != FirefoxIOSLayout.legacyCodableArchive
                ? "today's Firefox reads codableTabsState.archive alone, not \(name)"
                : "Firefox's decoder refuses it (\(archive.refusal ?? "damaged")), so its migration brings no tab"
            findings.append(scope.finding(.legacyArchiveUnread, "no window file holds a tab and \(why): \(what) are not restored"))
        }
        return findings
    }

    /// Whether `tab` is one of `tabs`: the same screenshot UUID, or with none the same page and title.
    static func isAmong(_ tab: FirefoxLegacyTab, _ tabs: [FirefoxLegacyTab]) -> Bool {
        tabs.contains { other in
            if let id = tab.screenshotUUID, let otherID = other.screenshotUUID { return id == otherID }
            return other.url == tab.url && other.title == tab.title
        }
    }
}
