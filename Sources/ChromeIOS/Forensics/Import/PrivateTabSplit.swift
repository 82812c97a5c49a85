import SessionForensics
import SessionModel

/// Chrome keeps private tabs as a window's incognito side, where Firefox for iOS marks each tab: a
/// window with private tabs is imported as two sessions of its id, its regular tabs and its
/// private ones (under `OTR/`), so that no private tab becomes a regular one.
enum PrivateTabSplit {
    /// `sessions` with each regular session's private tabs moved to an incognito session of the
    /// same id (the active tab stays active on its side; the other side's first tab is).
    static func split(_ sessions: [Session]) -> [Session] {
        var result: [Session] = []
        for session in sessions {
            guard !session.incognito, session.tabs.contains(where: \.incognito) else {
                result.append(session)
                continue
            }
            let active = session.activeTab
            var regular = session
            var privateSide = session
            regular.tabs = session.tabs.filter { !$0.incognito }
            privateSide.tabs = session.tabs.filter(\.incognito)
            privateSide.incognito = true
            for side in [0, 1] {
                var part = side == 0 ? regular : privateSide
                // Positions and groups of the whole window name other tabs on each side.
                part.groups = []
                part.pinnedCount = 0
                let position = part.tabs.firstIndex { active != nil && $0 == active }
                part.activeIndex = Int32(position ?? (part.tabs.isEmpty ? -1 : 0))
                for index in part.tabs.indices {
                    part.tabs[index].incognito = false
                    part.tabs[index].opener = nil
                }
                if !part.tabs.isEmpty { result.append(part) }
            }
        }
        return result
    }
}
