import Archive
import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

/// Checks Chromium desktop's session files against what Chrome does at launch
/// (docs/chromium-desktop-format.md): the Session_ file it restores, where it stops reading or
/// replaying it and what salvage reads past that, what it drops, the newer files it passes
/// over, and whether it restores at all.
public struct ChromiumDesktopValidator: Sendable {
    public init() {}

    /// Validates what `read` holds; reads nothing more.
    public func validate(_ read: InputRead) -> ValidationReport {
        let load = SNSSLoad(read)
        var findings: [Finding] = []
        var restored: (sessions: Int, tabs: Int) = (0, 0)
        let sessionFiles = load.candidates.enumerated().filter { $0.element.type == .session }
        if let chosen = load.chosen[.session] {
            let candidate = load.candidates[chosen]
            let session = read.sessions[candidate.session]
            let scope = FindingScope(session: session.source.id, incognito: false, file: session.source.path)
            if let decoded = session.snss?.decoded {
                findings += checkRestored(decoded, scope: scope)
                if let chrome = decoded.chrome, decoded.readByChrome {
                    restored = (chrome.windows.count, chrome.windows.reduce(0) { $0 + $1.tabs.count })
                }
            }
            // Newer files Chrome passes over: version 3 without the marker.
            let newerFiles = sessionFiles.filter { (_, newer) in (newer.time ?? .min) > (candidate.time ?? .min) && !newer.legacy }
            let chromeTabs = newerFiles.isEmpty ? [] : Self.tabIDs(session.snss?.decoded?.chrome?.windows ?? [])
            for (_, newer) in newerFiles {
                let skipped = read.sessions[newer.session]
                let tabs = skipped.snss?.decoded?.salvage?.windows.flatMap { $0.tabs.map(\.id) } ?? []
                let beyond = tabs.count { !chromeTabs.contains($0) }
                findings.append(
                    FindingScope(session: skipped.source.id, incognito: false, file: skipped.source.path).finding(
                        .snssMarkerMissing,
                        "no marker ends its full state; Chrome restores \(session.source.id) instead and deletes this file at launch (it holds \(counted(tabs.count, "tab")), \(beyond) of them not in the file restored)"
                    ))
            }
        } else if let file = sessionFiles.first(where: { !$0.element.legacy })?.element {
            let source = read.sessions[file.session].source
            findings.append(
                FindingScope(session: source.id, incognito: false, file: source.path).finding(
                    .snssMarkerMissing,
                    "no Session_ file has the marker that ends a full state: Chrome restores no session, and deletes them at launch"))
        } else if let legacy = sessionFiles.first?.element {
            let source = read.sessions[legacy.session].source
            let tabs = read.sessions[legacy.session].snss?.decoded?.salvage?.windows.reduce(0) { $0 + $1.tabs.count } ?? 0
            findings.append(
                FindingScope(session: source.id, incognito: false, file: source.path).finding(
                    .snssLegacyNames,
                    "the newest Chromium reads only Sessions/; \(counted(tabs, "tab")) can be read from \(source.id) (Chrome 85 to early 2026 read Current Session when Sessions/ held no usable file)"
                ))
        }
        if let settings = read.input.chromiumDesktop, settings.read, let source = read.sessions.first?.source, load.chosen[.session] != nil
        {
            let scope = FindingScope(session: source.id, incognito: false, file: ChromiumDesktopLayout.preferencesFile)
            if settings.crashed {
                findings.append(
                    scope.finding(.sessionCrashed, "profile.exit_type is Crashed: Chrome offers Restore in a bubble instead of restoring"))
            } else if !settings.restoresLastSession {
                let value = settings.restoreOnStartup.map { "\($0)" } ?? "absent (the New Tab page)"
                findings.append(
                    scope.finding(
                        .sessionNotRestoredAtLaunch,
                        "session.restore_on_startup is \(value): Chrome opens the New Tab page or the startup URLs, not the last session"))
            }
        }
        var report = ValidationReport(findings: findings, sessions: restored.sessions, tabs: restored.tabs)
        report.browser = read.input.browser
        report.product = ChromiumDesktopFamily().product(of: read)
        report.sources = read.input.sessions
        return report
    }

    /// What Chrome does with the Session_ file it takes.
    private func checkRestored(_ decoded: SNSSSessionFile, scope: FindingScope) -> [Finding] {
        switch decoded.file.header {
        case .encrypted(let version):
            return [
                scope.finding(
                    .snssEncrypted, offset: 4, "SNSS version \(version) is encrypted: Chrome's reader refuses it and restores nothing")
            ]
        case .notSNSS:
            return [scope.finding(.snssVersionUnsupported, offset: 0, "no SNSS header: Chrome restores nothing from it")]
        case .unknownVersion(let version):
            return [
                scope.finding(
                    .snssVersionUnsupported, offset: 4, "SNSS version \(version), which no Chromium writes: Chrome restores nothing")
            ]
        case .plain(let version) where version != 3:
            let tabs = decoded.salvage?.windows.reduce(0) { $0 + $1.tabs.count } ?? 0
            return [
                scope.finding(
                    .snssVersionUnsupported, offset: 4,
                    "SNSS version \(version) (before 2021): the newest Chromium refuses it and restores nothing; \(counted(tabs, "tab")) can be read from it (Chrome before 2026 read it)"
                )
            ]
        case .plain:
            return checkReplay(decoded, scope: scope)
        }
    }

