import SessionFormats
import SessionModel

@testable import ChromeIOS
@testable import SessionForensics

/// Runs the rebuilder on session directories held in memory, and validates what it would write.
enum RepairSupport {
    static let base = Samples.directory
    static let metadata = "\(Samples.directory)/session_metadata.pb"

    /// The snapshot of the sample session directory of `tree`.
    static func snapshot(_ tree: MemoryTree) -> SessionDirectoryRead {
        SessionDirectoryRead(tree: tree.readable, id: Samples.sessionID, incognito: false, path: base)
    }

    /// Rebuilds the sample session of `tree`: the repaired session and the steps.
    static func rebuild(_ tree: MemoryTree) -> (RepairedSession, [RepairAction]) {
        var rebuilder = SessionRebuilder(snapshot: snapshot(tree))
        let repaired = rebuilder.rebuild()
        return (repaired, rebuilder.actions)
    }

    /// A tree holding only what repair writes for `repaired`.
    static func tree(of repaired: RepairedSession) -> MemoryTree {
        let tree = MemoryTree()
        tree.add(metadata, repaired.metadata)
        for tab in repaired.tabs {
            tree.add("\(base)/\(tab.directory)/data.pb", tab.data)
            if let state = tab.state { tree.add("\(base)/\(tab.directory)/state.pb", state) }
        }
        return tree
    }

    /// The findings that need repair in what repair writes for `repaired` (none, when it did its job).
    static func problems(_ repaired: RepairedSession) throws -> [String] {
        try Samples.validate(tree(of: repaired)).findings.filter(\.needsRepair).map { "\($0.rule.name): \($0.message)" }
    }

    /// The decoded histories written for `repaired`, by tab id.
    static func histories(_ repaired: RepairedSession) throws -> [TabID: TabHistory] {
        var result: [TabID: TabHistory] = [:]
        for (tab, files) in zip(repaired.session.tabs, repaired.tabs) {
            result[tab.id] = try ChromeProtoCodec.decodeTabData(files.data)
        }
        return result
    }
}
