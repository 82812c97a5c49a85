import SessionFormats
import SessionModel

/// A window's list as read from session_metadata.pb, with what Chrome's loader does to it
/// (`ChromeLoadSemantics.restore`, the one model of Chrome's loading every rule reads).
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
    /// The list as Chrome loads it.
    let restored: ChromeLoadSemantics.Restored
    /// The fate of each tab, by index.
    let fates: [Fate]

    init(session: Session, layout: ListLayout, scope: FindingScope) {
        self.session = session
        self.layout = layout
        self.scope = scope
        let restored = ChromeLoadSemantics.restore(session)
        self.restored = restored
        var fates = session.tabs.map { $0.hasValidID ? Fate.kept : Fate.invalidID }
        var firstKept: [TabID: Int] = [:]
        for (index, tab) in session.tabs.enumerated() where restored.restoredIndex[index] != nil && firstKept[tab.id] == nil {
            firstKept[tab.id] = index
        }
        for dropped in restored.dropped where fates[dropped.index] != .invalidID {
            fates[dropped.index] = dropped.reason == .noNavigationItems ? .noHistory : .duplicate(of: firstKept[dropped.id] ?? 0)
        }
        self.fates = fates
    }

    /// The tab at `index` as a finding refers to it.
    func reference(_ index: Int) -> TabReference {
        TabReference(index: index, id: session.tabs[index].id)
    }

    /// Number of listed tabs.
    var count: Int { session.tabs.count }
}
