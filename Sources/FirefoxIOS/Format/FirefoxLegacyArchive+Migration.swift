import FileSystemKit
import Foundation
import SessionFormats
import SessionModel

extension FirefoxLegacyArchive {
    /// The names of `TabGroupTimerState`, the timer states a window file's `tabGroupData` keeps
    /// (`tabHistoryCurrentState`); the migration drops any other.
    static let timerStates: Set<String> = [
        "navSearchLoaded", "tabNavigatedToDifferentUrl", "tabSwitched", "tabSelected", "newTab", "openInNewTab", "openURLOnly", "none"
    ]

    /// The window Firefox's one-time migration to window files (`DefaultTabMigrationUtility.runMigration`)
    /// builds of these tabs, in their order.
    ///
    /// Each tab's id is its `screenshotUUID`, or a fresh UUID when it has none; its title, favicon
    /// and privacy are kept; its page is its URL (empty without one); its last use is the time of
    /// the migration and its creation `createdAt` (the time of the migration without one); its
    /// group is the four strings of its `tabGroupData`, always written (empty without one), a timer
    /// state Firefox does not know left out. The last selected tab names `activeTabId` with its
    /// `screenshotUUID`; without one (or with no tab selected) a fresh UUID names no tab. The
    /// history in `sessionData`, the `UUID` string and `hasHomeScreenshot` are dropped.
    ///
    /// Firefox migrates these tabs only when `loadsInFirefox`; otherwise its decoder gives it none.
    ///
    /// - Parameters:
    ///   - windowID: the UUID of the window to build.
    ///   - migrationTime: when the migration runs, in seconds since 2001 (as window files keep times).
    ///   - keepingLastUsedTime: give each tab its own last use (`sessionData.lastUsedTime`, the
    ///     migration time without one) rather than the migration time, as Firefox does not.
    ///   - newUUID: the source of fresh UUIDs, called in Firefox's order: for each tab without a
    ///     `screenshotUUID`, then for `activeTabId` when needed.
    public func migratedWindow(
        id windowID: String, migrationTime: Double, keepingLastUsedTime: Bool = false, newUUID: () -> String = { UUID().uuidString }
    ) -> FirefoxWindowData {
        var selected: String?
        var migrated: [FirefoxTabData] = []
        migrated.reserveCapacity(tabs.count)
        for tab in tabs {
            let id = tab.screenshotUUID ?? newUUID()
            var lastUsed = migrationTime
            if keepingLastUsedTime, let time = tab.lastUsedTime { lastUsed = FirefoxLegacyTab.secondsSince2001(time) }
            migrated.append(
                FirefoxTabData(
                    id: id, title: tab.title, siteURL: tab.url ?? "", faviconURL: tab.faviconURL, isPrivate: tab.isPrivate,
                    lastUsedTime: lastUsed, createdAtTime: tab.createdAt.map(FirefoxLegacyTab.secondsSince2001) ?? migrationTime,
                    groupData: Self.groupData(tab.group)))
            if tab.isSelected { selected = tab.screenshotUUID }
        }
        return FirefoxWindowData(id: windowID, activeTabID: selected ?? newUUID(), tabs: migrated)
    }

    /// A window file's `tabGroupData` of a legacy group: its strings under the window file's keys,
    /// absent ones (all of them without a group) left out, as Foundation's encoder leaves them.
    static func groupData(_ group: FirefoxLegacyTab.Group?) -> JSONValue {
        var members: [(String, JSONValue)] = []
        if let term = group?.searchTerm { members.append(("searchTerm", .string(term))) }
        if let url = group?.searchURL { members.append(("searchUrl", .string(url))) }
        if let url = group?.nextURL { members.append(("nextUrl", .string(url))) }
        if let state = group?.historyState, timerStates.contains(state) { members.append(("tabHistoryCurrentState", .string(state))) }
        return .object(members)
    }
}
