import SessionFormats
import SessionModel

@testable import ChromeIOS
@testable import SessionForensics

/// Sessions, histories and trees built in code for the rule tests.
enum Samples {
    static let sessionID = "0F1E2D3C-4B5A-4968-8776-A5B4C3D2E1F0"
    static let directory = "SessionStorage/\(sessionID)"

    /// A navigation item of a simple page.
    static func item(_ n: Int, title: String? = nil) -> NavigationItem {
        NavigationItem(
            url: "https://example.com/page/\(n)", title: title ?? "Page \(n)",
            timestamp: Timestamp(microseconds: 13_400_000_000_000_000 + Int64(n) * 1_000_000), userAgent: .mobile)
    }

    /// A history of `count` items, the last one committed.
    static func history(items count: Int, lastCommitted: Int32? = nil) -> TabHistory {
        TabHistory(lastCommittedIndex: lastCommitted ?? Int32(count - 1), items: (0..<count).map { item($0) })
    }

    /// A list entry consistent with `history`.
    static func tab(_ id: TabID, history: TabHistory) -> Tab {
        var tab = Tab.summarising(history, id: id)
        tab.history = nil
        return tab
    }

    /// A healthy window of tabs with ids `ids`, each with a two-item history.
    static func session(ids: [TabID] = [1, 2, 3, 4]) -> Session {
        let tabs = ids.map {
            var t = tab($0, history: history(items: 2))
            t.history = history(items: 2)
            return t
        }
        return Session(
            id: sessionID, activeIndex: 0, pinnedCount: 1, tabs: tabs,
            groups: [TabGroup(start: 1, count: 2, title: "G", color: .grey, id: TabGroupID(high: 1, low: 2))])
    }

    /// The list subject of a session, with the layout of its canonical bytes.
    static func list(_ session: Session) -> ListSubject {
        let bytes = ChromeProtoCodec.encodeSessionMetadata(session)
        return ListSubject(session: session, layout: ListLayout(bytes), scope: scope(file: "\(directory)/session_metadata.pb"))
    }

    static func scope(file: String) -> FindingScope {
        FindingScope(session: sessionID, incognito: false, file: file)
    }

    /// The data subject of a history (with its canonical bytes' layout), listed as `listed`.
    static func data(_ history: TabHistory, listed: Tab?) -> TabDataSubject {
        let bytes = ChromeProtoCodec.encodeTabData(history)
        return TabDataSubject(
            history: history, layout: TabDataLayout(bytes), scope: scope(file: "data.pb"),
            tab: TabReference(index: 0, id: listed?.id),
            entry: listed.map { ListEntry(tab: $0, offsets: nil, scope: scope(file: "session_metadata.pb")) })
    }

    /// A profile tree holding `session` (with the histories its tabs carry) under SessionStorage/.
    static func tree(_ session: Session, root: String = "") -> MemoryTree {
        let tree = MemoryTree()
        let base = root.isEmpty ? directory : "\(root)/\(directory)"
        tree.add("\(base)/session_metadata.pb", ChromeProtoCodec.encodeSessionMetadata(session))
        for tab in session.tabs {
            guard let history = tab.history else { continue }
            tree.add("\(base)/\(Tab.directoryName(for: tab.id))/data.pb", ChromeProtoCodec.encodeTabData(history))
        }
        return tree
    }

    /// Validates a memory tree as a profile.
    static func validate(_ tree: MemoryTree) throws -> ValidationReport {
        Validator().validate(try InputLocator.locate(tree: tree.readable, ancestry: ["profile"]))
    }
}
