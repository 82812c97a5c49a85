import Archive
import SessionForensics
import SessionFormats
import SessionModel

/// Works out the repair of one legacy session file (`Sessions/<id>/session.plist`) the way current
/// Chrome loads it: first the legacy reader's own repairs (docs/chrome-ios-format.md, legacy
/// format), then, since Chrome migrates the window to the optimized format and its loading rules
/// apply there, the rebuild of an optimized session (`SessionRebuilder`, on the window converted in
/// memory). The result is a window to write back as a session.plist; every step names the validate
/// rule it fixes, on the plist's path.
@_spi(Fuzzing) public struct LegacySessionRebuilder {
    let id: SessionID
    let incognito: Bool
    /// The session.plist, relative to the profile.
    let file: String
    /// Tab ids used elsewhere on the window's side of the profile (other windows' tabs, the
    /// `Web_Sessions/` files named after tab ids), which a fresh id avoids.
    let reserved: Set<TabID>
    private var log = RepairActionLog()
    /// The steps recorded (at most `FindingCap.limit` of one rule listed, the rest counted).
    @_spi(Fuzzing) public var actions: [RepairAction] { log.actions }

    @_spi(Fuzzing) public init(id: SessionID, incognito: Bool, file: String, reserved: Set<TabID> = []) {
        self.id = id
        self.incognito = incognito
        self.file = file
        self.reserved = reserved
    }

    /// The repaired window, or nil when Chrome would load `window` as it is (or, never expected,
    /// when the rebuilt histories cannot be read back).
    ///
    /// Tabs without a stable identifier get a new one (as Chrome's migration gives them, but
    /// derived from the session and tab ids, so that a plan and its run agree); the window keeps
    /// its archive's wrapping.
    @_spi(Fuzzing) public mutating func rebuild(_ window: LegacyWindow) -> LegacyWindow? {
        if let why = window.unreadableByChrome {
            record(
                .legacyUnreadableByChrome,
                "write the window\(window.windowsInRoot > 1 ? " (the first of the file's \(window.windowsInRoot))" : "") as one SessionWindowIOS with current class names",
                because: why + "; the original stays in the set-aside copy")
        }
        var window = window
        for (index, tab) in window.tabs.enumerated() {
            guard let foreign = tab.foreignEntry else { continue }
            let kept = tab.salvagedItems.count
            record(
                .legacyEntriesForeign,
                "write tab \(index) with its \(kept) navigation entr\(kept == 1 ? "y" : "ies") and without the \(foreign)",
                because:
                    "Chrome reads no entry of a tab whose entries hold a \(foreign), and would drop the tab; the original stays in the set-aside copy"
            )
            window.tabs[index].items = tab.salvagedItems
            window.tabs[index].lastCommittedItemIndex = tab.salvagedLastCommittedItemIndex
            window.tabs[index].foreignEntry = nil
            window.tabs[index].salvagedItems = []
        }
        let (read, repairs) = window.repairedAsChromeLoads()
        for repair in repairs where !repair.isBenign {
            let subject = repair.tab.map { "tab \($0)" } ?? "the window"
            record(LegacySessionRebuilder.rule(for: repair.kind), "write \(subject) as Chrome reads it", because: repair.message)
        }
        let unique = uniqueTabIDs(read, givenByChrome: window.tabs.map { $0.validID == nil })
        var session = unique.session(id: id, incognito: incognito)
        session.format = .optimized

        var rebuilder = SessionRebuilder(snapshot: LegacySessionRebuilder.optimizedSnapshot(of: session, at: directory))
        let repaired = rebuilder.rebuild()
        // The steps concern the plist; the files their reasons name are those of the conversion.
        for var action in rebuilder.actions {
            action.file = file
            action.reason = "in the window as Chrome migrates it, " + action.reason
            log.append(action)
        }
        guard !actions.isEmpty else { return nil }

        // The optimized format has no stable identifiers: each tab keeps its own, found by its id.
        let stable = Dictionary(
            unique.tabs.compactMap { tab in tab.validID.map { ($0, tab.stableIdentifier) } },
            uniquingKeysWith: { first, _ in first })
        var result = repaired.session
        for (index, files) in repaired.tabs.enumerated() where index < result.tabs.count {
            guard let history = try? ChromeProtoCodec.decodeTabData(files.data) else {
                // Not expected (the bytes are the rebuild's own), but the tab would lose its
                // history: then nothing is rewritten, and the findings stay unrepaired.
                log = RepairActionLog()
                return nil
            }
            result.tabs[index].history = history
            let tab = result.tabs[index].id
            result.tabs[index].stableIdentifier = stable[tab].flatMap { $0 } ?? stableIdentifier(for: tab)
        }
        var rewritten = LegacyWindow(result)
        rewritten.wrappedInSessionIOS = window.wrappedInSessionIOS
        return rewritten
    }

    /// A UUID (version 4 in form, upper-case as NSUUID writes it) for a tab that has none, derived
    /// from the session and the tab's id.
    private func stableIdentifier(for tab: TabID) -> String {
        var bytes = Array(SHA256.hash(Array("\(id)/\(incognito)/stable/\(tab)".utf8)).prefix(16))
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return byte < 16 ? "0" + digits : digits
        }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }

