import SessionModel

/// One silent change Chrome's legacy reader makes to a session.plist it loads
/// (docs/chrome-ios-format.md, legacy format), or a change of the same kind that follows from one
/// (pinned tabs after the first unpinned one, unknown user agent words).
public struct LegacyRepair: Sendable, Hashable {
    /// What Chrome changes.
    public enum Kind: Sendable, Hashable, CaseIterable {
        /// `selectedIndex` points at no tab: it becomes 0, or none when the window is empty.
        case selectedIndexOutOfRange
        /// `uniqueIdentifier` is missing or not a positive int32: the tab gets a new id.
        case tabIDInvalid
        /// `lastCommittedItemIndex` is past the last entry (or not -1 with no entries): clamped.
        case lastCommittedOutOfRange
        /// `lastActiveTime` is earlier than `creationTime`: raised to it.
        case lastActiveBeforeCreation
        /// A tab is marked pinned after an unpinned one: Chrome's migration counts every tab marked
        /// pinned and pins that many tabs from the first, so pinned states move.
        case pinnedAfterUnpinned
        /// `userAgentKey` is not one of Chrome's words: read as NONE.
        case userAgentUnknown
    }

    public var kind: Kind
    /// The index of the tab concerned, or nil for the window.
    public var tab: Int?
    /// The tab id as stored (nil when there is none, or for the window).
    public var tabID: Int64?
    /// Byte offset in the file of the object concerned.
    public var offset: Int
    /// What is stored and what Chrome makes of it, for a person.
    public var message: String
    /// True for the way Chrome's own files say "nothing": no selection in a window with tabs (the
    /// first tab is selected) and no last-active time (the creation time is used). Chrome reads
    /// them so every time; they are worth listing when migrating, not a problem to report.
    public var isBenign: Bool = false
}

extension LegacyWindow {
    /// The window as Chrome's legacy reader leaves it, and every change it made on the way.
    ///
    /// New tab ids are allocated above the highest valid id of the window, in tab order. A
    /// `lastActiveTime` before the creation time, a null one included, becomes the creation time.
    /// `lastCommittedItemIndex` is only lowered (to the last entry, -1 with none): Chrome keeps a
    /// value below -1. A NSNotFound `selectedIndex` selects the first tab of a window with tabs.
    public func repairedAsChromeLoads() -> (window: LegacyWindow, repairs: [LegacyRepair]) {
        var window = self
        var repairs: [LegacyRepair] = []
        var nextID = Int64(tabs.compactMap(\.validID).max() ?? 0)
        for index in window.tabs.indices {
            var tab = window.tabs[index]
            func note(_ kind: LegacyRepair.Kind, _ message: String) {
                repairs.append(LegacyRepair(kind: kind, tab: index, tabID: tab.uniqueIdentifier, offset: tab.offset, message: message))
            }
            if tab.validID == nil {
                nextID = nextID < Int64(Int32.max) ? nextID + 1 : 1
                let stored =
                    tab.uniqueIdentifier.map { "uniqueIdentifier \($0) is not a positive 32-bit id" } ?? "uniqueIdentifier is missing"
                note(.tabIDInvalid, "\(stored); Chrome gives the tab a new id (here #\(nextID))")
                tab.uniqueIdentifier = nextID
            }
            let last = Int64(tab.items.count) - 1
            if tab.lastCommittedItemIndex > last || (tab.items.isEmpty && tab.lastCommittedItemIndex != -1) {
                let clamped = tab.items.isEmpty ? -1 : last
                note(
                    .lastCommittedOutOfRange,
                    "lastCommittedItemIndex \(tab.lastCommittedItemIndex) with \(tab.items.count) entr\(tab.items.count == 1 ? "y" : "ies"); Chrome uses \(clamped)"
                )
                tab.lastCommittedItemIndex = clamped
            }
            if tab.lastActiveTime < tab.creationTime {
                let missing = tab.lastActiveTime.isNull
                defer { if missing { repairs[repairs.count - 1].isBenign = true } }
                note(
                    .lastActiveBeforeCreation,
                    "lastActiveTime \(tab.lastActiveTime.iso8601 ?? "-") is before creationTime \(tab.creationTime.iso8601 ?? "-"); Chrome raises it to the creation time"
                )
                tab.lastActiveTime = tab.creationTime
            }
            if let word = tab.userAgentKey, !LegacyUserAgent.isKnown(word) {
                note(.userAgentUnknown, "userAgentKey \"\(word)\" is not AUTOMATIC, NONE, MOBILE or DESKTOP; Chrome reads it as NONE")
                tab.userAgentKey = "NONE"
            }
            window.tabs[index] = tab
        }
        let pinned = window.pinnedFlagCount
        for index in window.tabs.indices where window.tabs[index].pinned != (index < pinned) {
            let tab = window.tabs[index]
            let becomes = index < pinned ? "pinned although it is not marked so" : "unpinned although it is marked pinned"
            repairs.append(
                LegacyRepair(
                    kind: .pinnedAfterUnpinned, tab: index, tabID: tab.uniqueIdentifier, offset: tab.offset,
                    message:
                        "tabs marked pinned do not all come first; Chrome counts the \(pinned) marked and pins the first \(pinned), so this tab comes up \(becomes)"
                ))
            window.tabs[index].pinned = index < pinned
        }
        let selectedIsValid = window.tabs.isEmpty ? window.selectsNothing : (0..<Int64(window.tabs.count)).contains(window.selectedIndex)
        if !selectedIsValid {
            let chosen: Int64 = window.tabs.isEmpty ? LegacyWindow.notFound : 0
            repairs.append(
                LegacyRepair(
                    kind: .selectedIndexOutOfRange, tab: nil, tabID: nil, offset: offset,
                    message:
                        "selectedIndex \(window.selectsNothing ? "NSNotFound" : String(window.selectedIndex)) with \(window.tabs.count) tab\(window.tabs.count == 1 ? "" : "s"); Chrome selects \(window.tabs.isEmpty ? "nothing" : "the first tab")"
                ))
            if window.selectsNothing { repairs[repairs.count - 1].isBenign = true }
            window.selectedIndex = chosen
        }
        return (window, repairs)
    }
}
