import SessionFormats
import SessionModel

/// Computes `SessionLoad`s of scanned sessions with Chrome's loading semantics, remembering each
/// answer by the metadata's content and the directory's shape (so an unchanged session is never
/// parsed twice).
struct SessionLoader {
    private var cache: [UInt64: SessionLoad] = [:]

    mutating func load(_ session: ProfileScan.SessionEntry, tree: ModelTree) -> SessionLoad {
        let key = ContentHash.combine(session.metadata?.hash ?? 1, session.shape)
        if let known = cache[key] { return known }
        let result = SessionLoader.compute(session, tree: tree)
        cache[key] = result
        return result
    }

    /// Chrome's loader on one session directory (docs/chrome-ios-format.md, how Chrome loads).
    static func compute(_ session: ProfileScan.SessionEntry, tree: ModelTree) -> SessionLoad {
        let names = tree.names
        let id = names.name(session.name)
        var entries: [ChromeLoadSemantics.DirectoryEntry] = []
        if let node = tree.node(session.directory) {
            for (name, inode) in node.entries {
                guard let child = tree.node(inode) else { continue }
                let children = child.isDirectory ? child.entries.keys.map { names.name($0) } : []
                entries.append(
                    ChromeLoadSemantics.DirectoryEntry(name: names.name(name), isDirectory: child.isDirectory, children: children))
            }
        }
        let outcome = ChromeLoadSemantics.load(metadata: session.metadata?.bytes, entries: entries, id: id, incognito: session.incognito)
        let listed = Set(outcome.session?.tabs.map(\.id) ?? [])
        return SessionLoad(
            loss: outcome.loss?.description,
            tabs: outcome.session?.tabs.map(\.id) ?? [],
            dropped: outcome.droppedTabs.map { ($0.id, $0.reason == .noNavigationItems ? "no navigation items" : "duplicate id") },
            withoutData: outcome.tabsWithoutData,
            deletedTabDirectories: session.tabs.map(\.id).filter { !listed.contains($0) },
            shortenings: outcome.shortenings)
    }
}
