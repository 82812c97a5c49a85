import SessionFormats
import SessionModel

/// Durability: once save k is acknowledged, what recovery leaves is version k or newer: every
/// session the store ever wrote is where (live, or set aside in `Backups/`) and as it was in some
/// version >= k, and the data.pb of every restored tab is what it was in some version >= k.
public enum DurabilityOracle {
    /// The oldest "newest version" among the restored state's parts, and which part it is.
    struct Floor: Sendable {
        var version: Int
        var detail: String
    }

    /// Computes the floor: the state is version k or newer exactly when `floor.version >= k`.
    static func floor(_ scan: ProfileScan, loads: [SessionLoad], versions: VersionIndex, names: NameTable) -> Floor {
        var result = Floor(version: Int.max, detail: "")
        func consider(_ version: Int?, _ detail: @autoclosure () -> String) {
            let value = version ?? -1
            if value < result.version { result = Floor(version: value, detail: detail()) }
        }
        let contents = scan.sessionContents(names)
        for identity in Set(versions.sessionIdentities).union(contents.keys) {
            let content = contents[identity] ?? (nil, [])
            let state = content.live != nil ? "an older or unknown list" : content.aside.isEmpty ? "gone (neither live nor set aside)" : "set aside from an older or unknown list"
            consider(versions.newestSessionVersion(identity, live: content.live, aside: content.aside),
                     "\(versions.sessionName(identity)) is \(state)")
        }
        for (session, load) in zip(scan.sessions, loads) where load.loss == nil {
            let byID = Dictionary(session.tabs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for id in load.tabs {
                let tab = byID[id]
                let hash = tab?.data?.hash ?? VersionIndex.absent
                // A listed tab without a directory: its data.pb is absent, which some versions may be too.
                let key = tab?.dataKey ?? ProfileScan.dataKey(of: id, in: session, names)
                consider(key.map { versions.newestVersion($0, hash) } ?? versions.count - 1,
                         "tab \(id) of \(SessionPaths.directory(session, names)) has \(hash == VersionIndex.absent ? "no data.pb" : "an older data.pb")")
            }
        }
        if result.version == Int.max { result.version = versions.count }
        return result
    }
}
