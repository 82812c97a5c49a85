import SessionForensics
import SessionFormats
import SessionModel

/// A window's list as read from session_metadata.pb, with what Chrome's loader does to it
/// (`ChromeLoadSemantics.restore`, the one model of Chrome's loading every rule reads).
struct ListSubject: Sendable {
    /// What becomes of a listed tab when Chrome loads the list (docs/chrome-ios-format.md, how
    /// Chrome loads).
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
    /// The fate of each tab, by index, coded in 4 bytes: -1 kept, -2 invalid id, -3 no history,
    /// an index: a duplicate of that tab.
    private let fateCodes: [Int32]

    init(session: Session, layout: ListLayout, scope: FindingScope) {
        self.session = session
        self.layout = layout
        self.scope = scope
        let restored = ChromeLoadSemantics.restore(session)
        self.restored = restored
        var codes = session.tabs.map { $0.hasValidID ? ListSubject.keptCode : ListSubject.invalidIDCode }
        var firstKept: [TabID: Int32] = [:]
        for dropped in restored.dropped where dropped.reason == .duplicateID && firstKept[dropped.id] == nil {
            firstKept[dropped.id] = -1
        }
        if !firstKept.isEmpty {
            for index in 0..<restored.positions.restoredCount {
                guard let stored = restored.positions.storedIndex(ofRestored: index) else { continue }
                let id = session.tabs[stored].id
                if firstKept[id] == -1 { firstKept[id] = Int32(truncatingIfNeeded: stored) }
            }
        }
        for dropped in restored.dropped where codes[dropped.index] != ListSubject.invalidIDCode {
            codes[dropped.index] = dropped.reason == .noNavigationItems ? ListSubject.noHistoryCode : max(0, firstKept[dropped.id] ?? 0)
        }
        fateCodes = codes
    }

    private static let keptCode: Int32 = -1
    private static let invalidIDCode: Int32 = -2
    private static let noHistoryCode: Int32 = -3

    /// What becomes of the tab at `index`.
    func fate(_ index: Int) -> Fate {
        switch fateCodes[index] {
        case ListSubject.keptCode: .kept
        case ListSubject.invalidIDCode: .invalidID
        case ListSubject.noHistoryCode: .noHistory
        case let first: .duplicate(of: Int(first))
        }
    }

    /// The tab at `index` as a finding refers to it.
    func reference(_ index: Int) -> TabReference {
        TabReference(index: index, id: session.tabs[index].id)
    }

    /// Number of listed tabs.
    var count: Int { session.tabs.count }
}