    /// Where Chrome stops, what that loses, and what its replay drops or adjusts.
    private func checkReplay(_ decoded: SNSSSessionFile, scope: FindingScope) -> [Finding] {
        guard let chrome = decoded.chrome, let salvage = decoded.salvage else { return [] }
        var findings: [Finding] = []
        let chromeTabs = Self.tabIDs(chrome.windows)
        let dropped = Self.tabIDs(chrome.windowsDropped).union(chrome.tabsWithoutWindow.map(\.id))
        // How many tabs salvage reads that Chrome neither restores nor drops for a rule of its own.
        var lost = 0
        for window in salvage.windows {
            for index in window.tabs.indices where !chromeTabs.contains(window.tabs[index].id) && !dropped.contains(window.tabs[index].id) {
                lost += 1
            }
        }
        let file = decoded.file
        let damage = file.damage.first
        let stop = chrome.stops.first
        let stopsAtDamage = damage != nil && (stop == nil || file.readByChrome <= stop?.record ?? 0)
        let losing =
            lost == 0
            ? "nothing after it holds a tab Chrome would not restore" : "losing \(counted(lost, "tab")) that salvage reads after it"
        if stopsAtDamage, let damage {
            let more = file.damage.count > 1 ? " (and \(file.damage.count - 1) more damaged places)" : ""
            let resumed =
                damage.resumedAt.map { "; records line up again at byte \($0)" }
                ?? (file.cutRecord != nil ? "; the record cut short is read as far as it goes" : "; nothing after it reads as records")
            let message = "\(damage.reason) at byte \(damage.offset): Chrome stops reading there, \(losing)\(resumed)\(more)"
            findings.append(scope.finding(lost == 0 ? .snssFileDamaged : .snssRecordDamaged, offset: damage.offset, message))
        } else if let stop {
            let what =
                stop.unparsable.map { "command \(stop.id) does not read (\($0))" } ?? "command id \(stop.id) is one Chromium does not know"
            let message = "\(what): Chrome stops replaying there, \(losing)"
            let rule: Rule = lost == 0 ? .snssFileDamaged : stop.unparsable == nil ? .snssCommandUnknown : .snssCommandUnparsable
            findings.append(scope.finding(rule, offset: stop.offset, message))
        }
        var orphans = FindingCap(rule: .snssTabWithoutWindow, scope: scope)
        for tab in chrome.tabsWithoutWindow {
            orphans.add {
                scope.finding(
                    .snssTabWithoutWindow, tab: TabReference(index: nil, id: tab.id),
                    "tab \(tab.id) (\(counted(tab.navigations.count, "navigation"))) is in no window: Chrome drops it")
            }
        }
        findings += orphans.findings
        for window in chrome.windowsDropped where window.type == nil {
            findings.append(
                scope.finding(
                    .snssWindowWithoutType,
                    "window \(window.id) (\(counted(window.tabs.count, "tab"))) has no SetWindowType: Chrome does not restore it"))
        }
        for window in chrome.windows {
            if window.selectedTabIndex != -1, !window.tabs.contains(where: { $0.visualIndex == window.selectedTabIndex }) {
                findings.append(
                    scope.finding(
                        .snssSelectedIndexOutOfRange,
                        "window \(window.id) selects the tab at \(window.selectedTabIndex), which it does not have: Chrome selects its first tab"
                    ))
            }
            // Each tab looked at where it is (copying each one out costs more than the check).
            let past = window.tabs.indices.filter { index in
                let selected = window.tabs[index].selectedIndex
                return !window.tabs[index].navigations.contains { $0.index >= selected }
            }
            var selections = FindingCap(rule: .snssSelectedIndexOutOfRange, scope: scope)
            for index in past {
                selections.add {
                    let tab = window.tabs[index]
                    return scope.finding(
                        .snssSelectedIndexOutOfRange, tab: TabReference(index: nil, id: tab.id),
                        "tab \(tab.id) selects navigation \(tab.selectedIndex), past its last (\(tab.navigations.last?.index ?? 0)): Chrome selects its last navigation"
                    )
                }
            }
            findings += selections.findings
        }
        return findings
    }

    /// The ids of the tabs of `windows`.
    private static func tabIDs(_ windows: [SNSSReplay.Window]) -> Set<Int32> {
        var ids = Set<Int32>(minimumCapacity: windows.reduce(0) { $0 + $1.tabs.count })
        for window in windows {
            for index in window.tabs.indices { ids.insert(window.tabs[index].id) }
        }
        return ids
    }

}
