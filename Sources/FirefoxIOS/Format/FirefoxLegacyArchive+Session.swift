import FileSystemKit
import SessionFormats
import SessionModel

extension FirefoxLegacyArchive {
    /// The archive as a model session: its tabs in order (each numbered by its position from 1,
    /// its `screenshotUUID` as its stable identifier, its privacy its own), the last selected tab
    /// active; with `history`, each tab's session data as its history.
    public func session(id: SessionID, history: Bool) -> Session {
        var active: Int32 = -1
        var tabs: [Tab] = []
        tabs.reserveCapacity(self.tabs.count)
        for (index, saved) in self.tabs.enumerated() {
            if saved.isSelected { active = Int32(clamping: index) }
            let lastUsed = saved.lastUsedTimestamp
            let page = saved.url ?? saved.currentIndex.map { saved.urls[$0] } ?? ""
            tabs.append(
                Tab(
                    id: Int32(clamping: index + 1), title: saved.title ?? "", url: page, creationTime: saved.createdTimestamp,
                    lastActiveTime: lastUsed,
                    navigationItemCount: saved.urls.isEmpty ? (page.isEmpty ? 0 : 1) : Int32(clamping: saved.urls.count),
                    history: history && !saved.urls.isEmpty ? saved.history(time: lastUsed) : nil,
                    stableIdentifier: saved.screenshotUUID, incognito: saved.isPrivate))
        }
        return Session(id: id, incognito: false, format: .tabsArchive, activeIndex: active, pinnedCount: 0, tabs: tabs)
    }
}
