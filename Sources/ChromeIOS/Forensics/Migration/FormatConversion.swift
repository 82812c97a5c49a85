import Foundation
import SessionForensics
import SessionFormats
import SessionModel

/// Converts one window between Chrome's two formats the way Chrome's own migration does
/// (docs/chrome-ios-format.md, legacy format and migration), reporting every change it makes on the
/// way.
public enum FormatConversion {
    /// A legacy window as Chrome's migration stores it in the optimized format: the window as
    /// Chrome's legacy reader decodes it (its repairs), every tab copied in order (tabs without
    /// entries too: Chrome drops them at the next load, and the changes say so), the pinned count
    /// the number of tabs marked pinned, groups copied, histories of at most 75 items with the item
    /// metadata of the last committed entry.
    ///
    /// Where Chrome would lose a tab or crash, sessionctl does better and says so: a repeated tab
    /// id gets a fresh one (Chrome would write both tabs into one directory), an out-of-range
    /// referrer policy becomes `default`, and a missing or all-zero group id gets a random one (as
    /// Chrome gives it when it reads the file).
    public static func toOptimized(
        _ window: LegacyWindow, id: SessionID, incognito: Bool,
        newGroupID: () -> TabGroupID = FormatConversion.randomGroupID
    ) -> (session: Session, changes: [MigrationChange]) {
        func change(_ tab: Int?, _ origin: MigrationChange.Origin, _ message: String) -> MigrationChange {
            MigrationChange(session: id, incognito: incognito, tab: tab, origin: origin, message: message)
        }
        let (repaired, repairs) = window.repairedAsChromeLoads()
        var changes = repairs.map { change($0.tab, .chrome, $0.message) }
        var session = repaired.session(id: id, incognito: incognito)
        session.format = .optimized

        changes += renumberRepeatedIDs(&session.tabs).map { change($0.index, .sessionctl, $0.message) }
        for index in session.tabs.indices {
            var tab = session.tabs[index]
            tab.stableIdentifier = nil
            if let foreign = window.tabs[index].foreignEntry {
                changes.append(
                    change(index, .chrome, "an entry is a \(foreign), not a navigation item; Chrome reads the tab with no entries"))
            }
            if var history = tab.history {
                for item in history.items.indices {
                    if let referrer = history.items[item].referrer, !referrer.policy.isKnown {
                        changes.append(
                            change(
                                index, .sessionctl,
                                "entry \(item) has referrer policy \(referrer.policy.rawValue), on which Chrome crashes when the tab is opened; written as default"
                            ))
                        history.items[item].referrer?.policy = .default
                    }
                }
                let stored = ChromeSaveSemantics.storedHistory(history)
                if stored.items.count < history.items.count {
                    changes.append(
                        change(
                            index, .chrome,
                            "\(history.items.count) entries; Chrome keeps the \(stored.items.count) around the last committed one"))
                }
                let metadata = ChromeSaveSemantics.itemMetadata(for: stored)
                tab.title = metadata.title
                tab.url = metadata.url
                tab.navigationItemCount = metadata.count
                tab.history = stored
            }
            session.tabs[index] = tab
        }
        for number in session.groups.indices where session.groups[number].id?.isZero ?? true {
            session.groups[number].id = newGroupID()
        }
        changes += nextLoad(session).map { change($0.tab, .chrome, $0.message) }
        return (session, changes)
    }

