import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

/// What Firefox for iOS does with the legacy tab archives of a profile (docs/firefox-ios-format.md,
/// "Legacy archives"): it migrates `codableTabsState.archive` once, all or nothing, when no window
/// data exists yet, and never reads either archive again.
enum FirefoxLegacyRules {
    /// Whether Firefox has used window data in this profile since its migration, so that it never
    /// reads an archive again: any window file or backup, except one window file holding no tab
    /// and without a backup (what a migration that found no tab leaves, before Firefox saved
    /// anything else), or a window set aside by anything but a repair (`aside push` empties a
    /// profile Firefox had used). Tab session states are no evidence: a repair writes them first.
    static func migrationRan(_ read: InputRead) -> Bool {
        if windowsSetAside(read.input.tree) { return true }
        let windows = read.sessions.compactMap(\.firefoxWindow)
        guard !windows.isEmpty else { return false }
        guard windows.count == 1, let window = windows.first, let data = window.window, data.tabs.isEmpty, window.backup == .missing
        else { return true }
        return false
    }

    /// Whether `Backups/` holds an entry that no repair made (its manifest's reason says which).
    private static func windowsSetAside(_ tree: ReadableTree) -> Bool {
        let backups = SessionSetAside.backupsDirectory(incognito: false)
        for id in tree.list(backups) {
            for stamp in tree.list(joinPath(backups, id)) {
                let manifest = joinPath(backups, id, stamp, SessionSetAside.manifestFile)
                guard let bytes = try? tree.read(manifest), let reason = AsideManifest.decode(bytes)?.reason else { continue }
                if !reason.hasPrefix("sessionctl repair") { return true }
            }
        }
        return false
    }

    /// The window file a migration that found no tab left, when that is all there is (see `migrationRan`).
    static func emptyWindow(_ read: InputRead) -> SessionRead? {
        guard !migrationRan(read) else { return nil }
        return read.sessions.first { $0.firefoxWindow?.main != nil && $0.firefoxWindow?.main != .missing }
    }

    /// The findings of every legacy archive `read` holds.
    static func findings(_ read: InputRead) -> [Finding] {
        let ran = migrationRan(read)
        // Every tab the window files hold as far as they read, for what an archive left behind.
        let windowTabs = read.sessions.compactMap(\.firefoxWindow).flatMap(\.mergedTabs)
        let held = Set(windowTabs.map { TabKey(id: $0.id.uppercased(), url: $0.siteURL) })
        // The tabs Firefox's migration brings, when it brings any (windows hold none yet).
        let migrated = TabKeys(
            read.sessions.compactMap { session -> [FirefoxLegacyTab]? in
                guard lastPathComponent(session.source.path) == FirefoxIOSLayout.legacyCodableArchive,
                    case .success(let archive)? = session.firefoxLegacy?.archive, archive.loadsInFirefox
                else { return nil }
                return archive.tabs
            }.first ?? [])
        var findings: [Finding] = []
        for session in read.sessions {
            guard let (file, decoded) = session.firefoxLegacy else { continue }
            let scope = FindingScope(session: session.source.id, incognito: false, file: session.source.path)
            let name = lastPathComponent(session.source.path)
            let archive: FirefoxLegacyArchive
            // A damaged archive matters only while the migration is still to come.
            let damaged = ran ? Rule.legacyArchiveLeft : .legacyArchiveUnparsable
            let note = ran ? "Firefox no longer reads it, and it does not read: " : ""
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
            if ran {
                let elsewhere = archive.tabs.filter { !held.contains(TabKey($0)) }.count
                findings.append(
                    scope.finding(
                        .legacyArchiveLeft,
                        "Firefox no longer reads it (it has used window files since: they hold \(windowTabs.count) tab\(windowTabs.count == 1 ? "" : "s")); \(elsewhere) of its \(count) are in no window"
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
            let lost = archive.tabs.filter { !migrated.contains($0) }
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
}

/// A tab as the archives and the window files can both name it: its UUID (upper case) and page.
struct TabKey: Hashable {
    var id: String
    var url: String

    init(id: String, url: String) {
        self.id = id
        self.url = url
    }

    /// A legacy tab's key: its screenshot UUID (empty without one) and URL.
    init(_ tab: FirefoxLegacyTab) {
        self.init(id: tab.screenshotUUID ?? "", url: tab.url ?? "")
    }
}

/// Legacy tabs to tell others apart from: one with the same screenshot UUID and URL, or without a
/// UUID the same URL and title, is the same tab. Looked up in constant time.
struct TabKeys {
    private var keys: Set<TabKey> = []
    private var untitled: Set<[String]> = []

    init(_ tabs: [FirefoxLegacyTab] = []) {
        for tab in tabs { insert(tab) }
    }

    func contains(_ tab: FirefoxLegacyTab) -> Bool {
        tab.screenshotUUID == nil ? untitled.contains([tab.url ?? "", tab.title ?? ""]) : keys.contains(TabKey(tab))
    }

    mutating func insert(_ tab: FirefoxLegacyTab) {
        if tab.screenshotUUID == nil { untitled.insert([tab.url ?? "", tab.title ?? ""]) } else { keys.insert(TabKey(tab)) }
    }
}
