import Archive
import FileSystemKit
import SessionFormats
import SessionModel

extension SessionstoreDocument {
    /// The open windows as model sessions, each named `<file>#<n>` (its 1-based place in the
    /// file): tabs in order, the selected tab active, pinned tabs kept as pinned, and each tab's
    /// history its entries with the current one committed.
    ///
    /// Firefox tabs have no id in the file: each is numbered by its position from 1. Entries keep
    /// no times: each is stamped with the tab's last access.
    /// The closed windows go with the first open window (`<file>#closed-<n>`).
    public func sessions(file: String, history: Bool) -> [Session] {
        var sessions = windows.enumerated().map { index, window in
            window.session(id: "\(file)#\(index + 1)", history: history)
        }
        if !sessions.isEmpty {
            sessions[0].closedWindows = closedWindows.enumerated().map { index, window in
                window.session(id: "\(file)#closed-\(index + 1)", history: history)
            }
        }
        return sessions
    }
}

extension SessionstoreWindow {
    /// The window as a model session.
    public func session(id: SessionID, history: Bool) -> Session {
        var modelTabs: [Tab] = []
        modelTabs.reserveCapacity(tabs.count)
        for (index, tab) in tabs.enumerated() { modelTabs.append(tab.modelTab(id: index + 1, history: history)) }
        var leadingPinned: Int32 = 0
        for tab in tabs {
            guard tab.pinned else { break }
            leadingPinned += 1
        }
        return Session(
            id: id, incognito: isPrivate, format: .sessionstore, activeIndex: Int32(clamping: selectedIndex), pinnedCount: leadingPinned,
            tabs: modelTabs, groups: modelGroups,
            closedTabs: closedTabs.enumerated().map { $1.modelTab(id: $0 + 1, history: history) })
    }

    /// The window's tab groups over the runs of adjacent tabs that name them.
    var modelGroups: [TabGroup] {
        var groups: [TabGroup] = []
        var index = 0
        while index < tabs.count {
            guard let id = tabs[index].groupID, let group = self.groups.first(where: { $0.id == id }) else {
                index += 1
                continue
            }
            var end = index + 1
            while end < tabs.count, tabs[end].groupID == id { end += 1 }
            let colorName = group.color == "gray" ? "grey" : group.color
            let color = TabGroupColor.names.firstIndex(of: colorName).map { TabGroupColor(rawValue: Int32($0)) } ?? .grey
            groups.append(
                TabGroup(
                    start: Int32(clamping: index), count: Int32(clamping: end - index), title: group.name, color: color,
                    collapsed: group.collapsed, id: nil))
            index = end
        }
        return groups
    }
}

extension SessionstoreTab {
    /// The tab as a model tab numbered `id`: its current entry's title and URL, and with
    /// `history` its entries, each stamped with the tab's last access.
    func modelTab(id: Int, history: Bool) -> Tab {
        let lastAccessed =
            lastAccessed.map { Timestamp(unixMicroseconds: $0.multipliedReportingOverflow(by: 1_000).partialValue) } ?? .null
        let current = currentEntry
        var model = Tab(
            id: Int32(clamping: id), title: current?.title ?? "", url: current?.url ?? "", lastActiveTime: lastAccessed,
            navigationItemCount: Int32(clamping: entries.count), pinned: pinned)
        if history {
            model.history = TabHistory(
                lastCommittedIndex: Int32(clamping: currentIndex),
                items: entries.map { NavigationItem(url: $0.url, title: $0.title, timestamp: lastAccessed) })
        }
        return model
    }
}
