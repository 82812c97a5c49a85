import Archive
import FileSystemKit
import Foundation
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

/// The repair of a Firefox for iOS profile whose legacy archives hold tabs that no window file
/// holds (`legacy-archive-unread`, `legacy-archive-unmigrated`): one window file written as
/// Firefox's migration writes it, with every tab of the archives (the Codable one's first, each
/// tab once), keeping what the migration drops: each tab's last use, and its back/forward history
/// as a WebKit session state in `tab-session-data/` (not for private tabs). The archives stay.
struct FirefoxLegacyRepair {
    let read: InputRead
    let findings: [Finding]

    /// The rewrite, and the findings it fixes; nil when there is nothing to write (no finding,
    /// no profile directory within the input, or no tab that reads).
    func rewrite(now: Date = Date()) -> (rewrite: FileRewrite, fixed: [Finding])? {
        let cited = findings.filter { [.legacyArchiveUnread, .legacyArchiveUnmigrated].contains($0.rule) }
        guard !cited.isEmpty else { return nil }
        var tabs: [FirefoxLegacyTab] = []
        var seen = TabKeys()
        var ids = Set<String>()
        var sources: [SessionRead] = []
        for session in read.sessions {
            guard case .success(let archive)? = session.firefoxLegacy?.archive, session.source.firefoxProfile != nil else { continue }
            sources.append(session)
            for var tab in archive.tabs where !seen.contains(tab) {
                seen.insert(tab)
                // A UUID two tabs share names one of them: the other gets a new one.
                if let id = tab.screenshotUUID, !ids.insert(id).inserted { tab.screenshotUUID = nil }
                if tab.url == nil, let current = tab.currentIndex { tab.url = tab.urls[current] }
                tabs.append(tab)
            }
        }
        guard let target = FirefoxLegacyTarget(read: read, archives: sources), !tabs.isEmpty else { return nil }
        var window = FirefoxLegacyArchive(shape: .codable, tabs: tabs).migratedWindow(
            id: target.windowID, migrationTime: now.timeIntervalSince1970 - FirefoxTime.referenceOffset, keepingLastUsedTime: true,
            newUUID: target.newUUID)
        // With no tab selected, the one Firefox would select: the most recently used regular tab.
        if !window.tabs.contains(where: { $0.id == window.activeTabID }),
            let chosen = (window.tabs.filter { !$0.isPrivate }.max { ($0.lastUsedTime ?? 0) < ($1.lastUsedTime ?? 0) } ?? window.tabs.first)
        {
            window.activeTabID = chosen.id
        }
        guard let bytes = FirefoxWindowRepair.loadableBytes(&window) else { return nil }
        // Each regular tab's history as WebKit keeps it, where no state file of that tab is.
        var states: [(path: String, bytes: [UInt8])] = []
        var written = Set<String>()
        for (tab, data) in zip(tabs, window.tabs) where !tab.urls.isEmpty && !tab.isPrivate {
            let path = joinPath(target.profile, FirefoxIOSLayout.tabSessionDataDirectory, FirefoxIOSLayout.tabSessionFilePrefix + data.id)
            guard read.input.tree.kind(of: path) == nil, written.insert(path).inserted else { continue }
            let current = tab.currentIndex
            let entries = tab.urls.enumerated().map { index, url in
                WebKitSessionState.Entry(url: url, title: index == current ? tab.title ?? "" : "", originalURL: url)
            }
            states.append((path, WebKitSessionState(entries: entries, currentIndex: current).encode()))
        }
        let names = sources.map { lastPathComponent($0.source.path) }.joined(separator: " and ")
        let action =
            "write \(target.file) with the \(tabs.count) tab\(tabs.count == 1 ? "" : "s") of \(names), as Firefox's migration writes them but keeping each tab's last use, and \(states.count) tab session state\(states.count == 1 ? "" : "s") holding their histories"
        let actions = cited.map {
            RepairAction(rule: $0.rule, session: $0.session, incognito: false, file: $0.file, action: action, reason: $0.message)
        }
        var rewrite = FileRewrite(
            window: target.windowID, file: target.file, setAside: target.replaced, removes: [], actions: actions, tabs: tabs.count,
            bytes: bytes)
        rewrite.stateFiles = states
        return (rewrite, cited)
    }
}

/// Where a window converted from legacy archives goes: the window file a migration that found no
/// tab left (replaced, it and its backup set aside first), else a new one, its UUID, and the UUIDs
/// of tabs without one, derived from the archives' bytes so that a dry run names what the run writes.
struct FirefoxLegacyTarget {
    /// The profile directory, relative to the input.
    let profile: String
    let windowID: String
    /// The window file, relative to the input.
    let file: String
    /// The files set aside before the window file is written.
    let replaced: [String]
    private let seed: [UInt8]
    private let drawn = Counter()

    /// A target for `archives` (sessions of `read`); nil when they are not within a profile.
    init?(read: InputRead, archives: [SessionRead]) {
        guard let profile = archives.first?.source.firefoxProfile else { return nil }
        self.profile = profile
        var digest = SHA256()
        for archive in archives {
            if case .bytes(let bytes)? = archive.firefoxLegacy?.file { digest.update(bytes) }
        }
        seed = digest.finalize()
        let empty = FirefoxLegacyRules.emptyWindow(read)
        let id = empty?.source.id ?? FirefoxLegacyTarget.uuid(SHA256.hash(seed + Array("window".utf8)))
        windowID = id
        file = empty?.source.path ?? joinPath(profile, FirefoxIOSLayout.windowDataDirectory, FirefoxIOSLayout.windowFilePrefix + id)
        let backup = empty?.firefoxWindow.flatMap { $0.backup == .missing ? nil : $0.backupPath }
        replaced = ([empty?.firefoxWindow?.mainPath, backup].compactMap { $0 }).sorted()
    }

    /// The next derived UUID.
    func newUUID() -> String {
        drawn.value += 1
        return Self.uuid(SHA256.hash(seed + Array("\(drawn.value)".utf8)))
    }

    /// A version 4 UUID, upper case, of the first 16 bytes of `digest`.
    static func uuid(_ digest: [UInt8]) -> String {
        var bytes = Array(digest.prefix(16))
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = Array(SHA256.hex(bytes).uppercased())
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
    }

    /// How many UUIDs were drawn.
    private final class Counter {
        var value = 0
    }
}
