import SessionFormats
import SessionModel

/// Computes `SessionLoad`s of scanned sessions with Chrome's loading semantics.
enum SessionLoader {
    /// Chrome's loader on one session directory (docs/chrome-ios-format.md, how Chrome loads).
    static func compute(_ session: ProfileScan.SessionEntry, tree: ModelTree) -> SessionLoad {
        let outcome = SessionLoader.outcome(
            directory: session.directory, metadata: session.metadata?.bytes, id: tree.names.name(session.name),
            incognito: session.incognito, tree: tree)
        let listed = Set(outcome.session?.tabs.map(\.id) ?? [])
        return SessionLoad(
            loss: outcome.loss?.description,
            tabs: outcome.session?.tabs.map(\.id) ?? [],
            dropped: outcome.droppedTabs.map { ($0.id, $0.reason == .noNavigationItems ? "no navigation items" : "duplicate id") },
            withoutData: outcome.tabsWithoutData,
            deletedTabDirectories: session.tabs.map(\.id).filter { !listed.contains($0) },
            shortenings: outcome.shortenings)
    }

    /// Chrome's loader on the session directory `directory` (an inode of `tree`) of the session
    /// `id`, whose session_metadata.pb holds `metadata` (nil: missing).
    static func outcome(directory: Int32, metadata: [UInt8]?, id: String, incognito: Bool, tree: ModelTree) -> ChromeLoadSemantics.Outcome {
        let names = tree.names
        var entries: [ChromeLoadSemantics.DirectoryEntry] = []
        if let node = tree.node(directory) {
            for (name, inode) in node.entries {
                guard let child = tree.node(inode) else { continue }
                let children = child.isDirectory ? child.entries.keys.map { names.name($0) } : []
                entries.append(
                    ChromeLoadSemantics.DirectoryEntry(name: names.name(name), isDirectory: child.isDirectory, children: children))
            }
        }
        return ChromeLoadSemantics.load(metadata: metadata, entries: entries, id: id, incognito: incognito)
    }
}