    /// The session directory.
    private var directory: String {
        guard let slash = file.lastIndex(of: "/") else { return "" }
        return String(file[..<slash])
    }

    private mutating func record(_ rule: Rule, _ action: String, because reason: String) {
        log.append(RepairAction(rule: rule, session: id, incognito: incognito, file: file, action: action, reason: reason))
    }

    /// The window with a fresh id for each tab whose id another tab holds: the first tab with a
    /// valid stored id keeps it, then tabs whose id Chrome's reader gave them (`givenByChrome`)
    /// keep theirs when no other tab has it (that id wraps to 1 past Int32.max). A fresh id is
    /// the next one above the highest in use here or in `reserved` (wrapping the same way).
    private mutating func uniqueTabIDs(_ window: LegacyWindow, givenByChrome: [Bool]) -> LegacyWindow {
        var window = window
        var taken = Set<Int64>()
        var renumbered: [(index: Int, id: Int64, rule: Rule, reason: String)] = []
        for chromeGiven in [false, true] {
            for index in window.tabs.indices where (index < givenByChrome.count && givenByChrome[index]) == chromeGiven {
                guard let stored = window.tabs[index].uniqueIdentifier, !taken.insert(stored).inserted else { continue }
                renumbered.append(
                    chromeGiven
                        ? (index, stored, .legacyTabIDInvalid, "the id Chrome's reader gives tab \(index), \(stored), is another tab's")
                        : (
                            index, stored, .tabIDDuplicate,
                            "tab \(index) has identifier \(stored), like an earlier tab; Chrome would keep only one of them"
                        ))
            }
        }
        let avoided = taken.union(reserved.filter { $0 > 0 }.map(Int64.init))
        var fresh = avoided.max() ?? 0
        for change in renumbered.sorted(by: { $0.index < $1.index }) {
            repeat {
                fresh = fresh < Int64(Int32.max) ? fresh + 1 : 1
            } while avoided.contains(fresh) || taken.contains(fresh)
            taken.insert(fresh)
            window.tabs[change.index].uniqueIdentifier = fresh
            record(change.rule, "give tab \(change.index) the new id #\(fresh)", because: change.reason)
        }
        return window
    }

    /// The optimized session directory Chrome's migration would write for `session`: its
    /// session_metadata.pb and each tab's data.pb, in memory.
    private static func optimizedSnapshot(of session: Session, at path: String) -> SessionDirectoryRead {
        let directories = session.tabs.map { tab in
            TabDirectoryRead(
                name: Tab.directoryName(for: tab.id), id: tab.id,
                data: .bytes(ChromeProtoCodec.encodeTabData(tab.history ?? TabHistory())),
                stateSize: nil, state: nil, others: [])
        }
        return SessionDirectoryRead(
            id: session.id, incognito: session.incognito, path: path,
            metadata: .bytes(ChromeProtoCodec.encodeSessionMetadata(session)),
            tabDirectories: directories, others: [])
    }

    /// The validate rule of one of the legacy reader's repairs.
    static func rule(for kind: LegacyRepair.Kind) -> Rule {
        switch kind {
        case .selectedIndexOutOfRange: return .legacySelectedIndexOutOfRange
        case .tabIDInvalid: return .legacyTabIDInvalid
        case .lastCommittedOutOfRange: return .legacyLastCommittedOutOfRange
        case .lastActiveBeforeCreation: return .legacyTimeOrder
        case .pinnedAfterUnpinned: return .legacyPinnedNotPrefix
        case .userAgentUnknown: return .legacyUserAgentUnknown
        }
    }
}
