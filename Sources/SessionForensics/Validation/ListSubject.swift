import SessionModel

/// A window's list as read from session_metadata.pb, with what Chrome's loader does to each tab.
struct ListSubject: Sendable {
    /// What becomes of a listed tab when Chrome loads the list (chrome-ios-format.md section 5).
    enum Fate: Sendable, Hashable {
        /// The tab is restored.
        case kept
        /// Its identifier is 0 or negative (the whole session is then lost).
        case invalidID
        /// Its navigation item count is 0: dropped.
        case noHistory
        /// An earlier kept tab has the same id: dropped.
        case duplicate(of: Int)
    }

    let session: Session
    let layout: ListLayout
    let scope: FindingScope
    /// The fate of each tab, by index.
    let fates: [Fate]
    /// Each stored tab's index among the restored ones (nil for a dropped tab); tabs with an
    /// invalid id count as restored, since their session is lost anyway.
    let restoredIndex: [Int?]
    /// The pinned count after filtering: the restored tabs among the first `pinnedCount` stored ones.
    let restoredPinned: Int

    init(session: Session, layout: ListLayout, scope: FindingScope) {
        self.session = session
        self.layout = layout
        self.scope = scope
        var fates: [Fate] = []
        fates.reserveCapacity(session.tabs.count)
        var firstIndex: [TabID: Int] = [:]
        for (index, tab) in session.tabs.enumerated() {
            if !tab.hasValidID {
                fates.append(.invalidID)
            } else if tab.navigationItemCount == 0 {
                fates.append(.noHistory)
            } else if let first = firstIndex[tab.id] {
                fates.append(.duplicate(of: first))
            } else {
                firstIndex[tab.id] = index
                fates.append(.kept)
            }
        }
        self.fates = fates
        var restored = 0
        var restoredIndex: [Int?] = []
        restoredIndex.reserveCapacity(fates.count)
        for fate in fates {
            switch fate {
            case .kept, .invalidID:
                restoredIndex.append(restored)
                restored += 1
            case .noHistory, .duplicate:
                restoredIndex.append(nil)
            }
        }
        self.restoredIndex = restoredIndex
        let storedPinned = max(0, min(Int(session.pinnedCount), fates.count))
        self.restoredPinned = restoredIndex[..<storedPinned].count { $0 != nil }
    }

    /// The tab at `index` as a finding refers to it.
    func reference(_ index: Int) -> TabReference {
        TabReference(index: index, id: session.tabs[index].id)
    }

    /// Number of listed tabs.
    var count: Int { session.tabs.count }
}
