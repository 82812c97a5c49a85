import SessionFormats
import SessionModel

/// One change a repair makes to a window as a whole, said before it happens: tabs left out or
/// recovered, the active tab, the pinned count, groups removed or changed, openers cleared.
public struct WindowEffect: Sendable, Hashable {
    public var session: SessionID
    public var incognito: Bool
    /// What changes: `tabs`, `tab-recovered`, `tab-left-out`, `active-tab`, `pinned-count`,
    /// `group-removed`, `group-changed`, `opener-cleared`.
    public var what: String
    public var from: String
    public var to: String

    /// The effects of turning the list `stored` (as read; salvaged when damaged) into `repaired`.
    package static func effects(stored: Session, repaired: Session) -> [WindowEffect] {
        var effects: [WindowEffect] = []
        func add(_ what: String, _ from: String, _ to: String) {
            effects.append(WindowEffect(session: repaired.id, incognito: repaired.incognito, what: what, from: from, to: to))
        }
        func tabName(_ tab: Tab?) -> String { tab.map { "#\($0.id)" + ($0.title.isEmpty ? "" : " \"\($0.title.prefix(60))\"") } ?? "none" }
        let storedIDs = Set(stored.tabs.map(\.id))
        let repairedIDs = Set(repaired.tabs.map(\.id))
        if stored.tabs.count != repaired.tabs.count { add("tabs", "\(stored.tabs.count)", "\(repaired.tabs.count)") }
        for tab in repaired.tabs where !storedIDs.contains(tab.id) { add("tab-recovered", "", tabName(tab)) }
        for tab in stored.tabs where tab.id > 0 && !repairedIDs.contains(tab.id) { add("tab-left-out", tabName(tab), "") }
        func active(_ session: Session) -> Tab? {
            session.tabs.indices.contains(Int(session.activeIndex)) ? session.tabs[Int(session.activeIndex)] : nil
        }
        if active(stored)?.id != active(repaired)?.id { add("active-tab", tabName(active(stored)), tabName(active(repaired))) }
        if stored.pinnedCount != repaired.pinnedCount { add("pinned-count", "\(stored.pinnedCount)", "\(repaired.pinnedCount)") }
        func describe(_ group: TabGroup) -> String {
            "\(group.title.isEmpty ? "(untitled)" : "\"\(group.title)\"") tabs \(group.start)+\(group.count) colour \(group.color.rawValue)"
        }
        var matched = Set<Int>()
        for group in stored.groups {
            let same =
                repaired.groups.indices.first {
                    !matched.contains($0) && repaired.groups[$0].title == group.title
                        && (group.id == nil || repaired.groups[$0].id == group.id || group.id?.isZero == true)
                }
                ?? repaired.groups.indices.first { !matched.contains($0) && repaired.groups[$0].title == group.title }
            guard let index = same else {
                add("group-removed", describe(group), "")
                continue
            }
            matched.insert(index)
            let now = repaired.groups[index]
            if now.start != group.start || now.count != group.count || now.color != group.color || now.id != group.id {
                add(
                    "group-changed", describe(group) + (group.id.map { " id \($0.hex)" } ?? ""),
                    describe(now) + (now.id.map { " id \($0.hex)" } ?? ""))
            }
        }
        let repairedByID = Dictionary(repaired.tabs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for tab in stored.tabs {
            guard let opener = tab.opener, let now = repairedByID[tab.id], now.opener == nil else { continue }
            let openerTab = stored.tabs.indices.contains(Int(opener.index)) ? stored.tabs[Int(opener.index)] : nil
            add("opener-cleared", "\(tabName(tab)) opened by \(openerTab.map(tabName) ?? "index \(opener.index)")", "")
        }
        return effects
    }
}