    /// An optimized session as Chrome's migration writes it in the legacy format: every tab copied
    /// in order (Chrome drops tabs without history at the next load, and the changes say so),
    /// `selectedIndex` none unless the active index points at a tab, tabs below the pinned count
    /// marked pinned, openers copied, a new random UUID `stableIdentifier` per tab, then the legacy
    /// reader's repairs (so that the result reads back unchanged). A repeated tab id gets a fresh
    /// one (sessionctl does better than Chrome there, and says so).
    ///
    /// Throws when Chrome would lose the whole window (an invalid tab id) or when a tab's history
    /// could not be read (Chrome's migration fails then too): the legacy format stores histories
    /// inside the session file.
    public static func toLegacy(_ stored: Session) throws(ForensicsError) -> (window: LegacyWindow, changes: [MigrationChange]) {
        func change(_ tab: Int?, _ origin: MigrationChange.Origin, _ message: String) -> MigrationChange {
            MigrationChange(session: stored.id, incognito: stored.incognito, tab: tab, origin: origin, message: message)
        }
        if let bad = stored.tabs.firstIndex(where: { !$0.hasValidID }) {
            throw .cannotMigrate(
                session: stored.id,
                reason: "tab \(bad) has the invalid id \(stored.tabs[bad].id): Chrome loads this window empty (see sessionctl validate)")
        }
        if let missing = stored.tabs.firstIndex(where: { $0.history == nil }) {
            throw .cannotMigrate(
                session: stored.id,
                reason:
                    "the history (data.pb) of tab \(missing) (#\(stored.tabs[missing].id)) is missing or unreadable (see sessionctl validate)"
            )
        }
        var changes: [MigrationChange] = []
        let unknown = stored.tabs.filter { tab in
            !tab.unknownFields.isEmpty || !tab.metadataUnknownFields.isEmpty
                || (tab.history.map { !$0.unknownFields.isEmpty || !$0.navigationUnknownFields.isEmpty } ?? false)
        }.count
        if unknown > 0 || !stored.unknownFields.isEmpty {
            changes.append(
                change(
                    nil, .chrome,
                    "fields of a newer Chrome (\(unknown) tab\(unknown == 1 ? "" : "s")) have no place in the legacy format and are not carried over"
                ))
        }
        var session = stored
        for index in session.tabs.indices { session.tabs[index].stableIdentifier = nil }
        changes += renumberRepeatedIDs(&session.tabs).map { change($0.index, .sessionctl, $0.message) }
        changes += nextLoad(session).map { change($0.tab, .chrome, $0.message) }
        let (window, repairs) = LegacyWindow(session).repairedAsChromeLoads()
        changes += repairs.map { change($0.tab, .chrome, $0.message) }
        return (window, changes)
    }

    /// Gives each tab whose id an earlier tab has a fresh id above every id of the list (past
    /// Int32.max, from 1 up, skipping ids in use); returns each change with its message. Chrome's
    /// migration would write both tabs into one directory: sessionctl does better, and says so.
    static func renumberRepeatedIDs(_ tabs: inout [Tab]) -> [(index: Int, message: String)] {
        var inUse = Set(tabs.map(\.id))
        var seen = Set<TabID>()
        var next = tabs.map(\.id).max() ?? 0
        var changes: [(index: Int, message: String)] = []
        for index in tabs.indices where !seen.insert(tabs[index].id).inserted {
            repeat { next = next < Int32.max ? next + 1 : 1 } while inUse.contains(next)
            changes.append(
                (index, "tab id \(tabs[index].id) repeats an earlier tab's; given the new id \(next) (Chrome would keep only one of them)"))
            tabs[index].id = next
            inUse.insert(next)
            seen.insert(next)
        }
        return changes
    }

    /// What Chrome does with the migrated window when it next loads it (its tabs without history
    /// dropped, indexes re-chosen), as changes to report.
    static func nextLoad(_ session: Session) -> [(tab: Int?, message: String)] {
        let restored = ChromeLoadSemantics.restore(session)
        var notes: [(tab: Int?, message: String)] = restored.dropped.map { dropped in
            let why = dropped.reason == .duplicateID ? "repeats an earlier tab's id" : "has no navigation entries"
            return (dropped.index, "tab #\(dropped.id) \(why); it is migrated, and Chrome drops it when it next loads the window")
        }
        notes += restored.adjustments.map { (nil, "at the next load, " + describe($0)) }
        return notes
    }

    /// A random non-zero tab group id.
    public static func randomGroupID() -> TabGroupID {
        var id = TabGroupID(high: UInt64.random(in: .min ... .max), low: UInt64.random(in: .min ... .max))
        while id.isZero { id = TabGroupID(high: UInt64.random(in: .min ... .max), low: UInt64.random(in: .min ... .max)) }
        return id
    }

    static func describe(_ adjustment: ChromeLoadSemantics.Adjustment) -> String {
        switch adjustment {
        case .activeIndexChanged(let from, let to): return "active index \(from) becomes \(to)"
        case .pinnedCountChanged(let from, let to): return "pinned count \(from) becomes \(to)"
        case .openerCleared(let tab, let index): return "the opener of tab #\(tab) (index \(index)) points at no tab and is cleared"
        case .groupRangeChanged(let group, let from, let to):
            return "tab group \(group) covers \(from.start)+\(from.count), re-indexed to \(to.start)+\(to.count)"
        case .groupRemoved(let group, let reason): return "tab group \(group) is skipped: \(reason)"
        case .groupIDRegenerated(let group): return "tab group \(group) has no id (or an all-zero one) and gets a fresh one"
        case .groupColorDefaulted(let group, let stored): return "tab group \(group)'s colour \(stored) is outside 0-8 and shows grey"
        }
    }
}
