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
    ///
    /// `asideLoads` are Chrome's loads of the set-aside entries (`scan.backups`, nil where an entry
    /// has no contents): an entry stands for a version of its session only as far as the data of
    /// the tabs it would restore is that version's too, so that an entry that kept the list but
    /// lost a tab's data is not taken for the session.
    static func floor(
        _ scan: ProfileScan, loads: [SessionLoad], asideLoads: [SessionLoad?], versions: VersionIndex,
        names: NameTable
    ) -> Floor {
        var result = Floor(version: Int.max, detail: "")
        func consider(_ version: Int?, _ detail: @autoclosure () -> String) {
            let value = version ?? -1
            if value < result.version { result = Floor(version: value, detail: detail()) }
        }
        let contents = scan.sessionContents(names)
        for identity in Set(versions.sessionIdentities).union(contents.keys) {
            let content = contents[identity] ?? (nil, [])
            let state =
                content.live != nil
                ? "an older or unknown list"
                : content.aside.isEmpty
                    ? "gone (neither live nor set aside)"
                    : "set aside from an older or unknown list, or without a tab's data as it was"
            // An entry's tabs are judged against the last version in which its list was live (the
            // later ones, where the session's files are absent because it was set aside, say
            // nothing of it). When every tab's data is that version's, the entry stands for every
            // version its list stands for; when one is older, for no version newer than that
            // tab's. An entry whose list was never live (one the profile started with) is judged
            // by its list.
            let aside = content.aside.map { item in
                (
                    list: item.list,
                    data: scan.backups[item.entry].contents.flatMap { entry in
                        asideLoads[item.entry].flatMap { load in
                            versions.newestLiveListVersion(identity, item.list).flatMap { listed in
                                tabsFloor(entry, load: load, versions: versions, names: names, notAfter: listed)
                                    .flatMap { $0.version < listed ? $0.version : nil }
                            }
                        }
                    } ?? Int.max
                )
            }
            consider(
                versions.newestSessionVersion(identity, live: content.live, aside: aside),
                "\(versions.sessionName(identity)) is \(state)")
        }
        for (session, load) in zip(scan.sessions, loads) {
            if let floor = tabsFloor(session, load: load, versions: versions, names: names) { consider(floor.version, floor.detail) }
        }
        if result.version == Int.max { result.version = versions.count }
        return result
    }

    /// The oldest "newest version" (no newer than `notAfter`) among the data of the tabs Chrome
    /// would restore from a session directory, and which tab it is; nil when there is none (or
    /// the whole session is lost, which the collateral-loss oracle judges).
    private static func tabsFloor(
        _ session: ProfileScan.SessionEntry, load: SessionLoad, versions: VersionIndex,
        names: NameTable, notAfter: Int = .max
    ) -> Floor? {
        guard load.loss == nil else { return nil }
        var result: Floor?
        let byID = Dictionary(session.tabs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for id in load.tabs {
            let tab = byID[id]
            let hash = tab?.data?.hash ?? VersionIndex.absent
            // A listed tab without a directory: its data.pb is absent, which some versions may be too.
            let key = tab?.dataKey ?? ProfileScan.dataKey(of: id, in: session, names)
            let version = key.map { versions.newestVersion($0, hash, notAfter: notAfter) ?? -1 } ?? min(versions.count - 1, notAfter)
            if version < result?.version ?? Int.max {
                result = Floor(
                    version: version,
                    detail:
                        "tab \(id) of \(SessionPaths.directory(session, names)) has \(hash == VersionIndex.absent ? "no data.pb" : "an older data.pb")"
                )
            }
        }
        return result
    }
}
