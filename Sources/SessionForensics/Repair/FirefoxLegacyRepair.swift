import Archive
import FileSystemKit
import Foundation
import SessionFormats
import SessionModel

/// The repair of a Firefox for iOS profile whose legacy archives hold tabs that no window file
/// holds (`legacy-archive-unread`, `legacy-archive-unmigrated`): one window file written as
/// Firefox's migration writes it, with every tab of the archives (the Codable one's first, each
/// tab once), keeping what the migration drops: each tab's last use, and its back/forward history
/// as a WebKit session state in `tab-session-data/`. The archives stay where they are.
struct FirefoxLegacyRepair {
    let read: InputRead
    let findings: [Finding]

    /// The rewrite, and the findings it fixes; nil when there is nothing to write (no finding,
    /// no profile directory within the input, or no tab that reads).
    func rewrite(now: Date = Date()) -> (rewrite: FirefoxWindowRewrite, fixed: [Finding])? {
        let cited = findings.filter { [.legacyArchiveUnread, .legacyArchiveUnmigrated].contains($0.rule) }
        guard !cited.isEmpty else { return nil }
        var tabs: [FirefoxLegacyTab] = []
        var sources: [String] = []
        var profile: String?
        var digest = SHA256()
        for session in read.sessions {
            guard case .success(let archive)? = session.firefoxLegacy?.archive, let own = session.source.firefoxProfile else { continue }
            profile = profile ?? own
            sources.append(lastPathComponent(session.source.path))
            if case .bytes(let bytes)? = session.firefoxLegacy?.file { digest.update(bytes) }
            for tab in archive.tabs where !FirefoxLegacyRules.isAmong(tab, tabs) { tabs.append(Self.withPage(tab)) }
        }
        guard let profile, !tabs.isEmpty else { return nil }
        // Ids of the run's own, the same in the dry run and the run: from the archives' bytes.
        let seed = digest.finalize()
        var drawn = 0
        let newUUID = { () -> String in
            drawn += 1
            return Self.uuid(SHA256.hash(seed + Array("\(drawn)".utf8)))
        }
        // The window Firefox made of nothing (its migration brought no tab), else a new one.
        let empty = read.sessions.first { $0.firefoxWindow?.window?.tabs.isEmpty == true && $0.firefoxWindow?.main != .missing }
        let windowID = empty?.source.id ?? newUUID()
        let file =
            empty?.source.path ?? joinPath(profile, FirefoxIOSLayout.windowDataDirectory, FirefoxIOSLayout.windowFilePrefix + windowID)
        var window = FirefoxLegacyArchive(shape: .codable, tabs: tabs).migratedWindow(
            id: windowID, migrationTime: now.timeIntervalSince1970 - FirefoxTime.referenceOffset, keepingLastUsedTime: true,
            newUUID: newUUID)
        guard let bytes = FirefoxWindowRepair.loadableBytes(&window) else { return nil }
        // Each history as WebKit keeps it, for a tab whose state file is not there already.
        var states: [(path: String, bytes: [UInt8])] = []
        for (tab, data) in zip(tabs, window.tabs) where !tab.urls.isEmpty {
            let path = joinPath(profile, FirefoxIOSLayout.tabSessionDataDirectory, FirefoxIOSLayout.tabSessionFilePrefix + data.id)
            guard read.input.tree.kind(of: path) == nil, !states.contains(where: { $0.path == path }) else { continue }
            let current = tab.currentIndex
            let entries = tab.urls.enumerated().map { index, url in
                WebKitSessionState.Entry(url: url, title: index == current ? tab.title ?? "" : "", originalURL: url)
            }
            states.append((path, WebKitSessionState(entries: entries, currentIndex: current).encode()))
        }
        let replaced = [empty?.firefoxWindow?.mainPath, empty?.firefoxWindow.flatMap { $0.backup == .missing ? nil : $0.backupPath }]
        let action =
            "write \(file) with the \(tabs.count) tab\(tabs.count == 1 ? "" : "s") of \(sources.joined(separator: " and ")), as Firefox's migration writes them but keeping each tab's last use, and \(states.count) tab session state\(states.count == 1 ? "" : "s") holding their histories"
        let actions = cited.map {
            RepairAction(rule: $0.rule, session: $0.session, incognito: false, file: $0.file, action: action, reason: $0.message)
        }
        var rewrite = FirefoxWindowRewrite(
            window: windowID, file: file, setAside: replaced.compactMap { $0 }.sorted(), removes: [], actions: actions, tabs: tabs.count,
            bytes: bytes)
        rewrite.stateFiles = states
        return (rewrite, cited)
    }

    /// A tab whose URL is missing takes its history's current page, as the window file needs one.
    private static func withPage(_ tab: FirefoxLegacyTab) -> FirefoxLegacyTab {
        guard tab.url == nil, let current = tab.currentIndex else { return tab }
        var tab = tab
        tab.url = tab.urls[current]
        return tab
    }

    /// A version 4 UUID, upper case, of the first 16 bytes of `digest`.
    static func uuid(_ digest: [UInt8]) -> String {
        var bytes = Array(digest.prefix(16))
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = Array(SHA256.hex(bytes).uppercased())
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
    }
}
