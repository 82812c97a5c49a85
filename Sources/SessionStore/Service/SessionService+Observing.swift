import FileSystemKit
import SessionFormats
import SessionModel

extension SessionService: TabListObserver {
    public func tabList(_ list: TabList, didInsert tab: BrowserTab, at index: Int) {
        guard let browser = list.browser else { return }
        markDirty(browser) {
            $0.dirtyTabs.insert(tab.id)
            $0.closedTabs.remove(tab.id)
        }
    }

    public func tabList(_ list: TabList, didRemove tab: BrowserTab, at index: Int, closing: Bool) {
        guard let browser = list.browser else { return }
        // A tab moving to another window carries its history in memory: its directory here is
        // removed only after the save that commits both windows.
        if !closing { tab.realize() }
        markDirty(browser) {
            $0.dirtyTabs.remove(tab.id)
            $0.closedTabs.insert(tab.id)
        }
        if closing, browser.incognito, profile.incognito.browsers.tabCount == 0, options.writeProtocol != .noIncognitoWipe {
            purgeIncognito()
        }
    }

    public func tabList(_ list: TabList, didMove tab: BrowserTab, from: Int, to: Int) {
        guard let browser = list.browser else { return }
        markDirty(browser) { _ in }
    }

    public func tabList(_ list: TabList, didReplace old: BrowserTab, with new: BrowserTab, at index: Int) {
        guard let browser = list.browser else { return }
        markDirty(browser) {
            $0.dirtyTabs.remove(old.id)
            $0.closedTabs.insert(old.id)
            $0.dirtyTabs.insert(new.id)
            $0.closedTabs.remove(new.id)
        }
    }

    public func tabList(_ list: TabList, didActivate tab: BrowserTab?, previous: BrowserTab?) {
        guard let browser = list.browser else { return }
        markDirty(browser) { _ in }
    }

    public func tabList(_ list: TabList, didFinishNavigationIn tab: BrowserTab) {
        guard let browser = list.browser else { return }
        markDirty(browser) { $0.dirtyTabs.insert(tab.id) }
    }

    public func tabListDidChangePinningOrGroups(_ list: TabList) {
        guard let browser = list.browser else { return }
        markDirty(browser) { _ in }
    }
}

extension SessionService {
    /// Encodes everything the dirty windows need written (the only part of a save that reads the model).
    func makeJob(_ changes: [SessionKey: PendingChanges]) -> SaveJob {
        var windows: [SaveJob.Window] = []
        let ordered = changes.sorted { ($0.key.incognito ? 1 : 0, $0.key.id) < ($1.key.incognito ? 1 : 0, $1.key.id) }
        for (key, change) in ordered {
            let browser = change.browser
            let directory = joinPath(profile.path, browser.sessionDirectory)
            for id in change.dirtyTabs {
                // A dirty tab that is not realized (moved in unrealized) is read now.
                browser.tabs.tabs.first { $0.id == id }?.realize()
            }
            let session = ChromeSaveSemantics.listToWrite(browser.currentSession())
            let present = Set(session.tabs.map(\.id))
            var tabData: [(id: TabID, bytes: [UInt8])] = []
            var tabState: [(id: TabID, bytes: [UInt8]?)] = []
            for tab in session.tabs where change.dirtyTabs.contains(tab.id) {
                guard let history = tab.history else { continue }
                tabData.append((tab.id, ChromeProtoCodec.encodeTabData(history)))
                tabState.append((tab.id, browser.tabs.tabs.first { $0.id == tab.id }?.interactionState))
            }
            let closed = change.closedTabs.union(orphanTabs[key] ?? []).subtracting(present)
            windows.append(
                SaveJob.Window(
                    key: key, directory: directory, session: session,
                    metadata: ChromeProtoCodec.encodeSessionMetadata(session),
                    tabData: tabData, tabState: tabState,
                    closedTabs: closed.sorted(),
                    removeDirectory: key.incognito && session.tabs.isEmpty))
        }
        return SaveJob(windows: windows, purgeDirectory: nil)
    }
}
