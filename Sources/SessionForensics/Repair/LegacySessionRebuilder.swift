import SessionFormats
import SessionModel

/// Works out the repair of one legacy session file (`Sessions/<id>/session.plist`) the way current
/// Chrome loads it: first the legacy reader's own repairs (chrome-ios-format.md section 6), then,
/// since Chrome migrates the window to the optimized format and its loading rules apply there, the
/// rebuild of an optimized session (`SessionRebuilder`, on the window converted in memory). The
/// result is a window to write back as a session.plist; every step names the validate rule it
/// fixes, on the plist's path.
struct LegacySessionRebuilder {
    let id: SessionID
    let incognito: Bool
    /// The session.plist, relative to the profile.
    let file: String
    private(set) var actions: [RepairAction] = []

    init(id: SessionID, incognito: Bool, file: String) {
        self.id = id
        self.incognito = incognito
        self.file = file
    }

    /// The repaired window, or nil when Chrome would load `window` as it is.
    ///
    /// Tabs without a stable identifier get a new one (as Chrome's migration gives them); the
    /// window keeps its archive's wrapping.
    mutating func rebuild(_ window: LegacyWindow) -> LegacyWindow? {
        let (read, repairs) = window.repairedAsChromeLoads()
        for repair in repairs {
            let subject = repair.tab.map { "tab \($0)" } ?? "the window"
            record(LegacySessionRebuilder.rule(for: repair.kind), "write \(subject) as Chrome reads it", because: repair.message)
        }
        let unique = uniqueTabIDs(read)
        var session = unique.session(id: id, incognito: incognito)
        session.format = .optimized

        var rebuilder = SessionRebuilder(snapshot: LegacySessionRebuilder.optimizedSnapshot(of: session, at: directory))
        let repaired = rebuilder.rebuild()
        // The steps concern the plist; the files their reasons name are those of the conversion.
        actions += rebuilder.actions.map { action in
            var action = action
            action.file = file
            action.reason = "in the window as Chrome migrates it, " + action.reason
            return action
        }
        guard !actions.isEmpty else { return nil }

        // The optimized format has no stable identifiers: each tab keeps its own, found by its id.
        let stable = Dictionary(unique.tabs.compactMap { tab in tab.validID.map { ($0, tab.stableIdentifier) } },
                                uniquingKeysWith: { first, _ in first })
        var result = repaired.session
        for (index, files) in repaired.tabs.enumerated() where index < result.tabs.count {
            result.tabs[index].history = try? ChromeProtoCodec.decodeTabData(files.data)
            result.tabs[index].stableIdentifier = stable[result.tabs[index].id] ?? nil
        }
        var rewritten = LegacyWindow(result)
        rewritten.wrappedInSessionIOS = window.wrappedInSessionIOS
        return rewritten
    }

    /// The session directory.
    private var directory: String {
        guard let slash = file.lastIndex(of: "/") else { return "" }
        return String(file[..<slash])
    }

    private mutating func record(_ rule: Rule, _ action: String, because reason: String) {
        actions.append(RepairAction(rule: rule, session: id, incognito: incognito, file: file, action: action, reason: reason))
    }

    /// The window with a fresh id, above the highest in use, for each tab whose id repeats an
    /// earlier tab's (Chrome would keep only one of them).
    private mutating func uniqueTabIDs(_ window: LegacyWindow) -> LegacyWindow {
        var window = window
        var seen = Set<Int64>()
        var highest = window.tabs.compactMap(\.uniqueIdentifier).filter { $0 > 0 && $0 <= Int64(Int32.max) }.max() ?? 0
        for index in window.tabs.indices {
            guard let stored = window.tabs[index].uniqueIdentifier, !seen.insert(stored).inserted else { continue }
            repeat {
                highest = highest < Int64(Int32.max) ? highest + 1 : 1
            } while seen.contains(highest) || window.tabs.contains(where: { $0.uniqueIdentifier == highest })
            seen.insert(highest)
            window.tabs[index].uniqueIdentifier = highest
            record(.tabIDDuplicate, "give tab \(index) the new id #\(highest)",
                   because: "tab \(index) has identifier \(stored), like an earlier tab; Chrome would keep only one of them")
        }
        return window
    }

    /// The optimized session directory Chrome's migration would write for `session`: its
    /// session_metadata.pb and each tab's data.pb, in memory.
    private static func optimizedSnapshot(of session: Session, at path: String) -> SessionSnapshot {
        let directories = session.tabs.map { tab in
            SessionSnapshot.TabDirectory(
                name: Tab.directoryName(for: tab.id), id: tab.id,
                data: .bytes(ChromeProtoCodec.encodeTabData(tab.history ?? TabHistory())),
                stateSize: nil, state: nil, others: [])
        }
        return SessionSnapshot(id: session.id, incognito: session.incognito, path: path,
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
